package eval

import (
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

const constContract = `contract "c" {}
threat_model {
  injection_vectors = ["read"]
}
params {
  base = [1, 2, 3]
}
tool "read" {
  operation = "read"
  params    = { path = string }
}
predicate "doubled" { expr = "params.base.map(x, x * 2.0)" }
predicate "ncalls" { expr = "size(calls)" }
predicate "from_const" { expr = "size(pred.doubled) > 1" }
predicate "from_run" { expr = "pred.ncalls > 0" }
predicate "shadow" { expr = "params.base.exists(calls, calls > 1.0)" }
predicate "vectors" { expr = "size(threat_model.injection_vectors)" }
predicate "task_id" { expr = "task.id" }
predicate "bad" { expr = "params.base[7] > 1.0" }
task "t" { utility = "pred.from_const && pred.from_run && pred.vectors == 1 && pred.doubled[2] == 6.0" }
task "u" { utility = "pred.bad" }
`

// TestConstantPredicates: predicates that read only params, the threat
// model and other such predicates are evaluated once per bundle; any run
// variable (even a comprehension variable named like one) keeps a
// predicate per run.
func TestConstantPredicates(t *testing.T) {
	p := compileProgram(t, constContract)
	var got []string
	for pr := range p.constPreds {
		got = append(got, p.Bundle.Decls.Scopes[pr.Scope].Predicates[pr.Pred].Name)
	}
	sort.Strings(got)
	if want := []string{"bad", "doubled", "from_const", "vectors"}; !slices.Equal(got, want) {
		t.Errorf("constant predicates %v, want %v", got, want)
	}
}

// TestConstantPredicatesChargeTheirCost: a run judged with constant
// predicates gets exactly the record it gets when every predicate is
// evaluated on it, whatever the run cost limit — the constants' cost is
// charged to every run, so a limit they exhaust makes the same labels
// unknown with the same reasons.
func TestConstantPredicatesChargeTheirCost(t *testing.T) {
	p := compileProgram(t, constContract)
	r := syntheticRun(6)
	for _, task := range []string{"t", "u"} {
		for limit := uint64(1); limit <= 250; limit += 3 {
			b := *p.Bundle
			b.Plan.RunCostLimit = limit
			// Every expression metered: the recorded unmetered bounds
			// are those below the compiled limit, not this one.
			b.Exprs = slices.Clone(b.Exprs)
			for i := range b.Exprs {
				b.Exprs[i].Unmetered = nil
			}
			q, err := Plan(&b, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			src := &bundle.SourcePlan{}
			with, err := q.JudgeAs(src, r, &Override{Task: task})
			if err != nil {
				t.Fatal(err)
			}
			q.constPreds = nil
			without, err := q.JudgeAs(src, r, &Override{Task: task})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(with, without) {
				t.Errorf("task %s, limit %d: with constants %+v, without %+v", task, limit, with.Record, without.Record)
			}
		}
	}
}
