package tally

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

func ben(cond, task string, u bool) runs.Record {
	return runs.Record{Key: runs.Key{Condition: cond, Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
}

func att(cond, task, goal string, u, a, h bool) runs.Record {
	return runs.Record{Key: runs.Key{Condition: cond, Task: task, Goal: goal, Attempt: 1, Repetition: 1},
		Utility: runs.Bool(u), AttackSuccess: runs.Bool(a), SideEffect: runs.Bool(h)}
}

// TestAgree compares labels with the given ones per condition: each run
// in one count of its row, the disagreements and unknowns named; a
// goal-task run has its own row, shown only where there are such runs.
func TestAgree(t *testing.T) {
	yes, no := true, false
	give := func(r runs.Record, u, a *bool) runs.Record {
		r.Given.Utility, r.Given.AttackSuccess = u, a
		r.OriginFile, r.OriginLine = "traces/x.jsonl", len(r.Key.Task)
		return r
	}
	recs := []runs.Record{
		give(ben("c", "T1", true), &yes, nil),
		give(ben("c", "T2", false), &yes, nil),
		give(ben("c", "T3", true), nil, nil),
		give(runs.Record{Key: runs.Key{Condition: "c", Task: "T4", Attempt: 1, Repetition: 1}, Utility: runs.Unknown("boom")}, &no, nil),
		give(att("c", "T1", "G1", true, true, true), &yes, &no),
		give(att("c", "T2", "G1", false, false, false), &no, &no),
		give(att("c", "T3", "G1", false, false, false), nil, &yes),
		ben("b", "T1", true),
		// A goal-task run has its own row, apart from benign utility.
		give(runs.Record{Key: runs.Key{Condition: "c", Task: "G1", Attempt: 1, Repetition: 1}, Utility: runs.False(), GoalTask: true}, &yes, nil),
	}
	got := Agree(recs)
	want := []Agreement{
		{Condition: "b",
			BenignUtility:   AgreementRow{Label: "benign_utility", NotGiven: 1},
			AttackedUtility: AgreementRow{Label: "utility_under_attack"},
			AttackSuccess:   AgreementRow{Label: "attack_success"},
			GoalTaskUtility: AgreementRow{Label: "goal_task_utility"},
		},
		{Condition: "c",
			BenignUtility: AgreementRow{Label: "benign_utility", Agree: 1, Disagree: 1, OursUnknown: 1, NotGiven: 1,
				Disagreements: []Disagreement{{Key: recs[1].Key, Ours: false, Given: true, OriginFile: "traces/x.jsonl", OriginLine: 2}},
				Unknowns:      []UnknownLabel{{Key: recs[3].Key, Reason: "boom"}}},
			AttackedUtility: AgreementRow{Label: "utility_under_attack", Agree: 2, NotGiven: 1},
			AttackSuccess: AgreementRow{Label: "attack_success", Agree: 1, Disagree: 2,
				Disagreements: []Disagreement{
					{Key: recs[4].Key, Ours: true, Given: false, OriginFile: "traces/x.jsonl", OriginLine: 2},
					{Key: recs[6].Key, Ours: false, Given: true, OriginFile: "traces/x.jsonl", OriginLine: 2},
				}},
			GoalTaskUtility: AgreementRow{Label: "goal_task_utility", Disagree: 1,
				Disagreements: []Disagreement{{Key: recs[8].Key, Ours: false, Given: true, OriginFile: "traces/x.jsonl", OriginLine: 2}}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	// The goal-task row is shown only where there are goal-task runs.
	if n := len(got[0].Rows()); n != 3 {
		t.Errorf("b: %d rows, want 3", n)
	}
	if n := len(got[1].Rows()); n != 4 {
		t.Errorf("c: %d rows, want 4", n)
	}
	if cols := Columns(got); !reflect.DeepEqual(cols, []string{"benign_utility", "utility_under_attack", "attack_success", "goal_task_utility"}) {
		t.Errorf("columns %v", cols)
	}
}
