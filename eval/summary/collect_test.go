package summary

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

func rec(contract, condition, task, goal string, u, a bool) runs.Record {
	r := runs.Record{Key: runs.Key{Contract: contract, Condition: condition, Task: task, Goal: goal, Attempt: 1, Repetition: 1},
		Utility: runs.Bool(u)}
	if goal != "" {
		r.AttackSuccess, r.SideEffect = runs.Bool(a), runs.Bool(a)
	}
	return r
}

// TestCollectorOrder: records come in key order and conditions once each;
// anything else is refused and adds nothing.
func TestCollectorOrder(t *testing.T) {
	b := NewCollector(nil, metrics.Options{}, 0)
	r1, r2 := rec("", "a", "T2", "", true, false), rec("", "a", "T1", "", true, false)
	if err := b.Add(r1); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(r2); err == nil || !strings.Contains(err.Error(), "key order") {
		t.Errorf("Add out of order: %v", err)
	}
	if err := b.Add(rec("", "b", "T1", "", true, false)); err != nil {
		t.Error(err)
	}
	if err := b.Add(rec("", "a", "T3", "", true, false)); err == nil || !strings.Contains(err.Error(), "key order") {
		t.Errorf("Add of an earlier condition again: %v", err)
	}
	if d := b.Results(); d.Runs != 2 || len(d.Conditions) != 2 {
		t.Errorf("%d runs, %d conditions; want 2, 2", d.Runs, len(d.Conditions))
	}
}

// TestCollectorBudgetPerKind: one condition's violations use up the
// violations' budget, yet a later condition still lists its disagreement
// and its unknown label with the reason (each kind has its own budget),
// and its first MinListedPerCondition violations (the floor); the rest
// are counted.
func TestCollectorBudgetPerKind(t *testing.T) {
	violating := func(condition string, i int) runs.Record {
		r := rec("c", condition, fmt.Sprintf("T%02d", i), "", true, false)
		r.Invariants = map[string]runs.Label{"inv": runs.Bool(false)}
		return r
	}
	var recs []runs.Record
	for i := range 25 {
		recs = append(recs, violating("a", i+1))
	}
	no := false
	for i := range 12 {
		r := violating("b", i+1)
		switch i {
		case 0:
			r.Given.Utility = &no // disagrees: ours true, given false
		case 1:
			r.Utility = runs.Unknown("the transcript has no messages")
			r.Given.Utility = &no
		}
		recs = append(recs, r)
	}
	res := Collect(recs, nil, metrics.Options{}, 20)
	var hits, more []int
	for _, c := range res.Checks {
		hits = append(hits, len(c.Invariants[0].HitRuns))
		more = append(more, c.Invariants[0].MoreHitRuns)
	}
	// a: the budget's 20; b: its floor of 3 (the budget is spent).
	if !slices.Equal(hits, []int{20, 3}) || !slices.Equal(more, []int{5, 9}) {
		t.Errorf("hit runs listed %v, more %v; want [20 3], [5 9]", hits, more)
	}
	if len(res.Violations) != 23 || res.MoreViolations != 14 || res.Violations[22].Key.String() != "c:b/T03" {
		t.Errorf("%d violations listed (last %v), %d more; want 23 (last c:b/T03), 14", len(res.Violations), res.Violations[len(res.Violations)-1].Key, res.MoreViolations)
	}
	b := res.Agreement[1].BenignUtility
	if got := fmt.Sprintf("%v %d %v %d", b.Disagreements, b.MoreDisagreements, b.Unknowns, b.MoreUnknowns); got !=
		"[{c:b/T01 true false  0 map[]}] 0 [{c:b/T02 the transcript has no messages}] 0" {
		t.Errorf("agreement of b: %s", got)
	}
}
