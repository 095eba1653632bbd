package attackagg

import (
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// TestCombineLabels: the rules in three values — any is true once one
// label is, all false once one is, whatever the unknown ones; otherwise an
// unknown label makes the result unknown, its reasons joined once each;
// first and last take the label of the first and last attack.
func TestCombineLabels(t *testing.T) {
	T, F, U, V := runs.True(), runs.False(), runs.Unknown("a"), runs.Unknown("b")
	for _, tt := range []struct {
		rule string
		in   []runs.Label
		want runs.Label
	}{
		{ruleAny, []runs.Label{F, U, T}, T},
		{ruleAny, []runs.Label{F, U, V, U}, runs.Unknown("a; b")},
		{ruleAny, []runs.Label{F, F}, F},
		{ruleAll, []runs.Label{T, U, F}, F},
		{ruleAll, []runs.Label{T, U}, U},
		{ruleAll, []runs.Label{T, T}, T},
		{ruleFirst, []runs.Label{U, T}, U},
		{ruleLast, []runs.Label{U, F}, F},
	} {
		if got := combineLabels(tt.rule, tt.in); got != tt.want {
			t.Errorf("%s %v = %v %q, want %v %q", tt.rule, tt.in, got, got.Reason, tt.want, tt.want.Reason)
		}
	}
}

// TestCombineRules: an unknown rule and a name taken by an attack are
// errors; first and last take the attacks in the order given.
func TestCombineRules(t *testing.T) {
	run := func(attack string, a bool) runs.Record {
		return runs.Record{Key: runs.Key{Condition: "p", Attack: attack, Task: "t", Goal: "g", Attempt: 1, Repetition: 1},
			Utility: runs.True(), AttackSuccess: runs.Bool(a), SideEffect: runs.Bool(a)}
	}
	by := map[string][]runs.Record{"a": {run("a", true)}, "b": {run("b", false)}}
	r := Rules{Utility: ruleAll, SideEffect: ruleAny, Exposed: ruleAny}
	out, errs := Combine(Aggregate{Name: "last", AttackSuccess: ruleLast}, r, []string{"a", "b"}, by)
	if len(errs) > 0 || len(out) != 1 || out[0].AttackSuccess != runs.False() || out[0].SideEffect != runs.True() || out[0].Key.Attack != "last" {
		t.Fatalf("last: %v %+v", errs, out)
	}
	_, errs = Combine(Aggregate{Name: "a", Utility: "most"}, r, []string{"a", "b"}, by)
	if len(errs) != 2 || errs[0].Error() != "attack_aggregate a has the name of an attack the pipeline ran: name it apart" ||
		errs[1].Error() != `attack_aggregate a: rule utility is "most", want any, all, first, last` {
		t.Fatalf("errors %v", errs)
	}
}
