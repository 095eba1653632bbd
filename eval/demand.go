package eval

import (
	"cel.dev/cel-go/cel"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// demand says, per run, which predicates of Plan.Predicates (by position)
// its verdicts read: label evaluates those, in plan order, and no others.
// Invariants and failures are verdicts of every run; side effects and the
// exposure criterion of every attacked run; a task's utility (variants'
// when included) and a goal's success of its own runs. Each set is closed
// over predicates reading predicates, across imported scopes.
type demand struct {
	every, attacked []bool
	tasks           map[*bundle.TaskPlan][]bool
	goals           map[*bundle.GoalPlan][]bool
}

// of returns what a run of task (and goal, nil for none) reads, by
// position in Plan.Predicates; nil for every predicate (a task or goal
// the plan does not know).
func (d *demand) of(task *bundle.TaskPlan, goal *bundle.GoalPlan) []bool {
	t, g := d.tasks[task], d.goals[goal]
	if t == nil || (goal != nil && g == nil) {
		return nil
	}
	out := make([]bool, len(t))
	for i := range out {
		out[i] = d.every[i] || t[i] || (goal != nil && (d.attacked[i] || g[i]))
	}
	return out
}

// planDemand computes p.demand from the checked expressions. An expression
// that reads pred other than as pred.[ns.]name (pred[k], has(pred.x), a
// namespace as a whole), or that has no checked form, reads every predicate.
func (p *Program) planDemand(asts []*cel.Ast) {
	b := p.Bundle
	n := len(b.Plan.Predicates)
	pos := map[bundle.PredRef]int{}
	for i, pr := range b.Plan.Predicates {
		pos[pr] = i
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	// reads lists the positions an expression evaluated in scope reads.
	reads := func(e, scope int) (out []int) {
		if e == bundle.NoExpr {
			return nil
		}
		if asts[e] == nil {
			return all
		}
		whole := false
		p.predReads(asts[e], scope, func(s int, name string) {
			for j, pd := range b.Decls.Scopes[s].Predicates {
				if pd.Name == name {
					out = append(out, pos[bundle.PredRef{Scope: s, Pred: j}])
					return
				}
			}
			whole = true
		}, func() { whole = true }, func(string) {})
		if whole {
			return all
		}
		return out
	}
	pattern := func(pi int) (out []int) {
		pt := &b.Plan.Patterns[pi]
		for _, st := range pt.Steps {
			out = append(out, reads(st.When, pt.Scope)...)
		}
		return out
	}
	deps := make([][]int, n)
	for i, pr := range b.Plan.Predicates {
		if pd := b.Decls.Scopes[pr.Scope].Predicates[pr.Pred]; pd.Pattern != bundle.NoExpr {
			deps[i] = pattern(pd.Pattern)
		} else {
			deps[i] = reads(pd.Expr, pr.Scope)
		}
	}
	var mark func(set []bool, i int)
	mark = func(set []bool, i int) {
		if !set[i] {
			set[i] = true
			for _, d := range deps[i] {
				mark(set, d)
			}
		}
	}
	set := func(crs []bundle.Criterion, exprs ...int) []bool {
		s := make([]bool, n)
		for _, cr := range crs {
			exprs = append(exprs, cr.Expr)
			for _, u := range cr.Patterns {
				for _, i := range pattern(u.Pattern) {
					mark(s, i)
				}
			}
		}
		for _, e := range exprs {
			if e != bundle.NoExpr {
				for _, i := range reads(e, b.Exprs[e].Scope) {
					mark(s, i)
				}
			}
		}
		return s
	}
	variants := func(vs []bundle.VariantPlan) (out []int) {
		for _, v := range vs {
			out = append(out, v.When, v.Expr)
		}
		return out
	}
	var every, attacked []bundle.Criterion
	for _, inv := range b.Plan.Invariants {
		every = append(every, inv.Holds)
	}
	for _, f := range b.Plan.Failures {
		every = append(every, f.When)
	}
	for _, se := range b.Plan.SideEffects {
		attacked = append(attacked, se.When)
	}
	d := &demand{every: set(every), attacked: set(attacked, b.Manifest.ThreatModel.Exposure),
		tasks: map[*bundle.TaskPlan][]bool{}, goals: map[*bundle.GoalPlan][]bool{}}
	for _, t := range p.tasks {
		d.tasks[t] = set([]bundle.Criterion{t.Utility}, variants(t.Variants)...)
	}
	for _, t := range p.goalTasks {
		d.tasks[t] = set([]bundle.Criterion{t.Utility}, variants(t.Variants)...)
	}
	for _, g := range p.goals {
		d.goals[g] = set([]bundle.Criterion{g.Success}, variants(g.Variants)...)
	}
	p.demand = d
}
