package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestAuditMismatches: the mismatches column appears in every format only
// when some condition has a call whose result disagrees with its request,
// so reports without any stay as they were.
func TestAuditMismatches(t *testing.T) {
	counts := func(mismatches int) []metrics.AuditCounts {
		return []metrics.AuditCounts{{Condition: "m", Grants: []string{"g"}, Calls: 2,
			Decisions: map[string]int{runs.Authorized: 2}, Hazards: 0, Mismatches: mismatches}}
	}
	for _, n := range []int{0, 1} {
		var text, md bytes.Buffer
		if err := WriteAudit(&text, counts(n)); err != nil {
			t.Fatal(err)
		}
		mdAudit(&md, counts(n))
		js, err := json.Marshal(jsonAudit(counts(n)[0]))
		if err != nil {
			t.Fatal(err)
		}
		html := htmlAuditViewOf(counts(n))
		lastHead := html.Heads[len(html.Heads)-1]
		lastCell := html.Rows[0].Cells[len(html.Rows[0].Cells)-1]
		want := n == 1
		lines := strings.Split(strings.TrimSpace(text.String()), "\n")
		if got := strings.HasSuffix(lines[1], "hazards  mismatches") && strings.HasSuffix(lines[2], "0        1"); got != want {
			t.Errorf("mismatches %d: text table:\n%s", n, text.String())
		}
		if got := strings.Contains(md.String(), "| hazards | mismatches |"); got != want {
			t.Errorf("mismatches %d: markdown:\n%s", n, md.String())
		}
		if got := strings.Contains(string(js), `"mismatches":1`); got != want || strings.Contains(string(js), "mismatches") != want {
			t.Errorf("mismatches %d: json %s", n, js)
		}
		if got := lastHead == "mismatches" && lastCell == "1"; got != want {
			t.Errorf("mismatches %d: html heads %q, cells %q", n, html.Heads, html.Rows[0].Cells)
		}
	}
}
