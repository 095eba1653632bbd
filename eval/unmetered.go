package eval

import (
	"errors"
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/costbound"
	"github.com/tenetlang/tenet/eval/view"
)

// Metering only what needs it (issue 17): an expression whose static cost
// bound on runs of a run's size (bundle.Expr.Unmetered, view.Size) is below
// the run cost limit is evaluated without cel-go's cost tracker, charged
// its bound against a second allowance of the limit, past which
// expressions run metered (docs/robustness.md, "Bounding a run's work").

// freeExpr is an expression the bundle says may run unmetered: its
// untracked program and, per size rung, whether the recorded bound is the
// one its cost gives, both computed on first use (cold start).
type freeExpr struct {
	env   *cel.Env
	ast   *cel.Ast
	plan  sync.Once
	prg   cel.Program
	rungs [len(bundle.SizeRungs)]struct {
		once sync.Once
		ok   bool
	}
}

// planFree refuses a bundle that records unmetered bounds for an
// expression that must be metered, and keeps what checking and planning
// the others needs (envs and asts are index-aligned with Bundle.Exprs).
func (p *Program) planFree(envs []*cel.Env, asts []*cel.Ast) error {
	b := p.Bundle
	p.consts = costbound.Consts(b)
	var errs []error
	for i, why := range costbound.Eligibility(b, asts) {
		e := &b.Exprs[i]
		if len(e.Unmetered) == 0 {
			continue
		}
		if why != "" {
			errs = append(errs, fmt.Errorf("bundle is inconsistent: expression %d (%s of %s, %s) records unmetered bounds, but must be metered: it %s", i, e.Kind, e.Owner, rangeString(e.Range), why))
			continue
		}
		if p.free == nil {
			p.free = make([]*freeExpr, len(b.Exprs))
		}
		p.free[i] = &freeExpr{env: envs[i], ast: asts[i]}
	}
	return errors.Join(errs...)
}

// checked says whether expression i's recorded bound at rung k is the one
// its cost gives and its untracked program is planned (else it is metered).
func (p *Program) checked(i, k int) bool {
	f := p.free[i]
	r := &f.rungs[k]
	r.once.Do(func() {
		c, err := costbound.Bound(f.env, f.ast, p.consts, k)
		r.ok = err == nil && c == p.Bundle.Exprs[i].Unmetered[k]
	})
	if !r.ok {
		return false
	}
	f.plan.Do(func() {
		f.prg, _ = program(f.env, f.ast, []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(interruptEvery)})
	})
	return f.prg != nil
}

// freeOnRun says whether expression i may run unmetered on this run, and
// if so charges its bound at the run's rung to the unmetered allowance.
func (p *Program) freeOnRun(i int, ctx *runCtx) bool {
	if p.free == nil || p.free[i] == nil {
		p.noteEval(i, false)
		return false
	}
	bounds := p.Bundle.Exprs[i].Unmetered
	if ctx.rung < 0 {
		ctx.rung = view.SizeRung(ctx.run)
	}
	k := ctx.rung
	if k >= len(bounds) || ctx.free+bounds[k] > p.Bundle.Plan.RunCostLimit || !p.checked(i, k) {
		p.noteEval(i, false)
		return false
	}
	p.noteEval(i, true)
	ctx.free += bounds[k]
	return true
}

// evalFree evaluates expression i unmetered when it may be on this run (ok).
func (p *Program) evalFree(i int, act interpreter.Activation, ctx *runCtx) (v ref.Val, err error, ok bool) {
	if !p.freeOnRun(i, ctx) {
		return nil, nil, false
	}
	if ctx.timeout != nil && p.folds[i] {
		v, _, err = p.free[i].prg.ContextEval(ctx.timeout, act)
	} else {
		v, _, err = p.free[i].prg.Eval(act)
	}
	if terr := p.overTime(ctx, "while evaluating this expression"); err != nil && terr != nil {
		return nil, terr, true
	}
	return v, err, true
}

// noteEval tells a test how expression i is evaluated (Program.onEval).
func (p *Program) noteEval(i int, unmetered bool) { // tests
	if p.onEval != nil {
		p.onEval(i, unmetered)
	}
}
