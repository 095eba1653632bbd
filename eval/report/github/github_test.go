package github

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestHostileConditionName: a condition is named by transcripts, so it is
// attacker-controlled text; a line break in it cannot start a workflow
// command of its own.
func TestHostileConditionName(t *testing.T) {
	d := &report.Document{
		Checks: []tally.Checks{{Contract: "c", Condition: "x\n::error file=evil::pwned", Runs: 4,
			Invariants: []tally.CheckCount{{Name: "safe", Hits: 1}, {Name: "held"}}}},
		Gates: []report.GateResult{{Contract: "c", Gate: "g", Condition: "y\r\n%", Requirement: "metrics.x == 0",
			Reason: "is false", Range: bundle.Range{File: "main.tenet.hcl", Line: 9, Column: 14}}},
		Sources: []report.Source{{Contract: "c", Dir: "contracts/c", Invariants: []report.InvariantSource{
			{Name: "safe", Severity: "medium", File: "main.tenet.hcl", Line: 3, Column: 12}}}},
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := `::warning file=contracts/c/main.tenet.hcl,line=3,col=12,title=invariant safe (medium)::invariant safe violated on 1 run of 4 runs in c:"x\n::error file=evil::pwned"` + "\n" +
		`::error file=contracts/c/main.tenet.hcl,line=9,col=14,title=gate g::gate g failed for y%0D%0A%25: metrics.x == 0: is false` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}
