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

// TestFlipCounterGoalTasks: a goal-task run's utility flips are counted
// under goal_task_utility, never under utility (the user tasks'); the row
// follows the other three, and only a condition with goal-task runs has
// it (zero when none of them was paired).
func TestFlipCounterGoalTasks(t *testing.T) {
	rec := func(cond, task string, u runs.Label, goalTask bool) runs.Record {
		return runs.Record{Key: runs.Key{Contract: "k", Condition: cond, Task: task, Attempt: 1, Repetition: 1}, Utility: u, GoalTask: goalTask}
	}
	T, F, U := runs.True(), runs.False(), runs.Unknown("why")
	c := NewFlipCounter([]string{"p"})
	for _, r := range []runs.Record{
		rec("A", "t1", T, false),
		rec("A+p", "t1", T, false),
		rec("A+p", "g1", F, true), // before its base run
		rec("A", "g1", T, true),
		rec("A", "g2", F, true),
		rec("A+p", "g2", T, true),
		rec("A", "g3", U, true),
		rec("A+p", "g3", U, true),
		rec("B", "t1", T, false),
		rec("B+p", "t1", F, false),
		rec("C", "t1", T, false),
		rec("C+p", "t1", T, false),
		rec("C", "g1", T, true), // no profile run: C still has the row
	} {
		c.Add(r)
	}
	row := func(label string, tf, ft, same int) LabelFlips {
		return LabelFlips{Label: label, TrueToFalse: tf, FalseToTrue: ft, Same: same}
	}
	want := []ProfileFlips{
		{Contract: "k", Condition: "A", Profile: "p", Paired: 4, Labels: []LabelFlips{
			row("utility", 0, 0, 1), row("attack_success", 0, 0, 0), row("side_effect", 0, 0, 0), row("goal_task_utility", 1, 1, 1)}},
		{Contract: "k", Condition: "B", Profile: "p", Paired: 1, Labels: []LabelFlips{
			row("utility", 1, 0, 0), row("attack_success", 0, 0, 0), row("side_effect", 0, 0, 0)}},
		{Contract: "k", Condition: "C", Profile: "p", Paired: 1, Labels: []LabelFlips{
			row("utility", 0, 0, 1), row("attack_success", 0, 0, 0), row("side_effect", 0, 0, 0), row("goal_task_utility", 0, 0, 0)}},
	}
	if got := c.Result(); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestFlipCounterAttacks: an attacked run's flips count under its attack's
// condition, and the pipeline's benign flips under each of its attacks'
// conditions (which share its benign runs), with no row of the pipeline's
// own; a pipeline with no attack keeps its row.
func TestFlipCounterAttacks(t *testing.T) {
	rec := func(cond, attack, task, goal string, u, a runs.Label) runs.Record {
		r := runs.Record{Key: runs.Key{Contract: "k", Condition: cond, Attack: attack, Task: task, Goal: goal, Attempt: 1, Repetition: 1}, Utility: u}
		if goal != "" {
			r.AttackSuccess, r.SideEffect = a, a
		}
		return r
	}
	T, F := runs.True(), runs.False()
	c := NewFlipCounter([]string{"p"})
	for _, r := range []runs.Record{
		rec("P", "", "t1", "", F, runs.Label{}),
		rec("P+p", "", "t1", "", T, runs.Label{}), // a benign flip: both attacks' conditions
		rec("P", "x", "t1", "g", T, T),
		rec("P+p", "x", "t1", "g", T, F), // attack x only
		rec("P", "y", "t1", "g", T, T),
		rec("P+p", "y", "t1", "g", T, T),
		rec("Q", "", "t1", "", T, runs.Label{}),
		rec("Q+p", "", "t1", "", F, runs.Label{}),
	} {
		c.Add(r)
	}
	got := c.Result()
	want := []ProfileFlips{
		{Contract: "k", Condition: "P @ x", Profile: "p", Paired: 2, pipeline: "P", Labels: []LabelFlips{
			{Label: "utility", FalseToTrue: 1, Same: 1},
			{Label: "attack_success", TrueToFalse: 1},
			{Label: "side_effect", TrueToFalse: 1},
		}},
		{Contract: "k", Condition: "P @ y", Profile: "p", Paired: 2, pipeline: "P", Labels: []LabelFlips{
			{Label: "utility", FalseToTrue: 1, Same: 1},
			{Label: "attack_success", Same: 1},
			{Label: "side_effect", Same: 1},
		}},
		{Contract: "k", Condition: "Q", Profile: "p", Paired: 1, Labels: []LabelFlips{
			{Label: "utility", TrueToFalse: 1},
			{Label: "attack_success"},
			{Label: "side_effect"},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
