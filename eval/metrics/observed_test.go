package metrics

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// crossDeclared declares tasks T1, T2 and the cases T1/G1, T1/G2, T2/G1,
// T2/G2: the cross product of a contract whose teams ran goal G1 only.
func crossDeclared() map[string]Declared {
	return map[string]Declared{"": {Tasks: []string{"T1", "T2"},
		Cases: []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T1", Goal: "G2"}, {Task: "T2", Goal: "G1"}, {Task: "T2", Goal: "G2"}}}}
}

// oneGoal is every task benign and every case of goal G1 attacked.
func oneGoal() []runs.Record {
	return []runs.Record{ben("c", "T1", true), ben("c", "T2", false),
		att("c", "T1", "G1", true, true, true), att("c", "T2", "G1", false, false, false)}
}

// TestCasesObserved: under CasesObserved the denominators are the declared
// cases that ran (2 of 4), the others are counted, and the metrics are
// those of a contract declaring only what ran; under the default the
// same runs are an error.
func TestCasesObserved(t *testing.T) {
	cs, err := Compute(oneGoal(), crossDeclared(), Options{})
	if err == nil || len(cs) != 1 || errorLines(cs[0]) != "declared security cases with no attacked run: T1/G2, T2/G2" {
		t.Fatalf("declared: %v %+v", err, cs)
	}
	if c := cs[0]; c.Cases != CasesDeclared || c.DeclaredTasks != 2 || c.DeclaredCases != 4 || c.LeftOutTasks != 0 || c.LeftOutCases != 0 {
		t.Errorf("declared counts: %+v", c)
	}

	cs, err = Compute(oneGoal(), crossDeclared(), Options{Cases: CasesObserved})
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.Cases != CasesObserved || c.DeclaredTasks != 2 || c.DeclaredCases != 4 || c.LeftOutTasks != 0 || c.LeftOutCases != 2 {
		t.Errorf("observed counts: %q %d %d %d %d", c.Cases, c.DeclaredTasks, c.DeclaredCases, c.LeftOutTasks, c.LeftOutCases)
	}
	if c.BenignTasks != 2 || c.SecurityCases != 2 || c.BenignUtility != (Rate{1, 2}) || c.TargetedASR != (Rate{1, 2}) ||
		c.UtilityUnderAttack != (Rate{1, 2}) || c.SideEffectRate != (Rate{1, 2}) || c.Joint != (Joint{Both: 1, Neither: 1}) ||
		c.ConditionalASRBenignSolved != (NullableRate{Rate{1, 1}, true}) {
		t.Errorf("observed metrics: %+v", c)
	}

	// The same numbers, intervals and bootstrap as a contract that declares
	// only what ran: observed changes which ids count, nothing else.
	sub := map[string]Declared{"": {Tasks: []string{"T1", "T2"}, Cases: []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T2", Goal: "G1"}}}}
	want, err := Compute(oneGoal(), sub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want[0].Cases, want[0].DeclaredCases, want[0].LeftOutCases = CasesObserved, 4, 2
	if !reflect.DeepEqual(cs, want) {
		t.Errorf("observed\n%+v\nwant the subset's\n%+v", cs, want)
	}
	// With everything run, observed is the declared evaluation.
	all := append(oneGoal(), att("c", "T1", "G2", false, false, false), att("c", "T2", "G2", false, true, true))
	got, err1 := Compute(all, crossDeclared(), Options{Cases: CasesObserved})
	want, err2 := Compute(all, crossDeclared(), Options{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	want[0].Cases = CasesObserved
	if !reflect.DeepEqual(got, want) {
		t.Errorf("all run: observed\n%+v\nwant\n%+v", got, want)
	}
}

// TestCasesObservedTasks: a declared task with no benign run is left out
// of T with its cases that did not run either; a case that ran while its
// task did not stays an error (s_c undefined), as do runs of undeclared
// tasks or cases and an empty T or C.
func TestCasesObservedTasks(t *testing.T) {
	decl := map[string]Declared{"": {Tasks: []string{"T1", "T2", "T3"},
		Cases: []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T2", Goal: "G1"}, {Task: "T3", Goal: "G1"}}}}
	obs := Options{Cases: CasesObserved}

	// T3 left out, and T2's case: T1 is partially observed (its benign
	// run and its one case), T2 has a benign run but no case ran.
	cs, err := Compute([]runs.Record{ben("c", "T1", true), ben("c", "T2", true), att("c", "T1", "G1", true, false, false)}, decl, obs)
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.BenignTasks != 2 || c.SecurityCases != 1 || c.LeftOutTasks != 1 || c.LeftOutCases != 2 || c.BenignUtility != (Rate{2, 2}) || c.TargetedASR != (Rate{0, 1}) {
		t.Errorf("partial: |T| %d |C| %d left out %d/%d %v %v", c.BenignTasks, c.SecurityCases, c.LeftOutTasks, c.LeftOutCases, c.BenignUtility, c.TargetedASR)
	}

	tests := []struct {
		name string
		recs []runs.Record
		want string
	}{
		{"case without its task", []runs.Record{ben("c", "T1", true), att("c", "T1", "G1", true, false, false), att("c", "T3", "G1", true, false, false)},
			"security cases whose task has no benign run (s_c undefined): T3/G1"},
		{"undeclared", []runs.Record{ben("c", "T1", true), ben("c", "T9", true), att("c", "T1", "G1", true, false, false), att("c", "T1", "G9", true, false, false)},
			"benign runs of undeclared tasks: T9\nattacked runs of undeclared security cases: T1/G9"},
		{"no case ran", []runs.Record{ben("c", "T1", true), ben("c", "T2", true)},
			"no security cases (|C| = 0)"},
		{"no task ran", []runs.Record{att("c", "T1", "G1", true, false, false)},
			"no benign tasks (|T| = 0)\nsecurity cases whose task has no benign run (s_c undefined): T1/G1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := Compute(tt.recs, decl, obs)
			if err == nil || len(cs) != 1 {
				t.Fatalf("%v %+v", err, cs)
			}
			if got := errorLines(cs[0]); got != tt.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, tt.want)
			}
			// The counts stand even when the metrics do not: a report
			// says how many declared ones ran next to the errors.
			if c := cs[0]; tt.name == "no case ran" && (c.Cases != CasesObserved || c.DeclaredCases != 3 || c.LeftOutCases != 3 || c.LeftOutTasks != 1) {
				t.Errorf("counts: %q %d %d %d", c.Cases, c.DeclaredCases, c.LeftOutCases, c.LeftOutTasks)
			}
		})
	}

	if _, err := Compute(oneGoal(), crossDeclared(), Options{Cases: "all"}); err == nil || err.Error() != `metrics: cases mode is "all", want declared or observed` {
		t.Errorf("invalid mode: %v", err)
	}
	// Without declarations T and C are the runs' in either mode.
	got, err1 := Compute(oneGoal(), nil, obs)
	want, err2 := Compute(oneGoal(), nil, Options{})
	if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) || got[0].Cases != "" {
		t.Errorf("no declarations: %v %v\n%+v\n%+v", err1, err2, got, want)
	}
}
