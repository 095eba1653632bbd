// Package demand says which predicates each run's verdicts read, so that
// eval evaluates those and no others. It takes a bundle and its checked
// expressions (at load) and gives, per task and goal, a set of positions in
// Plan.Predicates; it imports compiler/bundle and compiler/celenv only.
package demand

import (
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
)

// Demand says, per run, which predicates of Plan.Predicates (by position)
// its verdicts read: label evaluates those, in plan order, and no others.
// Invariants and failures are verdicts of every run; side effects and the
// exposure criterion of every attacked run; a task's utility (variants'
// when included) and a goal's success of its own runs. Each set is closed
// over predicates reading predicates, across imported scopes.
type Demand struct {
	every, attacked []bool
	invariants      []bool // what the invariants alone read
	tasks           map[*bundle.TaskPlan][]bool
	goals           map[*bundle.GoalPlan][]bool
}

// Of returns what a run of task (and goal, nil for none) reads, by
// position in Plan.Predicates; nil for every predicate (a task or goal
// the plan does not know).
func (d *Demand) Of(task *bundle.TaskPlan, goal *bundle.GoalPlan) []bool {
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

// Invariants returns what the invariants read, by position in
// Plan.Predicates (a session's check of its calls evaluates no other
// verdict). The caller must not change it.
func (d *Demand) Invariants() []bool { return d.invariants }

// Plan computes the Demand of b from its checked expressions (asts,
// index-aligned with b.Exprs; nil where none) for the tasks, goal tasks and
// goals a run may have. An expression
// that reads pred other than as pred.[ns.]name (pred[k], has(pred.x), a
// namespace as a whole), or that has no checked form, reads every predicate.
func Plan(b *bundle.Bundle, scopeIndex map[string]int, asts []*cel.Ast, tasks, goalTasks map[string]*bundle.TaskPlan, goals map[string]*bundle.GoalPlan) *Demand {
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
		Reads(b, scopeIndex, asts[e], scope, func(s int, name string) {
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
	invariants := set(every)
	for _, f := range b.Plan.Failures {
		every = append(every, f.When)
	}
	for _, se := range b.Plan.SideEffects {
		attacked = append(attacked, se.When)
	}
	d := &Demand{every: set(every), invariants: invariants, attacked: set(attacked, b.Manifest.ThreatModel.Exposure),
		tasks: map[*bundle.TaskPlan][]bool{}, goals: map[*bundle.GoalPlan][]bool{}}
	for _, t := range tasks {
		d.tasks[t] = set([]bundle.Criterion{t.Utility}, variants(t.Variants)...)
	}
	for _, t := range goalTasks {
		d.tasks[t] = set([]bundle.Criterion{t.Utility}, variants(t.Variants)...)
	}
	for _, g := range goals {
		d.goals[g] = set([]bundle.Criterion{g.Success}, variants(g.Variants)...)
	}
	return d
}

// Reads walks a checked expression evaluated in scope of b (scopeIndex:
// scope path → index in Decls.Scopes): read(s, name)
// for each predicate it selects as pred.[ns.]name, other() for pred used
// any other way (indexed, whole, a namespace as a whole, in has()),
// ident(name) for every other identifier.
func Reads(b *bundle.Bundle, scopeIndex map[string]int, a *cel.Ast, scope int, read func(s int, name string), other func(), ident func(name string)) {
	// Selections pred.x[.y...] whose operand chain starts at ident pred,
	// outermost first; their inner selections are visited with them.
	inPredChain := map[int64]bool{}
	ast.PreOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		switch x.Kind() {
		case ast.IdentKind:
			if name := x.AsIdent(); name != "pred" {
				ident(name)
			} else if !inPredChain[x.ID()] {
				other()
			}
		case ast.SelectKind:
			if inPredChain[x.ID()] {
				return
			}
			// Collect the chain down to its root.
			var names []string
			var ids []int64
			cur := x
			for cur.Kind() == ast.SelectKind {
				names = append(names, cur.AsSelect().FieldName())
				ids = append(ids, cur.ID())
				cur = cur.AsSelect().Operand()
			}
			if cur.Kind() != ast.IdentKind || cur.AsIdent() != "pred" {
				return
			}
			for _, id := range ids {
				inPredChain[id] = true
			}
			inPredChain[cur.ID()] = true
			if x.AsSelect().IsTestOnly() {
				other()
				return
			}
			// names runs outermost first: walk from pred down through
			// namespaces to the first predicate name.
			s := scope
			for k := len(names) - 1; k >= 0; k-- {
				child, isNS := scopeIndex[celenv.Child(b.Decls.Scopes[s].Path, names[k])]
				if isNS && slices.Contains(b.Decls.Scopes[s].Namespaces, names[k]) {
					s = child
					continue
				}
				read(s, names[k])
				return
			}
			other() // pred.ns as a whole
		}
	}))
}
