package markdown

import (
	"bytes"
	"strings"
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
		var md bytes.Buffer
		mdAudit(&md, counts, nil)
		if got := strings.Contains(md.String(), "| hazards | mismatches |"); got != (n == 1) {
			t.Errorf("mismatches %d: markdown:\n%s", n, md.String())
		}
	}
}
