package gateway

import (
	"encoding/json"
	"slices"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
)

// Decider decides one tools/call before the gateway forwards it. The
// gateway calls Decide from one goroutine, in the order the client sent
// the calls, and forwards the call only when the Verdict allows it; so a
// Decider may keep the session's state (the calls so far) without
// locking. A Decider is the seam where checks beyond the grant plug in:
// a session's pending-call check against the contract's invariants wraps
// the grant's decider (GrantDecider) and adds its findings to the Verdict
// (Invariants, OnUnknown), refusing the call by its on-unknown policy.
type Decider interface {
	Decide(c authorize.Call) Verdict
}

// ResultObserver is a Decider that also wants the server's answer to each
// call it allowed (a session check's history needs the results its
// invariants read). The gateway calls Observe from the goroutine reading
// the server, in the order the answers arrive, with the raw JSON-RPC
// response (the line, a result or an error); it is not called for a call
// the server never answered.
type ResultObserver interface {
	Observe(c authorize.Call, response json.RawMessage)
}

// Verdict is a Decider's answer: what the gateway does with the call and
// what its decision log line says.
type Verdict struct {
	// Allowed forwards the call to the server.
	Allowed bool
	// Decision is the authorization decision (nil when Err is set).
	Decision *authorize.Decision
	// Invariants and OnUnknown are a session check's findings, logged as
	// they are (decisionlog.Entry).
	Invariants []decisionlog.Invariant
	OnUnknown  string
	// Err is why the call could not be decided (then it is refused).
	Err error
}

// GrantDecider decides each call alone under one grant of a bundle
// (authorize.Authorizer.Authorize): the run-time twin of the offline
// authorization audit.
type GrantDecider struct {
	A     *authorize.Authorizer
	Grant string
}

// NewGrantDecider checks that the bundle declares grant.
func NewGrantDecider(a *authorize.Authorizer, grant string) (*GrantDecider, error) {
	if !slices.Contains(a.Grants(), grant) {
		return nil, &authorize.UnknownGrantError{Grant: grant, Grants: a.Grants()}
	}
	return &GrantDecider{A: a, Grant: grant}, nil
}

// Decide implements Decider.
func (g *GrantDecider) Decide(c authorize.Call) Verdict {
	d, err := g.A.Authorize(c, g.Grant)
	if err != nil {
		return Verdict{Err: err}
	}
	return Verdict{Allowed: d.Allowed, Decision: &d}
}
