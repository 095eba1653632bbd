package github

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/failpolicy"
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

// TestBundleContractHasNoPath: a contract given as a bundle file (Source
// Dir "") has file names relative to the directory it was compiled from,
// not to the repository: the annotation names no file, and its message
// says the contract's file, line and name.
func TestBundleContractHasNoPath(t *testing.T) {
	d := &report.Document{
		Command: report.CommandEval,
		Checks: []tally.Checks{{Contract: "quickstart-mail", Condition: "a", Runs: 2,
			Invariants: []tally.CheckCount{{Name: "no_exfil", Hits: 1}}}},
		Gates: []report.GateResult{{Contract: "quickstart-mail", Gate: "g", Condition: "quickstart-mail:a", Requirement: "metrics.x == 0",
			Reason: "is false", Range: bundle.Range{File: "../../common/gates.tenet.hcl", Line: 9, Column: 14}}},
		Sources: []report.Source{{Contract: "quickstart-mail", Invariants: []report.InvariantSource{
			{Name: "no_exfil", Severity: "high", File: "contract.tenet.hcl", Line: 70, Column: 3}}}},
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := `::error title=invariant no_exfil (high)::invariant no_exfil violated on 1 run of 2 runs in quickstart-mail:a at contract.tenet.hcl:70 of contract quickstart-mail` + "\n" +
		`::error title=gate g::gate g failed for quickstart-mail:a: metrics.x == 0: is false at ../../common/gates.tenet.hcl:9 of contract quickstart-mail` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestNotFailingIsNotice: a failure --fail-on leaves out is a notice
// saying why, in the words of the stderr line; the others keep their level.
func TestNotFailingIsNotice(t *testing.T) {
	d := &report.Document{
		Command: report.CommandEval,
		Checks: []tally.Checks{{Contract: "c", Condition: "a", Runs: 2,
			Invariants: []tally.CheckCount{{Name: "safe", Hits: 1}}}},
		Gates: []report.GateResult{{Contract: "c", Gate: "g", Condition: "c:a", Requirement: "metrics.x == 0", Reason: "is false"}},
	}
	d.SetPolicy(failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Gates}})
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := `::error title=invariant safe::invariant safe violated on 1 run of 2 runs in c:a` + "\n" +
		`::notice title=gate g::gate g failed for c:a: metrics.x == 0: is false (not failing: --fail-on invariants)` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestLongInvariantNameCut: an invariant's name is cut in the title and
// the message as names are cut elsewhere (report.CutCell).
func TestLongInvariantNameCut(t *testing.T) {
	name := strings.Repeat("n", 5000)
	d := &report.Document{
		Command: report.CommandEval,
		Checks: []tally.Checks{{Contract: "c", Condition: "a", Runs: 2,
			Invariants: []tally.CheckCount{{Name: name, Hits: 1}}}},
	}
	as := Annotations(d)
	if len(as) != 1 {
		t.Fatalf("%d annotations, want 1", len(as))
	}
	cut := strings.Repeat("n", 100) + "…(+4800 bytes)…" + strings.Repeat("n", 100)
	if report.CutCell(name) != cut {
		t.Fatalf("CutCell gives %q", report.CutCell(name))
	}
	if want := "invariant " + cut; as[0].Title != want {
		t.Errorf("title %q, want %q", as[0].Title, want)
	}
	if want := "invariant " + cut + " violated on 1 run of 2 runs in c:a"; as[0].Message != want {
		t.Errorf("message %q, want %q", as[0].Message, want)
	}
}
