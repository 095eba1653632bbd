package eval

import (
	"fmt"
	"github.com/tenetlang/tenet/eval/lazyprog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
)

// consistentProgram compiles src and plans it as a bundle compiled here
// (PlanConsistent), next to the Program Load gives the same bytes.
func consistentProgram(t *testing.T, src string) (lazy, eager *Program) {
	t.Helper()
	built, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, testOptions())
	checkBuilt(t, ".", built, diags)
	b, id, err := bundle.Decode(built.Data)
	if err != nil {
		t.Fatal(err)
	}
	if lazy, err = PlanConsistent(b, id); err != nil {
		t.Fatal(err)
	}
	return lazy, loadBuilt(t, built)
}

// planned counts the expressions of p planned so far, metered or
// unmetered (an expression a run may evaluate unmetered is planned as
// such, eval/metering).
func planned(p *Program) (n int) {
	for i, prg := range p.progs {
		if lazyprog.Planned(prg) || p.free.Planned(i) {
			n++
		}
	}
	return n
}

// TestPlanConsistentPlansOnFirstUse: PlanConsistent plans no expression
// at load, then only those a run evaluates: task a's run reads its
// utility (pred.only_a), the invariant (pred.inv) and those two
// predicates; task c's adds its utility; none other is planned.
func TestPlanConsistentPlansOnFirstUse(t *testing.T) {
	p, eager := consistentProgram(t, demandContract)
	if n, all := planned(eager), len(eager.progs); n != all {
		t.Fatalf("Load planned %d of %d expressions, want all", n, all)
	}
	if n := planned(p); n != 0 {
		t.Fatalf("%d expressions planned at load, want 0", n)
	}
	for _, c := range []struct {
		task string
		want int
	}{{"a", 4}, {"a", 4}, {"c", 5}} {
		if _, err := p.JudgeAs(&bundle.SourcePlan{}, syntheticRun(6), &Override{Task: c.task}); err != nil {
			t.Fatal(err)
		}
		if n := planned(p); n != c.want {
			t.Errorf("after a run of task %s: %d expressions planned, want %d", c.task, n, c.want)
		}
	}
}

// TestPlanConsistentJudgesAsPlan: every task and goal of the contract,
// judged by a Program planned lazily (from several goroutines at once,
// so that the race detector sees the first uses race) and by one planned
// at load, gives the same record.
func TestPlanConsistentJudgesAsPlan(t *testing.T) {
	p, eager := consistentProgram(t, demandContract)
	var cases []Override
	for _, task := range []string{"a", "b", "c"} {
		for _, goal := range []string{"", "g0"} {
			cases = append(cases, Override{Task: task, Goal: goal})
		}
	}
	got := make([]any, len(cases))
	var wg sync.WaitGroup
	for i := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jr, err := p.JudgeAs(&bundle.SourcePlan{}, syntheticRun(6), &cases[i])
			if err != nil {
				got[i] = err
				return
			}
			got[i] = jr.Record
		}()
	}
	wg.Wait()
	for i, c := range cases {
		jr, err := eager.JudgeAs(&bundle.SourcePlan{}, syntheticRun(6), &c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], jr.Record) {
			t.Errorf("task %s goal %q: lazily planned %+v, planned at load %+v", c.Task, c.Goal, got[i], jr.Record)
		}
	}
}

// TestPlanConsistentMakesNoTextChecks documents what PlanConsistent
// trusts: a bundle whose compiled form is not its text's, which Plan
// refuses, is planned — which is why only bundles compiled by this binary
// (here or from the cache) are planned so.
func TestPlanConsistentMakesNoTextChecks(t *testing.T) {
	built, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(demandContract)}, testOptions())
	checkBuilt(t, ".", built, diags)
	b, id, err := bundle.Decode(built.Data)
	if err != nil {
		t.Fatal(err)
	}
	i := b.Decls.Scopes[0].Predicates[0].Expr
	b.Exprs[i].Text = "size(calls) > 1" // what runs still reads > 0
	_, err = Plan(b, id)
	if want := fmt.Sprintf("expression %d (", i); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "its compiled form is not its text's") {
		t.Fatalf("Plan: %v; want the text check's refusal of expression %d", err, i)
	}
	if _, err := PlanConsistent(b, id); err != nil {
		t.Fatalf("PlanConsistent: %v", err)
	}
}
