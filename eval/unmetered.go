package eval

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/eval/metering"
	"github.com/tenetlang/tenet/eval/view"
)

// Metering only what needs it (issue 17): an expression whose static cost
// bound on runs of a run's size (bundle.Expr.Unmetered, view.Size) is below
// the run cost limit is evaluated without cel-go's cost tracker, charged
// its bound against a second allowance of the limit, past which
// expressions run metered (docs/robustness.md, "Bounding a run's work";
// the bookkeeping is eval/metering's).

// planFree refuses a bundle that records unmetered bounds for an
// expression that must be metered, and keeps what checking and planning
// the others needs (envs and asts are index-aligned with Bundle.Exprs).
func (p *Program) planFree(envs []*cel.Env, asts []*cel.Ast) (err error) {
	p.free, err = metering.New(p.Bundle, envs, asts, func(env *cel.Env, ast *cel.Ast) (cel.Program, error) {
		return program(env, ast, []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(interruptEvery)})
	}, func(i int) string {
		e := &p.Bundle.Exprs[i]
		return fmt.Sprintf("%s of %s, %s", e.Kind, e.Owner, rangeString(e.Range))
	})
	return err
}

// freeProgram returns expression i's untracked program when it may run
// unmetered on this run, and charges its bound at the run's size rung to
// the unmetered allowance.
func (p *Program) freeProgram(i int, ctx *runCtx) (cel.Program, bool) {
	if p.free != nil && ctx.rung < 0 {
		ctx.rung = view.SizeRung(ctx.run)
	}
	prg, bound, ok := p.free.Program(i, ctx.rung, ctx.free)
	if p.onEval != nil { // tests
		p.onEval(i, ok)
	}
	if ok {
		ctx.free += bound
	}
	return prg, ok
}

// evalFree evaluates expression i unmetered when it may be on this run (ok).
func (p *Program) evalFree(i int, act interpreter.Activation, ctx *runCtx) (v ref.Val, err error, ok bool) {
	prg, ok := p.freeProgram(i, ctx)
	if !ok {
		return nil, nil, false
	}
	if ctx.timeout != nil && p.folds[i] {
		v, _, err = prg.ContextEval(ctx.timeout, act)
	} else {
		v, _, err = prg.Eval(act)
	}
	if terr := p.overTime(ctx, "while evaluating this expression"); err != nil && terr != nil {
		return nil, terr, true
	}
	return v, err, true
}
