package summary

import (
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
