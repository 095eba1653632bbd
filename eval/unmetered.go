package eval

import (
	"errors"
	"fmt"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/costbound"
	"github.com/tenetlang/tenet/eval/view"
)

// Metering only what needs it (issue 17): an expression whose static cost
// bound over runs of a run's size is below the run cost limit cannot reach
// the limit there, so it is evaluated without cel-go's cost tracker. The
// bounds are the bundle's (bundle.Expr.Unmetered, compiler/costbound),
// recomputed here; a run's size is view.Size. A metered expression is
// charged what it spent, as before; an unmetered one its bound, against a
// second allowance of the run cost limit, past which expressions run
// metered: a run's work stays bounded, and a run that did not reach the
// limit before gets the same labels (docs/robustness.md, "Bounding a run's
// work").

// planFree checks that the unmetered bounds the bundle records are those
// its expressions' costs give, and plans an untracked program for each
// expression that has them. envs and asts are index-aligned with
// Bundle.Exprs (nil where planning failed: that is reported already).
func (p *Program) planFree(envs []*cel.Env, asts []*cel.Ast) error {
	b := p.Bundle
	want, err := costbound.Plan(b, asts, func(i int) (*cel.Env, error) {
		if envs[i] == nil {
			return nil, fmt.Errorf("expression %d has no environment", i)
		}
		return envs[i], nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for i := range b.Exprs {
		e := &b.Exprs[i]
		if !slices.Equal(want[i], e.Unmetered) {
			gives := "none: it runs metered"
			if len(want[i]) > 0 {
				gives = fmt.Sprint(want[i])
			}
			errs = append(errs, fmt.Errorf("bundle is inconsistent: expression %d (%s of %s, %s) records unmetered bounds %v, its cost gives %s", i, e.Kind, e.Owner, rangeString(e.Range), e.Unmetered, gives))
			continue
		}
		if len(e.Unmetered) == 0 {
			continue
		}
		prg, err := program(envs[i], asts[i], []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(interruptEvery)})
		if err != nil {
			errs = append(errs, fmt.Errorf("expression %d (%s of %s): planning: %w", i, e.Kind, e.Owner, err))
			continue
		}
		if p.free == nil {
			p.free = make([]cel.Program, len(b.Exprs))
		}
		p.free[i] = prg
	}
	return errors.Join(errs...)
}

// freeOnRun says whether expression i may run unmetered on this run, and
// if so charges its bound at the run's rung to the run's unmetered
// allowance.
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
	if k >= len(bounds) || ctx.free+bounds[k] > p.Bundle.Plan.RunCostLimit {
		p.noteEval(i, false)
		return false
	}
	p.noteEval(i, true)
	ctx.free += bounds[k]
	return true
}

// evalFree evaluates expression i unmetered when it may be on this run
// (ok true).
func (p *Program) evalFree(i int, act interpreter.Activation, ctx *runCtx) (v ref.Val, err error, ok bool) {
	if !p.freeOnRun(i, ctx) {
		return nil, nil, false
	}
	if ctx.timeout != nil && p.folds[i] {
		v, _, err = p.free[i].ContextEval(ctx.timeout, act)
	} else {
		v, _, err = p.free[i].Eval(act)
	}
	if err != nil {
		if terr := p.overTime(ctx, "while evaluating this expression"); terr != nil {
			return nil, terr, true
		}
	}
	return v, err, true
}

// noteEval tells a test how expression i is evaluated (Program.onEval).
func (p *Program) noteEval(i int, unmetered bool) {
	if p.onEval != nil {
		p.onEval(i, unmetered)
	}
}
