package eval

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
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
	r := syntheticRun(6)
	for limit := uint64(1); limit <= 250; limit += 3 {
		// Built with the limit, so that its unmetered bounds are those
		// below it.
		src := strings.Replace(constContract, `contract "c" {}`, fmt.Sprintf("contract \"c\" {\n  run_cost_limit = %d\n}", limit), 1)
		q := compileProgram(t, src)
		for _, task := range []string{"t", "u"} {
			q := *q
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
