package summary

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// TestFlipCounter: runs of C+p are paired with C's by task, goal, attempt
// and repetition, in whatever order they come; each kind of change is
// counted apart, a label absent on either side (a benign run's
// attack_success) is not counted, and a profile run without its base run
// is unpaired.
func TestFlipCounter(t *testing.T) {
	rec := func(cond, task, goal string, u, a runs.Label) runs.Record {
		r := runs.Record{Key: runs.Key{Contract: "k", Condition: cond, Task: task, Goal: goal, Attempt: 1, Repetition: 1}, Utility: u}
		if goal != "" {
			r.AttackSuccess, r.SideEffect = a, a
		}
		return r
	}
	T, F, U := runs.True(), runs.False(), runs.Unknown("why")
	c := NewFlipCounter([]string{"p"})
	for _, r := range []runs.Record{
		rec("A+p", "t1", "g", T, F), // before its base run
		rec("A", "t1", "g", T, T),
		rec("A", "t1", "", F, runs.Label{}),
		rec("A+p", "t1", "", T, runs.Label{}),
		rec("A", "t2", "g", T, F),
		rec("A+p", "t2", "g", U, T),
		rec("A", "t3", "g", U, U),
		rec("A+p", "t3", "g", F, U),
		rec("A+p", "t9", "g", F, F), // no base run
		rec("B", "t1", "g", T, T),   // no profile run
	} {
		c.Add(r)
	}
	got := c.Result()
	want := []ProfileFlips{{Contract: "k", Condition: "A", Profile: "p", Paired: 4, Unpaired: 1, Labels: []LabelFlips{
		{Label: "utility", FalseToTrue: 1, KnownToUnknown: 1, UnknownToKnown: 1, Same: 1},
		{Label: "attack_success", TrueToFalse: 1, FalseToTrue: 1, Same: 1},
		{Label: "side_effect", TrueToFalse: 1, FalseToTrue: 1, Same: 1},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if NewFlipCounter(nil) != nil || NewFlipCounter(nil).Result() != nil {
		t.Error("no profiles: want a nil counter and no result")
	}
}
