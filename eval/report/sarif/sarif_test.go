package sarif

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/sarif"
)

// written is d's SARIF log as Write writes it, checked against the SARIF
// 2.1.0 schema and read back.
func written(t *testing.T, d *report.Document) sarif.Log {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile("../../../internal/sarif/testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, buf.Bytes())
	}
	var log sarif.Log
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBundleContractLocations: a contract given as a bundle file (Source
// Dir "") has file names relative to where it was compiled, not to the
// repository: no result points at them. A violation with a witness is at
// its run's transcript line (as without --contract), one without at a
// logical location; the message names the contract's file and line.
func TestBundleContractLocations(t *testing.T) {
	key := runs.Key{Contract: "quickstart-mail", Condition: "a", Task: "t1", Attempt: 1, Repetition: 1}
	d := &report.Document{
		Command: report.CommandEval,
		Checks: []tally.Checks{{Contract: "quickstart-mail", Condition: "a", Runs: 2, Invariants: []tally.CheckCount{
			{Name: "no_exfil", Hits: 1, HitRuns: []runs.Key{key}}, {Name: "answered", Unknown: 1}}}},
		Violations: []report.Violation{{Key: key, Invariant: "no_exfil", OriginFile: "traces/a.jsonl", OriginLine: 4}},
		Gates: []report.GateResult{{Contract: "quickstart-mail", Gate: "g", Condition: "quickstart-mail:a", Requirement: "metrics.x == 0",
			Reason: "is false", Range: bundle.Range{File: "../../common/gates.tenet.hcl", Line: 9, Column: 14}}},
		Sources: []report.Source{{Contract: "quickstart-mail", Invariants: []report.InvariantSource{
			{Name: "no_exfil", Severity: "high", File: "contract.tenet.hcl", Line: 70, Column: 3},
			{Name: "answered", Severity: "high", File: "contract.tenet.hcl", Line: 80, Column: 3}}}},
	}
	rs := written(t, d).Runs[0].Results
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3", len(rs))
	}
	want := []struct{ msg, locs string }{
		{"invariant no_exfil violated on 1 run of 2 runs in quickstart-mail:a; first: quickstart-mail:a/t1 at contract.tenet.hcl:70 of contract quickstart-mail",
			`[{"physicalLocation":{"artifactLocation":{"uri":"traces/a.jsonl"},"region":{"startLine":4}}}]`},
		{"invariant answered undecided on 1 run of 2 runs in quickstart-mail:a at contract.tenet.hcl:80 of contract quickstart-mail",
			`[{"logicalLocations":[{"name":"answered","fullyQualifiedName":"quickstart-mail/invariant/answered"}]}]`},
		{"gate g failed for quickstart-mail:a: metrics.x == 0: is false at ../../common/gates.tenet.hcl:9 of contract quickstart-mail",
			`[{"logicalLocations":[{"name":"g","fullyQualifiedName":"quickstart-mail/gate/g"}]}]`},
	}
	for i, w := range want {
		if rs[i].Message.Text != w.msg {
			t.Errorf("result %d: message %q, want %q", i, rs[i].Message.Text, w.msg)
		}
		if got := jsonOf(t, rs[i].Locations); got != w.locs {
			t.Errorf("result %d: locations %s, want %s", i, got, w.locs)
		}
	}
	// With a contract directory, paths are joined to it as before.
	d.Sources[0].Dir = "contracts/mail"
	rs = written(t, d).Runs[0].Results
	if got := jsonOf(t, rs[1].Locations); got != `[{"physicalLocation":{"artifactLocation":{"uri":"contracts/mail/contract.tenet.hcl"},"region":{"startLine":80,"startColumn":3}}}]` {
		t.Errorf("with a directory: %s", got)
	}
	if rs[1].Message.Text != "invariant answered undecided on 1 run of 2 runs in quickstart-mail:a" {
		t.Errorf("with a directory: %q", rs[1].Message.Text)
	}
}

// TestPartialFingerprints: one invariant failing in two conditions, at
// the same line, gives two results of distinct fingerprints (GitHub would
// otherwise fingerprint both by the line and keep one alert).
func TestPartialFingerprints(t *testing.T) {
	d := &report.Document{
		Command: report.CommandEval,
		Checks: []tally.Checks{
			{Contract: "c", Condition: "a", Runs: 2, Invariants: []tally.CheckCount{{Name: "safe", Hits: 1}}},
			{Contract: "c", Condition: "b", Runs: 2, Invariants: []tally.CheckCount{{Name: "safe", Hits: 2}}}},
		Sources: []report.Source{{Contract: "c", Dir: "contracts/c", Invariants: []report.InvariantSource{
			{Name: "safe", Severity: "high", File: "main.tenet.hcl", Line: 3, Column: 1}}}},
	}
	rs := written(t, d).Runs[0].Results
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	// sha256 of "invariant/safe\x00c\x00a\x00" and "invariant/safe\x00c\x00b\x00".
	want := []string{
		`{"tenetResult/v1":"191d8afc453cc287cb09cae9704289fc7f3c66ae1f97a994024fef448fd2de08"}`,
		`{"tenetResult/v1":"eab13209c619cf26245679cd088c9c244f4ddb9cfde23f24ca5d3b45d4c16c84"}`,
	}
	for i := range rs {
		if got := jsonOf(t, rs[i].PartialFingerprints); got != want[i] {
			t.Errorf("result %d: %s, want %s", i, got, want[i])
		}
	}
	if want[0] == want[1] {
		t.Error("the two conditions share a fingerprint")
	}
}

// TestNotFailingIsNote: a failure --fail-on leaves out is a note whose
// message ends as its stderr line does; the others keep their level.
func TestNotFailingIsNote(t *testing.T) {
	d := &report.Document{
		Command: report.CommandEval,
		Checks:  []tally.Checks{{Contract: "c", Condition: "a", Runs: 2, Invariants: []tally.CheckCount{{Name: "safe", Hits: 1}}}},
		Gates:   []report.GateResult{{Contract: "c", Gate: "g", Condition: "c:a", Requirement: "metrics.x == 0", Reason: "is false"}},
	}
	d.SetPolicy(failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Invariants}})
	rs := written(t, d).Runs[0].Results
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	if rs[0].Level != sarif.Note || rs[0].Message.Text != "invariant safe violated on 1 run of 2 runs in c:a (not failing: --fail-on gates)" {
		t.Errorf("invariant: %s %q", rs[0].Level, rs[0].Message.Text)
	}
	if rs[1].Level != sarif.Error || rs[1].Message.Text != "gate g failed for c:a: metrics.x == 0: is false" {
		t.Errorf("gate: %s %q", rs[1].Level, rs[1].Message.Text)
	}
}

// TestExecutionSuccessful: the invocation is successful unless the exit
// code is 2, whose errors are then its notifications.
func TestExecutionSuccessful(t *testing.T) {
	d := &report.Document{Command: report.CommandEval, ExitCode: 1}
	if got := jsonOf(t, written(t, d).Runs[0].Invocations); got != `[{"executionSuccessful":true}]` {
		t.Errorf("exit 1: %s", got)
	}
	d = &report.Document{Command: report.CommandEval, ExitCode: 2, Errors: []string{"metrics: unknown labels in c:a"}}
	want := `[{"executionSuccessful":false,"toolExecutionNotifications":[{"level":"error","message":{"text":"metrics: unknown labels in c:a"}}]}]`
	if got := jsonOf(t, written(t, d).Runs[0].Invocations); got != want {
		t.Errorf("exit 2: %s, want %s", got, want)
	}
}

// TestShard: a shard's log says so, valid SARIF: the run property
// tenet.shard and the shard line as a note; a whole evaluation's has
// neither.
func TestShard(t *testing.T) {
	d := &report.Document{Command: report.CommandEval, Shard: &report.Shard{Index: 2, Count: 3}}
	run := written(t, d).Runs[0]
	if got := jsonOf(t, run.Properties); got != `{"tenet.shard":{"index":2,"count":3}}` {
		t.Errorf("properties: %s", got)
	}
	want := `[{"executionSuccessful":true,"toolExecutionNotifications":[{"level":"note","message":{"text":"shard 2 of 3: the runs whose task falls in it; metrics over those (the declared tasks and cases that ran), gates not evaluated: tenet report over every shard's runs file gives the whole"}}]}]`
	if got := jsonOf(t, run.Invocations); got != want {
		t.Errorf("invocations: %s", got)
	}
	whole := written(t, &report.Document{Command: report.CommandEval}).Runs[0]
	if whole.Properties != nil || len(whole.Invocations[0].ToolExecutionNotifications) != 0 {
		t.Errorf("a whole evaluation's run: %s", jsonOf(t, whole))
	}
}
