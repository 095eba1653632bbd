package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestAuditMismatches: the mismatches column appears in the table only
// when some condition has a call whose result disagrees with its request,
// so reports without any stay as they were (the JSON, Markdown and HTML
// renderers test theirs).
func TestAuditMismatches(t *testing.T) {
	counts := func(mismatches int) []tally.AuditCounts {
		return []tally.AuditCounts{{Condition: "m", Grants: []string{"g"}, Calls: 2,
			Decisions: map[string]int{runs.Authorized: 2}, Hazards: 0, Mismatches: mismatches}}
	}
	for _, n := range []int{0, 1} {
		var text bytes.Buffer
		if err := WriteAudit(&text, counts(n), nil); err != nil {
			t.Fatal(err)
		}
		want := n == 1
		lines := strings.Split(strings.TrimSpace(text.String()), "\n")
		if got := strings.HasSuffix(lines[1], "hazards  mismatches") && strings.HasSuffix(lines[2], "0        1"); got != want {
			t.Errorf("mismatches %d: text table:\n%s", n, text.String())
		}
	}
}
