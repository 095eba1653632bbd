package eval

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
)

// The run time limit (Program.RunTimeout, tenet eval --run-timeout) is a
// backstop, not the meter: the run cost limit (contract run_cost_limit,
// charged by cel-go's cost tracker and stdlib's runtime charges) is what
// bounds the work of a criterion, deterministically. The cost model prices
// every call by the size of what it reads, but a few operations are not
// calls (m[k] hashes its key k, a qualifier cel-go charges 1) and a model
// can miss a shape; repeated by a comprehension, such an operation is
// unbounded time for a bounded charge. The deadline bounds that time.
//
// Determinism: a run reaches the deadline only when its criteria do
// seconds of work, which no ordinary transcript makes them do (the AgentDojo
// runs take well under a millisecond each); on such pathological input
// alone, whether a label is known can depend on the machine's speed. A
// label past the deadline is unknown with the reason, never false.

// interruptEvery is how many comprehension iterations cel-go evaluates
// between two checks of the run's deadline (cel.InterruptCheckFrequency).
// An iteration costs at least a few cost units, so at the default cost
// limit the deadline is checked often enough to stop within milliseconds
// of it, unless one iteration alone is slow.
const interruptEvery = 100

// overTime says, once the run's deadline has passed, that judging the run
// took longer than the run time limit and where it was stopped ("before
// this expression", "while matching"). It says only what is known: the
// time is wall-clock time, which a loaded machine or a tiny limit
// (--run-timeout 1ns) spends as well as the criteria do, so the reason
// does not claim the criteria did the work.
func (p *Program) overTime(ctx *runCtx, where string) error {
	if ctx.timeout == nil || ctx.timeout.Err() == nil {
		return nil
	}
	return fmt.Errorf("judging this run took longer than the run time limit of %s (--run-timeout): stopped %s", p.RunTimeout, where)
}

// hasComprehension says whether an expression holds a comprehension (all,
// exists, map, filter, fold, ...): the only construct cel-go interrupts at
// a deadline. Any other expression does work bounded by the size of its
// inputs, so it is evaluated without the deadline's context (which costs
// allocations at every evaluation) and the deadline is checked before it.
func hasComprehension(a *cel.Ast) bool {
	found := false
	ast.PreOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() == ast.ComprehensionKind {
			found = true
		}
	}))
	return found
}
