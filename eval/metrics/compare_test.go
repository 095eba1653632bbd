package metrics

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// pairRuns is reference [t,t,t,f] vs defended [t,f,t,t] on T1..T4, with
// cases T1/G1..T4/G1: the reference is the worked example.
func pairRuns() []runs.Record {
	recs := worked()
	for i := range recs {
		recs[i].Key.Condition = "ref"
	}
	return append(recs,
		ben("def", "T1", true), ben("def", "T2", false), ben("def", "T3", true), ben("def", "T4", true),
		att("def", "T1", "G1", true, false, false),
		att("def", "T2", "G1", true, false, false),
		att("def", "T3", "G1", true, false, true),
		att("def", "T4", "G1", false, false, false),
	)
}

func TestCompare(t *testing.T) {
	c, err := Compare(pairRuns(), "ref", "def", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Transition{
		{Name: "benign_utility", Over: "tasks", N: 4, KeptSuccess: 2, Lost: 1, Gained: 1, KeptFailure: 0,
			ReferenceRate: Rate{3, 4}, DefendedRate: Rate{3, 4}, GainRate: Rate{1, 4}, LossRate: Rate{1, 4}, NetEffect: Rate{0, 4},
			PValue: 1, LostIDs: []string{"T2"}, GainedIDs: []string{"T4"}},
		{Name: "utility_under_attack", Over: "cases", N: 4, KeptSuccess: 2, Gained: 1, KeptFailure: 1,
			ReferenceRate: Rate{2, 4}, DefendedRate: Rate{3, 4}, GainRate: Rate{1, 4}, LossRate: Rate{0, 4}, NetEffect: Rate{1, 4},
			PValue: 1, GainedIDs: []string{"T2/G1"}},
		{Name: "targeted_asr", Over: "cases", N: 4, Lost: 2, KeptFailure: 2,
			ReferenceRate: Rate{2, 4}, DefendedRate: Rate{0, 4}, GainRate: Rate{0, 4}, LossRate: Rate{2, 4}, NetEffect: Rate{-2, 4},
			PValue: 0.5, LostIDs: []string{"T2/G1", "T3/G1"}},
		{Name: "side_effect_rate", Over: "cases", N: 4, KeptSuccess: 1, Lost: 1, KeptFailure: 2,
			ReferenceRate: Rate{2, 4}, DefendedRate: Rate{1, 4}, GainRate: Rate{0, 4}, LossRate: Rate{1, 4}, NetEffect: Rate{-1, 4},
			PValue: 1, LostIDs: []string{"T2/G1"}},
		{Name: "secure_utility_in_scope", Over: "cases", N: 4, KeptSuccess: 1, Gained: 1, KeptFailure: 2,
			ReferenceRate: Rate{1, 4}, DefendedRate: Rate{2, 4}, GainRate: Rate{1, 4}, LossRate: Rate{0, 4}, NetEffect: Rate{1, 4},
			PValue: 1, GainedIDs: []string{"T2/G1"}},
	}
	if !reflect.DeepEqual(c.Transitions, want) {
		t.Errorf("got  %+v\nwant %+v", c.Transitions, want)
	}
	if c.Reference != "ref" || c.Defended != "def" || c.Contract != "" || c.Bundle != "" || c.AttemptBudget != 0 {
		t.Errorf("%+v", c)
	}
	// Any input order: the same comparison.
	rng := rand.New(rand.NewSource(1))
	for range 10 {
		recs := pairRuns()
		rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		d, err := Compare(recs, "ref", "def", Options{})
		if err != nil || !reflect.DeepEqual(d, c) {
			t.Fatalf("shuffled: %+v, %v", d, err)
		}
	}
	// The rates are Compute's.
	cs, _ := Compute(pairRuns(), nil, Options{})
	if cs[1].Condition != "ref" || c.Transitions[2].ReferenceRate != cs[1].TargetedASR || c.Transitions[4].DefendedRate != cs[0].SecureUtilityInScope {
		t.Errorf("rates differ from Compute: %v %v", cs[1].TargetedASR, cs[0].SecureUtilityInScope)
	}
	// Utility only: benign_utility alone.
	u, err := Compare([]runs.Record{ben("a", "T1", true), ben("b", "T1", false)}, "a", "b", Options{})
	if err != nil || len(u.Transitions) != 1 || u.Transitions[0].Lost != 1 || u.Transitions[0].PValue != 1 {
		t.Errorf("utility only: %+v %v", u, err)
	}
	// Attempts aggregate first: (f, t) is one success.
	recs := []runs.Record{ben("a", "T1", true), att("a", "T1", "G1", true, false, false), again(att("a", "T1", "G1", true, true, true), 2, 1),
		ben("b", "T1", true), att("b", "T1", "G1", true, false, false), again(att("b", "T1", "G1", true, false, false), 2, 1)}
	if a, err := Compare(recs, "a", "b", Options{}); err != nil || a.Transitions[2].Lost != 1 {
		t.Errorf("attempts: %+v %v", a, err)
	}
}

func TestCompareRefusals(t *testing.T) {
	withContract := func(recs []runs.Record, contract string) []runs.Record {
		for i := range recs {
			recs[i].Key.Contract = contract
		}
		return recs
	}
	setBundle := func(recs []runs.Record, cond, bundle string) []runs.Record {
		for i := range recs {
			if recs[i].Key.Condition == cond {
				recs[i].Bundle = bundle
			}
		}
		return recs
	}
	bundleA, bundleB := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	tests := []struct {
		name     string
		recs     []runs.Record
		ref, def string
		want     string
	}{
		{"ids differ", func() []runs.Record {
			r := pairRuns()
			r = append(r[:11], r[12:15]...) // without def's T4 and T4/G1
			return append(r, ben("def", "T5", true), att("def", "T5", "G1", false, false, false))
		}(), "ref", "def",
			"benign tasks differ: only in the reference ref: T4; only in the defended def: T5\n" +
				"security cases differ: only in the reference ref: T4/G1; only in the defended def: T5/G1"},
		{"cases differ", append(pairRuns(), att("def", "T1", "G2", false, false, false)), "ref", "def",
			"security cases differ: only in the defended def: T1/G2"},
		{"bundles differ", setBundle(setBundle(pairRuns(), "ref", bundleA), "def", bundleB), "ref", "def",
			"bundles differ: the reference ref was judged by " + bundleA + ", the defended def by " + bundleB},
		{"bundle and none", setBundle(pairRuns(), "ref", bundleA), "ref", "def",
			"bundles differ: the reference ref was judged by " + bundleA + ", the defended def by no bundle"},
		{"two bundles", func() []runs.Record { r := pairRuns(); r[0].Bundle = bundleA; return r }(), "ref", "def",
			"reference ref: its runs name 2 bundles (no bundle, " + bundleA + "): one condition is judged by one bundle"},
		{"budgets differ", func() []runs.Record {
			r := pairRuns()
			for i := range r {
				if r[i].Key.Condition == "def" {
					r[i].AttemptBudget = 3
				}
			}
			return r
		}(), "ref", "def",
			"attempt budgets differ: the reference ref has none, the defended def has 3"},
		{"unknown", func() []runs.Record { r := pairRuns(); r[9] = unknownLabel(r[9], "utility"); return r }(), "ref", "def",
			"defended def: run def/T2: label utility is unknown: criterion error"},
		{"broken", append(pairRuns(), att("ref", "T9", "G1", false, false, false)), "ref", "def",
			"reference ref: security cases whose task has no benign run (s_c undefined): T9/G1"},
		{"repetitions", append(pairRuns(), again(ben("def", "T1", true), 1, 2), again(ben("def", "T2", true), 1, 2), again(ben("def", "T3", true), 1, 2), again(ben("def", "T4", true), 1, 2)), "ref", "def",
			"defended def has 2 repetitions per task and 1 per case: compare pairs one label per task or case (McNemar's test)"},
		{"no such condition", pairRuns(), "ref", "nope",
			"no condition nope in the runs (conditions: def, ref)"},
		{"same condition", pairRuns(), "ref", "ref",
			"the reference and the defended condition are both ref: compare two conditions"},
		{"ambiguous", append(withContract(pairRuns(), "x"), withContract(pairRuns(), "y")...), "ref", "x:def",
			"condition ref is in several contracts (x:ref, y:ref): name it as contract:condition"},
		{"different contracts", append(withContract(pairRuns(), "x"), withContract(pairRuns(), "y")...), "x:ref", "y:def",
			"the reference x:ref and the defended y:def belong to different contracts (x, y): a paired comparison needs the same tasks and cases"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(tt.recs, tt.ref, tt.def, Options{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
	// Unknowns are refused even with bounds.
	r := pairRuns()
	r[9] = unknownLabel(r[9], "utility")
	if _, err := Compare(r, "ref", "def", Options{Unknown: UnknownBounds}); err == nil {
		t.Error("unknown labels compared under bounds")
	}
	// contract:condition names.
	c, err := Compare(append(withContract(pairRuns(), "x"), withContract(pairRuns(), "y")...), "x:ref", "x:def", Options{})
	if err != nil || c.Contract != "x" || c.Transitions[0].Lost != 1 {
		t.Errorf("%+v %v", c, err)
	}
}
