// Package metering holds what evaluating an expression without cel-go's
// runtime cost tracker needs (issue 17, "meter only what needs it"): the
// expressions a bundle records unmetered bounds for (bundle.Expr.Unmetered,
// per run size rung), refused at load when one must be metered, and each
// recorded bound checked against the expression's cost and its untracked
// program planned on first use (cold start). eval decides per run, from the
// run's size rung and its unmetered allowance, whether to use them
// (docs/robustness.md, "Bounding a run's work").
package metering

import (
	"errors"
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/costbound"
)

// Planner plans an untracked program for a checked expression.
type Planner func(env *cel.Env, ast *cel.Ast) (cel.Program, error)

// Free is a bundle's expressions that may run unmetered. The zero of a
// *Free (nil) has none.
type Free struct {
	b      *bundle.Bundle
	consts uint64 // the bundle's constant size (costbound.Consts)
	plan   Planner
	exprs  []*expr // per expression of the bundle, nil where metered
}

// expr is one expression the bundle says may run unmetered: its untracked
// program and, per size rung, whether the recorded bound is the one its
// cost gives, both computed on first use.
type expr struct {
	env   *cel.Env
	ast   *cel.Ast
	plan  sync.Once
	prg   cel.Program
	rungs [len(bundle.SizeRungs)]struct {
		once sync.Once
		ok   bool
	}
}

// New refuses a bundle that records unmetered bounds for an expression
// that must be metered, and keeps what checking and planning the others
// needs (envs and asts are index-aligned with Bundle.Exprs). It returns
// nil when no expression may run unmetered. where names expression i in
// an error.
func New(b *bundle.Bundle, envs []*cel.Env, asts []*cel.Ast, plan Planner, where func(i int) string) (*Free, error) {
	f := &Free{b: b, consts: costbound.Consts(b), plan: plan}
	var errs []error
	for i, why := range costbound.Eligibility(b, asts) {
		if len(b.Exprs[i].Unmetered) == 0 {
			continue
		}
		if why != "" {
			errs = append(errs, fmt.Errorf("bundle is inconsistent: expression %d (%s) records unmetered bounds, but must be metered: it %s", i, where(i), why))
			continue
		}
		if f.exprs == nil {
			f.exprs = make([]*expr, len(b.Exprs))
		}
		f.exprs[i] = &expr{env: envs[i], ast: asts[i]}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if f.exprs == nil {
		return nil, nil
	}
	return f, nil
}

// Program returns expression i's untracked program and its recorded bound
// on runs of size rung k, when the expression may run unmetered there and
// its bound, added to spent, stays within the run cost limit; ok is false
// otherwise (the expression runs metered).
func (f *Free) Program(i, k int, spent uint64) (prg cel.Program, bound uint64, ok bool) {
	if f == nil || f.exprs[i] == nil {
		return nil, 0, false
	}
	bounds := f.b.Exprs[i].Unmetered
	if k < 0 || k >= len(bounds) || spent+bounds[k] > f.b.Plan.RunCostLimit || !f.checked(i, k) {
		return nil, 0, false
	}
	return f.exprs[i].prg, bounds[k], true
}

// checked says whether expression i's recorded bound at rung k is the one
// its cost gives and its untracked program is planned (else it is metered).
func (f *Free) checked(i, k int) bool {
	e := f.exprs[i]
	r := &e.rungs[k]
	r.once.Do(func() {
		c, err := costbound.Bound(e.env, e.ast, f.consts, k)
		r.ok = err == nil && c == f.b.Exprs[i].Unmetered[k]
	})
	if !r.ok {
		return false
	}
	e.plan.Do(func() { e.prg, _ = f.plan(e.env, e.ast) })
	return e.prg != nil
}

// Planned says whether expression i's untracked program has been planned
// (a test's view of what a command has planned; not safe while runs are
// being judged).
func (f *Free) Planned(i int) bool {
	return f != nil && f.exprs[i] != nil && f.exprs[i].prg != nil
}
