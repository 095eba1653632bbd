package eval

import (
	"slices"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

const demandContract = `contract "d" {}
threat_model {
  injection_vectors = ["read"]
}
tool "read" {
  operation = "read"
  params    = { path = string }
}
predicate "only_a" { expr = "size(calls) > 0" }
predicate "q" { expr = "size(events) > 1" }
predicate "p" { expr = "pred.q && size(calls) > 0" }
predicate "inv" { expr = "output != 'PWNED'" }
predicate "unused" { expr = "size(results) > 0" }
task "a" { utility = "pred.only_a" }
task "b" { utility = "pred.p" }
task "c" { utility = "true" }
predicate "g" { expr = "output.contains('x')" }
predicate "se" { expr = "size(calls) > 2" }
invariant "safe" { assert = "pred.inv" }
goal "g0" { success = "pred.g" }
side_effect "s" { when = "pred.se" }
cases {
  tasks = ["*"]
  goals = ["*"]
}
`

// TestPredicatesOnDemand: a run evaluates, in plan order, only the
// predicates its verdicts read: its task's (closed over predicates reading
// predicates), the invariants' and, when attacked, its goal's and the
// side effects', never one only another task reads; a
// predicate indexing pred dynamically reads every one. Explain still
// evaluates every predicate.
func TestPredicatesOnDemand(t *testing.T) {
	p := compileProgram(t, demandContract)
	var got []string
	p.onPredicate = func(pr bundle.PredRef) {
		got = append(got, p.Bundle.Decls.Scopes[pr.Scope].Predicates[pr.Pred].Name)
	}
	for _, c := range []struct {
		task, goal string
		want       []string
	}{
		// Plan order: by name, a predicate after those it reads.
		{"a", "", []string{"inv", "only_a"}},
		{"b", "", []string{"inv", "q", "p"}},
		{"c", "", []string{"inv"}},
		{"a", "g0", []string{"g", "inv", "only_a", "se"}},
		{"c", "g0", []string{"g", "inv", "se"}},
	} {
		got = nil
		jr, err := p.JudgeAs(&bundle.SourcePlan{}, syntheticRun(6), &Override{Task: c.task, Goal: c.goal})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("task %s goal %q evaluated %v, want %v", c.task, c.goal, got, c.want)
		}
		if u := jr.Record.Utility; !u.Known {
			t.Errorf("task %s: utility unknown: %s", c.task, u.Reason)
		}
	}
}
