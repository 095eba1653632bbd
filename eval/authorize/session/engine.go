package session

import (
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
)

// NewEngine is the Engine of a planned bundle: its authorizer, and its
// invariants checked by eval's incremental engine under pol.
func NewEngine(p *eval.Program, pol OnUnknown) *Engine {
	e := &Engine{Auth: authorize.New(p.Bundle, p.ID), Bundle: p.Bundle, OnUnknown: pol}
	wireInvariants(e, p)
	return e
}

// wireInvariants sets e's checker from p. Until eval's incremental
// invariant engine is in place, the invariants are not checked
// (NewChecker nil: GET /v1/bundle says invariants_checked false).
func wireInvariants(e *Engine, p *eval.Program) {}
