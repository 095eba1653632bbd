package summary

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestCollectAttacks: the streaming Collector gives the conditions Compute
// gives for a pipeline under two attacks (each attack, then the aggregate),
// counts each attack's checks with the shared benign runs, the
// aggregate's with every run once, gives the aggregate no agreement row,
// and lists a benign run's violation once.
func TestCollectAttacks(t *testing.T) {
	violated := func(r runs.Record) runs.Record {
		r.Invariants = map[string]runs.Label{"inv": runs.False()}
		return r
	}
	given := func(r runs.Record) runs.Record {
		v := r.Utility.Value
		r.Given.Utility = &v
		return r
	}
	under := func(a string, r runs.Record) runs.Record {
		r.Key.Attack = a
		r.Invariants = map[string]runs.Label{"inv": runs.True()}
		return r
	}
	recs := []runs.Record{
		given(violated(rec("k", "p", "T1", "", true, false))), given(violated(rec("k", "p", "T2", "", false, false))),
		under("A", rec("k", "p", "T1", "G1", true, true)), under("A", rec("k", "p", "T2", "G1", true, false)),
		under("B", rec("k", "p", "T1", "G1", false, false)), under("B", rec("k", "p", "T2", "G1", true, true)),
		// another pipeline, no attack named: as without attacks
		rec("k", "q", "T1", "", true, false), rec("k", "q", "T2", "", true, false),
		rec("k", "q", "T1", "G1", true, false), rec("k", "q", "T2", "G1", true, false),
	}
	declared := map[string]metrics.Declared{"k": {Tasks: []string{"T1", "T2"},
		Cases:      []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T2", Goal: "G1"}},
		Aggregates: []metrics.AttackAggregate{{Name: "max"}}}}
	want, err := metrics.Compute(recs, declared, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// In reverse order: Collect sorts.
	rev := append([]runs.Record(nil), recs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	res := Collect(rev, declared, metrics.Options{}, 0)
	if res.Err != nil || !reflect.DeepEqual(res.Conditions, want) {
		t.Fatalf("Collect %v\n%+v\nwant Compute's\n%+v", res.Err, res.Conditions, want)
	}
	var names []string
	for _, c := range res.Conditions {
		names = append(names, c.Name()+" "+c.TargetedASR.String()+" "+c.UtilityUnderAttack.String()+" "+c.BenignUtility.String())
	}
	wantNames := []string{"k:p @ A 0.5000 (1/2) 1.0000 (2/2) 0.5000 (1/2)", "k:p @ B 0.5000 (1/2) 0.5000 (1/2) 0.5000 (1/2)",
		"k:p @ max 1.0000 (2/2) 0.5000 (1/2) 0.5000 (1/2)", "k:q 0.0000 (0/2) 1.0000 (2/2) 1.0000 (2/2)"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("conditions %q\nwant %q", names, wantNames)
	}
	var checks []string
	for _, c := range res.Checks {
		checks = append(checks, c.Condition+" "+itoa(c.Runs)+" "+itoa(c.ViolatingRuns))
	}
	if want := []string{"p @ A 4 2", "p @ B 4 2", "p @ max 6 2", "q 4 0"}; !reflect.DeepEqual(checks, want) {
		t.Errorf("checks %q, want %q", checks, want)
	}
	var agree []string
	for _, a := range res.Agreement {
		agree = append(agree, a.Condition)
	}
	if want := []string{"p @ A", "p @ B", "q"}; !reflect.DeepEqual(agree, want) {
		t.Errorf("agreement rows %q, want %q", agree, want)
	}
	// The batch tallies split conditions alike (no aggregate: it needs
	// the contract's rules).
	var batch []string
	for _, c := range tally.CountChecks(recs) {
		batch = append(batch, c.Condition+" "+itoa(c.Runs)+" "+itoa(c.ViolatingRuns))
	}
	for _, a := range tally.Agree(recs) {
		batch = append(batch, a.Condition)
	}
	if want := []string{"p @ A 4 2", "p @ B 4 2", "q 4 0", "p @ A", "p @ B", "q"}; !reflect.DeepEqual(batch, want) {
		t.Errorf("batch tallies %q, want %q", batch, want)
	}
	if len(res.Violations) != 2 || res.Violations[0].Key.Task != "T1" || res.Violations[1].Key.Task != "T2" {
		t.Errorf("violations %+v", res.Violations)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestCollectAttacksGoalTasks: the stream carries a pipeline's goal-task
// runs into its attack_aggregate as goal-task runs, as Compute does: each
// condition, the aggregate included, has goal_task_utility 1/2 and no
// error.
func TestCollectAttacksGoalTasks(t *testing.T) {
	goalTask := func(task string, u bool) runs.Record {
		r := rec("k", "p", task, "", u, false)
		r.GoalTask = true
		return r
	}
	under := func(a string, r runs.Record) runs.Record {
		r.Key.Attack = a
		return r
	}
	recs := []runs.Record{
		rec("k", "p", "T1", "", true, false), goalTask("G1", true), goalTask("G2", false),
		under("A", rec("k", "p", "T1", "G1", true, true)), under("A", rec("k", "p", "T1", "G2", true, false)),
		under("B", rec("k", "p", "T1", "G1", false, false)), under("B", rec("k", "p", "T1", "G2", true, true)),
	}
	declared := map[string]metrics.Declared{"k": {Tasks: []string{"T1"},
		Cases: []runs.Case{{Task: "T1", Goal: "G1"}, {Task: "T1", Goal: "G2"}}, GoalTasks: []string{"G1", "G2"},
		Aggregates: []metrics.AttackAggregate{{Name: "max"}}}}
	want, err := metrics.Compute(recs, declared, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := Collect(recs, declared, metrics.Options{}, 0)
	if res.Err != nil || !reflect.DeepEqual(res.Conditions, want) {
		t.Fatalf("Collect %v\n%+v\nwant Compute's\n%+v", res.Err, res.Conditions, want)
	}
	var got []string
	for _, c := range res.Conditions {
		got = append(got, c.Name()+" "+itoa(c.BenignTasks)+" "+itoa(c.GoalTasks)+" "+c.GoalTaskUtility.Low.String())
	}
	if want := []string{"k:p @ A 1 2 0.5000 (1/2)", "k:p @ B 1 2 0.5000 (1/2)", "k:p @ max 1 2 0.5000 (1/2)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("conditions %q\nwant %q", got, want)
	}
}
