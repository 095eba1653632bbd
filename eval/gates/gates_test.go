package gates

import (
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/internal/evaltest"
)

const contract = `contract "checks" {}

threat_model {}

task "T1" {
  utility = "true"
}

task "T2" {
  utility = "true"
}

gate "release" {
  require = ["metrics.benign_utility >= 0.75"]
}

gate "strict" {
  conditions = ["a", "missing"]
  require    = ["metrics.benign_utility == 1.0"]
}
`

func benign(condition, task string, u bool) runs.Record {
	return runs.Record{Key: runs.Key{Contract: "checks", Condition: condition, Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
}

// TestEvaluate: each requirement per condition, in gate, condition order;
// a failed requirement names the values it read; a condition the gate
// lists without runs is NOT RUN and an error, not a failure.
func TestEvaluate(t *testing.T) {
	p := evaltest.ProgramFrom(t, map[string][]byte{"main.tenet.hcl": []byte(contract)})
	recs := []runs.Record{benign("a", "T1", true), benign("a", "T2", true), benign("b", "T1", true), benign("b", "T2", false)}
	res := summary.Collect(recs, map[string]metrics.Declared{"checks": summary.Declared(p.Bundle)}, metrics.Options{}, 0)
	got, errs := Evaluate([]*eval.Program{p}, res.Conditions, res.Checks)
	type row struct {
		gate, cond, reason string
		passed, noRuns     bool
	}
	var rows []row
	for _, g := range got {
		rows = append(rows, row{g.Gate, g.Condition, g.Reason, g.Passed, g.NoRuns})
	}
	want := []row{
		{"release", "checks:a", "", true, false},
		{"release", "checks:b", "is false (benign_utility = 0.5000)", false, false},
		{"strict", "missing", "no runs of this condition were evaluated", false, true},
		{"strict", "checks:a", "", true, false},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("results\n%+v\nwant\n%+v", rows, want)
	}
	wantErrs := []string{"gate strict lists condition missing, which has no runs: the gate was not evaluated (is the condition misspelt, or were the runs judged by another contract?)"}
	if !slices.Equal(errs, wantErrs) {
		t.Errorf("errors %q, want %q", errs, wantErrs)
	}

	// A contract with gates and no run at all: its gates were not
	// evaluated, which is an error; without any condition (the metrics
	// failed as a whole) there is none, the metrics' error says why.
	other := []runs.Record{{Key: runs.Key{Contract: "other", Condition: "a", Task: "T1", Attempt: 1, Repetition: 1}, Utility: runs.Bool(true)}}
	res = summary.Collect(other, nil, metrics.Options{}, 0)
	wantErrs = []string{
		"gate strict lists condition a, which has no runs: the gate was not evaluated (is the condition misspelt, or were the runs judged by another contract?)",
		wantErrs[0],
		"no run is of contract checks: its gates (release, strict) were not evaluated",
	}
	if _, errs := Evaluate([]*eval.Program{p}, res.Conditions, res.Checks); !slices.Equal(errs, wantErrs) {
		t.Errorf("errors %q", errs)
	}
	if got, errs := Evaluate([]*eval.Program{p}, nil, nil); len(errs) != 0 || len(got) != 2 || !got[0].NoRuns {
		t.Errorf("no conditions: %+v, errors %q", got, errs)
	}
}
