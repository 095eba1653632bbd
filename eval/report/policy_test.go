package report

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestSetPolicy: the failures a Policy leaves out move from Failures to
// NotFailing, each with why, and the exit code follows Failures; errors
// give 2 whatever the policy. An invariant of a contract whose severities
// are unknown fails under a severity threshold.
func TestSetPolicy(t *testing.T) {
	in := Input{
		Command: CommandEval,
		Results: summary.Results{Checks: []tally.Checks{
			{Contract: "c", Condition: "a", Runs: 2, Invariants: []tally.CheckCount{{Name: "high", Hits: 1}, {Name: "med", Hits: 0, Unknown: 1}}},
			{Contract: "other", Condition: "a", Runs: 1, Invariants: []tally.CheckCount{{Name: "low", Hits: 1}}},
		}},
		Gates:      []GateResult{{Gate: "g", Condition: "c:a", Requirement: "metrics.violations == 0", Reason: "is false (violations = 1)"}},
		Severities: failpolicy.Severities{"c": {"high": failpolicy.High, "med": failpolicy.Medium}},
	}
	high := "invariant high violated on 1 run of 2 runs in c:a"
	med := "invariant med undecided on 1 run of 2 runs in c:a"
	low := "invariant low violated on 1 run of 1 run in other:a"
	gate := "gate g failed for c:a: metrics.violations == 0: is false (violations = 1)"

	d := Build(in)
	if want := []string{high, med, low, gate}; !reflect.DeepEqual(d.Failures, want) || d.NotFailing != nil || d.ExitCode != 1 {
		t.Errorf("default: Failures %q, NotFailing %q, exit %d", d.Failures, d.NotFailing, d.ExitCode)
	}

	d.SetPolicy(failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Invariants}})
	if !reflect.DeepEqual(d.Failures, []string{gate}) || d.ExitCode != 1 ||
		!reflect.DeepEqual(d.NotFailing, []string{high + " (not failing: --fail-on gates)", med + " (not failing: --fail-on gates)", low + " (not failing: --fail-on gates)"}) {
		t.Errorf("--fail-on gates: Failures %q, NotFailing %q, exit %d", d.Failures, d.NotFailing, d.ExitCode)
	}

	in.Policy = failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Gates}, MinSeverity: failpolicy.High}
	d = Build(in)
	if !reflect.DeepEqual(d.Failures, []string{high, low}) || d.ExitCode != 1 ||
		!reflect.DeepEqual(d.NotFailing, []string{med + " (not failing: severity medium, below --fail-on-severity high)", gate + " (not failing: --fail-on invariants)"}) {
		t.Errorf("--fail-on invariants --fail-on-severity high: Failures %q, NotFailing %q, exit %d", d.Failures, d.NotFailing, d.ExitCode)
	}
	if fails, note := d.Fails(failpolicy.Invariants, "c", "med"); fails || note == "" {
		t.Errorf("Fails(med) = %v, %q", fails, note)
	}

	in.Policy = failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Gates, failpolicy.Invariants}}
	d = Build(in)
	if d.Failures != nil || len(d.NotFailing) != 4 || d.ExitCode != 0 {
		t.Errorf("--fail-on none: Failures %q, NotFailing %q, exit %d", d.Failures, d.NotFailing, d.ExitCode)
	}
	in.GateErrors = []string{"gate g: no runs of condition z were evaluated"}
	if d = Build(in); d.ExitCode != 2 {
		t.Errorf("--fail-on none with an error: exit %d, want 2", d.ExitCode)
	}

	tests := BuildTests("v", Contract{Name: "c"}, []TestResult{{Name: "t", Passed: false}})
	tests.SetPolicy(failpolicy.Policy{Ignore: []failpolicy.Kind{failpolicy.Tests}})
	if tests.ExitCode != 0 || !reflect.DeepEqual(tests.NotFailing, []string{`test "t" failed (not failing: --fail-on none)`}) {
		t.Errorf("test --fail-on none: NotFailing %q, exit %d", tests.NotFailing, tests.ExitCode)
	}
}
