package session

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/run"
)

// NewEngine is the Engine of a planned bundle: its authorizer, and its
// invariants checked by eval's live check (eval.Live: the patterns'
// machines kept advanced over the history, so that a check matches only
// the items after it) under pol.
func NewEngine(p *eval.Program, pol OnUnknown) *Engine {
	e := &Engine{Auth: authorize.New(p.Bundle, p.ID), Bundle: p.Bundle, OnUnknown: pol}
	e.NewChecker = func(task, goal string) (Checker, error) {
		l, err := p.NewLive(eval.LiveOptions{Task: task, Goal: goal})
		if err != nil {
			return nil, err
		}
		return live{l}, nil
	}
	// An invariant is checked incrementally when it is patterns only
	// (an assert is evaluated on the whole run) and none of its patterns'
	// guards read what grows with the run (FullRescan: matched from the
	// first item every check).
	full := map[string]bool{}
	if l, err := p.NewLive(eval.LiveOptions{}); err == nil {
		for _, owner := range l.FullRescan() {
			full[owner] = true
		}
	}
	for _, inv := range p.Bundle.Plan.Invariants {
		inc := inv.Holds.Expr == bundle.NoExpr && len(inv.Holds.Patterns) > 0
		for _, u := range inv.Holds.Patterns {
			inc = inc && !full[p.Bundle.Plan.Patterns[u.Pattern].Owner]
		}
		e.Invariants = append(e.Invariants, InvariantInfo{Name: inv.Name, Severity: inv.Severity, Incremental: inc})
	}
	return e
}

// live is a session's Checker: eval.Live's labels as statuses.
type live struct{ l *eval.Live }

func (c live) Check(r *run.Run, pending int) ([]Result, error) {
	res, err := c.l.Check(r, pending)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(res.Invariants))
	for i, v := range res.Invariants {
		x := Result{Name: v.Name, Severity: v.Severity, Witness: v.Witness}
		switch {
		case !v.Label.Known:
			x.Status, x.Reason = Unknown, v.Label.Reason
		case v.Label.Value:
			x.Status = Held
		default:
			x.Status = Violated
			x.Before = v.History.Known && !v.History.Value && !v.Again
		}
		out[i] = x
	}
	return out, nil
}
