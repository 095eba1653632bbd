package eval

import (
	"context"
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/consistency"
)

// PlanConsistent is Plan for a bundle known to be consistent: compiled
// from its sources by this process, or one whose every load check this
// binary has made before (the compile cache, compiler/cache). It makes
// the checks that rebuild what judging needs (Validate, the environments,
// decoding every checked expression) but not the text checks — each
// expression's and pattern's compiled form against its text — which can
// only refuse a bundle whose compiled forms were not made from its texts;
// and it plans each expression on its first evaluation rather than all at
// load, so that a command pays only for the expressions its runs reach
// (cel-go builds a cost tracker, its overload table compiled again, for
// every program it plans). Judging gives the same labels either way.
func PlanConsistent(b *bundle.Bundle, id string) (*Program, error) {
	return planWith(b, id, true, true)
}

// plan is Plan, or with metered false the same without cost tracking.
func plan(b *bundle.Bundle, id string, metered bool) (*Program, error) {
	return planWith(b, id, metered, false)
}

// quickCheck is consistency.QuickCheck, skipped for a consistent bundle.
func quickCheck(consistent bool, env *cel.Env, e *bundle.Expr, ce *exprpb.CheckedExpr) error {
	if consistent {
		return nil
	}
	return consistency.QuickCheck(env, e, ce)
}

// programOf plans a checked expression now (program), or for a consistent
// bundle returns a program planned on its first evaluation.
func programOf(consistent bool, env *cel.Env, checked *cel.Ast, opts []cel.ProgramOption) (cel.Program, error) {
	if !consistent {
		return program(env, checked, opts)
	}
	return &lazyProgram{plan: func() (cel.Program, error) { return program(env, checked, opts) }}, nil
}

// lazyProgram is a cel.Program planned once, by the first evaluation of
// whichever goroutine gets there first; the others wait for it. Planning
// is deterministic, so its result (or error) does not depend on which.
type lazyProgram struct {
	once sync.Once
	plan func() (cel.Program, error)
	prg  cel.Program
	err  error
}

func (l *lazyProgram) get() (cel.Program, error) {
	l.once.Do(func() {
		if l.prg, l.err = l.plan(); l.err != nil {
			l.err = fmt.Errorf("planning: %w", l.err)
		}
		l.plan = nil
	})
	return l.prg, l.err
}

func (l *lazyProgram) Eval(in any) (ref.Val, *cel.EvalDetails, error) {
	prg, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	return prg.Eval(in)
}

func (l *lazyProgram) ContextEval(ctx context.Context, in any) (ref.Val, *cel.EvalDetails, error) {
	prg, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	return prg.ContextEval(ctx, in)
}

func (l *lazyProgram) ConcurrentEval(ctx context.Context, in any) <-chan cel.EvalResult {
	prg, err := l.get()
	if err != nil {
		ch := make(chan cel.EvalResult, 1)
		ch <- cel.EvalResult{Err: err}
		close(ch)
		return ch
	}
	return prg.ConcurrentEval(ctx, in)
}
