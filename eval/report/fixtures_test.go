package report

import (
	"flag"
	"github.com/tenetlang/tenet/eval/failpolicy"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// The Documents the format tests render: one per command, plus one with
// errors and hostile names.

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the actual output")

// golden compares got with testdata/NAME, or writes it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

// testDocuments returns the fixtures by name, in a fixed order.
func testDocuments(t *testing.T) []struct {
	name string
	doc  *Document
} {
	return []struct {
		name string
		doc  *Document
	}{
		{"eval", evalDocument(t)},
		{"bounds", boundsDocument(t)},
		{"compare", compareDocument(t)},
		{"test", testsDocument()},
		{"errors", errorsDocument()},
		{"observed", observedDocument(t)},
		{"empty", testBuild(testInput{Command: CommandReport, Version: "0.9.0", Inputs: []string{"none.jsonl"}})},
		{"policy", policyDocument(t)},
	}
}

// policyDocument is evalDocument under --fail-on invariants
// --fail-on-severity high: its failed gate is reported, not failing.
func policyDocument(t *testing.T) *Document {
	d := evalDocument(t)
	d.SetPolicy(failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Gates}, MinSeverity: failpolicy.High})
	return d
}

const gateContract = `contract "checks" {
  version = "1.0"
}

threat_model {}

task "T1" {
  utility = "true"
}

gate "release" {
  require = ["metrics.benign_utility >= 0.5", "metrics.targeted_asr <= 0.25"]
}
`

// fixtureRecord builds a record: goal "" is a benign run; attacked runs get
// attack_success a and side effect a.
func fixtureRecord(contract, condition, task, goal string, u, a bool) runs.Record {
	r := runs.Record{Key: runs.Key{Contract: contract, Condition: condition, Task: task, Goal: goal, Attempt: 1, Repetition: 1},
		Utility: runs.Bool(u)}
	if goal != "" {
		r.AttackSuccess, r.SideEffect = runs.Bool(a), runs.Bool(a)
	}
	return r
}

// evalDocument is tenet eval of contract "checks" on conditions a (clean)
// and b (an invariant violated with a witness, a denied call, a
// disagreement with the given labels, a failed gate requirement).
func evalDocument(t *testing.T) *Document { return testBuild(evalInput(t)) }

// evalInput is the testInput of evalDocument.
func evalInput(t *testing.T) testInput {
	yes, no := true, false
	var recs []runs.Record
	for _, c := range []struct {
		cond             string
		u1, u2, uc1, uc2 bool
		a1               bool
	}{{"a", true, true, true, false, false}, {"b", true, false, false, true, true}} {
		for _, r := range []runs.Record{
			fixtureRecord("checks", c.cond, "T1", "", c.u1, false),
			fixtureRecord("checks", c.cond, "T2", "", c.u2, false),
			fixtureRecord("checks", c.cond, "T1", "G1", c.uc1, c.a1),
			fixtureRecord("checks", c.cond, "T2", "G1", c.uc2, false),
		} {
			r.Invariants = map[string]runs.Label{"answered": runs.True()}
			r.Failures = map[string]runs.Label{"tool_error": runs.False()}
			r.Grant = "default"
			r.Audit = []runs.AuditEntry{{Call: 0, Tool: "read_file", Decision: runs.Authorized, Parent: -1}}
			r.Given.Utility = &r.Utility.Value
			recs = append(recs, r)
		}
	}
	b1 := &recs[4] // b/T1
	b1.Given.Utility, b1.OriginFile, b1.OriginLine = &no, "traces.jsonl", 5
	bc := &recs[6] // b/T1/G1
	bc.OriginFile, bc.OriginLine = "traces.jsonl", 7
	bc.Invariants["answered"] = runs.False()
	bc.Witnesses = map[string]map[string]string{"invariants.answered": {"read": "call:0", "send": "call:1"}}
	bc.Audit = append(bc.Audit, runs.AuditEntry{Call: 1, Tool: "send_email", Decision: runs.MissingResourceCapability,
		Detail: `grant "default" does not allow (send, eve@evil.example)`, Parent: -1})
	bc.Given.AttackSuccess = &yes
	recs[7].Failures["tool_error"] = runs.True()
	recs[7].Invariants["answered"] = runs.Unknown("criterion error: no output")
	return testInput{
		Command: CommandEval, Version: "0.9.0", Inputs: []string{"traces.jsonl"},
		Contracts: []Contract{{Name: "checks", Version: "1.0", Bundle: "sha256:5a5a", Judged: 8, Headers: 1,
			Skipped: []Skipped{{Reason: "task not in contract", Count: 3, IDs: []IDCount{{"T8", 1}, {"T9", 2}}}}}},
		Records:  recs,
		Programs: []*eval.Program{evaltest.ProgramFrom(t, map[string][]byte{"main.tenet.hcl": []byte(gateContract)})},
	}
}

// workedRecords returns the worked example (runs/testdata/worked.jsonl) under a
// contract and condition.
func workedRecords(t *testing.T, contract, condition string) []runs.Record {
	t.Helper()
	recs, err := runs.ReadFiles("../runs/testdata/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		recs[i].Key.Contract, recs[i].Key.Condition = contract, condition
	}
	return recs
}

// findRecord returns the record of task and goal (attempt and repetition 1).
func findRecord(t *testing.T, recs []runs.Record, task, goal string) *runs.Record {
	t.Helper()
	for i, r := range recs {
		if r.Key.Task == task && r.Key.Goal == goal && r.Key.Attempt == 1 && r.Key.Repetition == 1 {
			return &recs[i]
		}
	}
	t.Fatalf("no run %s/%s", task, goal)
	return nil
}

// boundsDocument is tenet report --unknown=bounds on two contracts: c1's
// condition m has two unknown labels (bounded rates), c2's has two
// repetitions (bootstrap intervals); the leaderboard pools them.
func boundsDocument(t *testing.T) *Document { return testBuild(boundsInput(t)) }

// boundsInput is the testInput of boundsDocument.
func boundsInput(t *testing.T) testInput {
	recs := workedRecords(t, "c1", "m")
	findRecord(t, recs, "T4", "").Utility = runs.Unknown("criterion error: no key 'iban'")
	findRecord(t, recs, "T2", "G1").AttackSuccess = runs.Unknown("state missing")
	rep := workedRecords(t, "c2", "m")
	for _, r := range workedRecords(t, "c2", "m") {
		r.Key.Repetition = 2
		if r.Key.Task == "T1" && !r.Key.Attacked() {
			r.Utility = runs.False()
		}
		rep = append(rep, r)
	}
	return testInput{Command: CommandReport, Version: "0.9.0", Inputs: []string{"c1.jsonl", "c2.jsonl"},
		Records: append(recs, rep...), Metrics: metrics.Options{Unknown: metrics.UnknownBounds, Resamples: 200, Seed: 7}}
}

// compareDocument is tenet compare of ref and def on the worked example,
// def solving T4 and stopping the attack on T2/G1.
func compareDocument(t *testing.T) *Document {
	ref := workedRecords(t, "", "ref")
	def := workedRecords(t, "", "def")
	findRecord(t, def, "T4", "").Utility = runs.True()
	stopped := findRecord(t, def, "T2", "G1")
	stopped.AttackSuccess, stopped.SideEffect = runs.False(), runs.False()
	c, err := metrics.Compare(append(ref, def...), "ref", "def", metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return BuildComparison("0.9.0", []string{"runs.jsonl"}, len(ref)+len(def), &c, 0)
}

// testsDocument is tenet test with one passing and one failing test.
func testsDocument() *Document {
	return BuildTests("0.9.0", Contract{Name: "checks", Version: "1.0", Bundle: "sha256:5a5a"}, []TestResult{
		{Contract: "checks", Name: "T1 is solved", Passed: true},
		{Contract: "checks", Name: "wrong expectations fail", OriginFile: "tests/runs.jsonl", OriginLine: 3,
			Problems: []string{"utility: want true, got false", "violations: want [answered], got []"}},
	})
}

// errorsDocument is tenet report on runs with hostile names (a condition
// "a|b<script>", a task with a newline, a control character and invalid
// UTF-8 in a reason) and an unknown label: the hostile condition's metrics
// are refused.
func errorsDocument() *Document { return testBuild(errorsInput()) }

// errorsInput is the testInput of errorsDocument.
func errorsInput() testInput {
	hostile := "a|b<script>"
	recs := []runs.Record{
		fixtureRecord("", "ok", "T1", "", true, false),
		fixtureRecord("", hostile, "t\nx", "", true, false),
		fixtureRecord("", hostile, "T2", "", false, false),
	}
	recs[2].Utility = runs.Unknown("criterion error: \x1b[31mred\xff | `x` <b>")
	recs[1].Invariants = map[string]runs.Label{"answered": runs.False()}
	return testInput{Command: CommandReport, Version: "0.9.0", Inputs: []string{"runs.jsonl"}, Records: recs}
}

// observedDocument is tenet report --contract --cases observed on the
// worked example under a contract that declares goals G1 and G2 for
// T1..T4 and a task T5: only G1 ran, and T5 did not (4 of 8 cases, 4 of 5
// tasks).
func observedDocument(t *testing.T) *Document {
	d := metrics.Declared{Tasks: []string{"T1", "T2", "T3", "T4", "T5"}}
	for _, g := range []string{"G1", "G2"} {
		for _, task := range []string{"T1", "T2", "T3", "T4"} {
			d.Cases = append(d.Cases, runs.Case{Task: task, Goal: g})
		}
	}
	return testBuild(testInput{Command: CommandReport, Version: "0.9.0", Inputs: []string{"runs.jsonl"},
		Records: workedRecords(t, "", "m"), Declared: map[string]metrics.Declared{"": d},
		Metrics: metrics.Options{Cases: metrics.CasesObserved}})
}
