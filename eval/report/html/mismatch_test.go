package html

import (
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestAuditMismatches: the mismatches column appears only when some
// condition has a call whose result disagrees with its request, so
// reports without any stay as they were.
func TestAuditMismatches(t *testing.T) {
	for _, n := range []int{0, 1} {
		counts := []tally.AuditCounts{{Condition: "m", Grants: []string{"g"}, Calls: 2,
			Decisions: map[string]int{runs.Authorized: 2}, Hazards: 0, Mismatches: n}}
		v := htmlAuditViewOf(counts, nil)
		lastHead := v.Heads[len(v.Heads)-1]
		lastCell := v.Rows[0].Cells[len(v.Rows[0].Cells)-1]
		if got := lastHead == "mismatches" && lastCell == "1"; got != (n == 1) {
			t.Errorf("mismatches %d: html heads %q, cells %q", n, v.Heads, v.Rows[0].Cells)
		}
	}
}
