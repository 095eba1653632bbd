// Package lazyprog is a cel.Program planned on its first evaluation, so
// that a command pays only for the expressions its runs reach: cel-go
// builds a cost tracker, its overload table compiled again, for every
// program it plans (docs/performance.md, "Cold start (issue 17)").
package lazyprog

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
)

// New returns a program that plan plans once, at the first evaluation of
// whichever goroutine gets there first; the others wait for it. Planning
// must be deterministic, so that its result (or error) does not depend on
// which goroutine plans.
func New(plan func() (cel.Program, error)) cel.Program {
	return &program{plan: plan}
}

type program struct {
	once sync.Once
	plan func() (cel.Program, error)
	prg  cel.Program
	err  error
	done atomic.Bool // planned (for Planned)
}

func (l *program) get() (cel.Program, error) {
	l.once.Do(func() {
		if l.prg, l.err = l.plan(); l.err != nil {
			l.err = fmt.Errorf("planning: %w", l.err)
		}
		l.plan = nil
		l.done.Store(true)
	})
	return l.prg, l.err
}

func (l *program) Eval(in any) (ref.Val, *cel.EvalDetails, error) {
	prg, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	return prg.Eval(in)
}

func (l *program) ContextEval(ctx context.Context, in any) (ref.Val, *cel.EvalDetails, error) {
	prg, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	return prg.ContextEval(ctx, in)
}

func (l *program) ConcurrentEval(ctx context.Context, in any) <-chan cel.EvalResult {
	prg, err := l.get()
	if err != nil {
		ch := make(chan cel.EvalResult, 1)
		ch <- cel.EvalResult{Err: err}
		close(ch)
		return ch
	}
	return prg.ConcurrentEval(ctx, in)
}

// Planned says whether p, a program of New, has been planned (a test's
// view of what a command has planned so far); any other program is
// planned.
func Planned(p cel.Program) bool {
	l, ok := p.(*program)
	return !ok || l.done.Load()
}
