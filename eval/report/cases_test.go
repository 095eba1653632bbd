package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
)

// TestCasesObservedEveryFormat: under --cases observed every format says
// the mode and how many declared cases and tasks ran, per condition; under
// the default none says anything new.
func TestCasesObservedEveryFormat(t *testing.T) {
	b := func(task string, u bool) runs.Record {
		return runs.Record{Key: runs.Key{Contract: "k", Condition: "m", Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
	}
	a := func(task, goal string, s bool) runs.Record {
		return runs.Record{Key: runs.Key{Contract: "k", Condition: "m", Task: task, Goal: goal, Attempt: 1, Repetition: 1},
			Utility: runs.True(), AttackSuccess: runs.Bool(s), SideEffect: runs.Bool(s)}
	}
	recs := []runs.Record{b("T1", true), b("T2", true), a("T1", "G1", true)}
	decl := map[string]metrics.Declared{"k": {Tasks: []string{"T1", "T2", "T3"},
		Cases: []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T1", Goal: "G2"}, {Task: "T2", Goal: "G1"}, {Task: "T2", Goal: "G2"}}}}
	build := func(mode string) *report.Document {
		res := summary.Collect(recs, decl, metrics.Options{Cases: mode}, 0)
		return report.Build(report.Input{Command: report.CommandReport, Version: "0.9.0", Inputs: []string{"runs.jsonl"}, Results: res})
	}
	const line = "cases: observed — k:m: 1 of 4 declared security cases ran, 2 of 3 declared tasks ran; its metrics and gates are over those"
	d := build(metrics.CasesObserved)
	if d.ExitCode != 0 || len(d.Cases) != 1 || d.Cases[0] != line {
		t.Fatalf("exit %d, errors %q, cases %q", d.ExitCode, d.Errors, d.Cases)
	}
	want := map[string][]string{
		"table":      {"\n" + strings.TrimSuffix(line, "; its metrics and gates are over those") + "\n"},
		"table-full": {"\n" + line + "\n"},
		"markdown":   {"### Cases\n\n- cases: observed — k:m: 1 of 4 declared security cases ran, 2 of 3 declared tasks ran; its metrics and gates are over those\n"},
		"html":       {"<strong>Cases</strong>", "1 of 4 declared security cases ran, 2 of 3 declared tasks ran"},
		"junit":      {line},
		"json":       {`"cases": "observed",` + "\n      \"declared_tasks\": 3,\n      \"declared_cases\": 4,\n      \"left_out_tasks\": 1,\n      \"left_out_cases\": 3,", `"benign_tasks": 2,` + "\n      \"security_cases\": 1,"},
	}
	for format, parts := range want {
		var buf bytes.Buffer
		if err := formats.Write(&buf, d, format); err != nil {
			t.Fatal(format, err)
		}
		for _, p := range parts {
			if !strings.Contains(buf.String(), p) {
				t.Errorf("%s: no %q in\n%s", format, p, buf.String())
			}
		}
		var def bytes.Buffer
		if err := formats.Write(&def, build(metrics.CasesDeclared), format); err != nil {
			t.Fatal(format, err)
		}
		if s := def.String(); strings.Contains(s, "observed") || strings.Contains(s, "left_out") {
			t.Errorf("%s: the default mode mentions observed cases:\n%s", format, s)
		}
	}
}
