// Package session is run-time authorization with memory: a session is one
// agent run under one grant (and, optionally, one task and goal), whose
// history is the messages its host reports, in OpenAI chat shape, appended
// only. Each check decides one pending call twice over — the grant
// (eval/authorize: registered tool → exact schema → capability) and the
// contract's invariants on the history plus the pending call (a Checker) —
// and folds both into one answer under an on-unknown policy.
//
// Checks of one session are serialized (a mutex per session); sessions
// are independent. A Table holds the sessions, bounded in number, idle
// time and history size (see Limits).
//
// What a check costs: the history is kept as the JSON text of its
// messages and decoded again, whole, by the openai-messages reader
// (eval/transcript) each time messages are appended, so that a call and
// its recorded twin are the same run to the audit and to the invariants
// (results matched to calls, nested calls found, as offline). A check
// that appends nothing reuses the last decoding. Decoding is linear in the
// history: BenchmarkHistoryDecode measures it at about 3.3 µs per message
// on the development machine (0.3 ms for a request that appends to 100
// messages, 3.4 ms at 1,000), half of it JSON parsing and half run
// building; hence MaxMessages's default of 2,000. A check that appends
// nothing pays nothing. The pattern VM behind a Checker is incremental,
// so the invariant check itself does not rescan the history.
package session

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/run"
)

// OnUnknown is the policy for an invariant the check could not decide
// (a cost limit, data the run does not carry).
type OnUnknown int

// The policies. The zero value is Closed.
const (
	Closed OnUnknown = iota // refuse the call
	Open                    // allow it (the unknown is still reported and logged)
)

// ParseOnUnknown reads a policy's name: "closed" or "open".
func ParseOnUnknown(s string) (OnUnknown, error) {
	switch s {
	case "closed":
		return Closed, nil
	case "open":
		return Open, nil
	}
	return Closed, fmt.Errorf("on-unknown policy %q: want closed (refuse a call an invariant cannot be decided on) or open (allow it)", s)
}

func (o OnUnknown) String() string {
	if o == Open {
		return "open"
	}
	return "closed"
}

// Status is an invariant's state with the pending call.
type Status string

// The statuses. Unknown is never folded into Held or Violated.
const (
	Held     Status = "held"
	Violated Status = "violated"
	Unknown  Status = "unknown"
)

// Result is one invariant's check of a pending call.
type Result struct {
	Name     string
	Severity string
	Status   Status
	// Before is true when the history alone, without the pending call,
	// already violates the invariant and the pending call makes no match
	// of its own (eval.InvariantCheck.Again): it does not newly violate
	// it, so it is not refused on its account.
	Before  bool
	Reason  string
	Witness map[string]string
}

// Checker checks a bundle's invariants on a run that ends with a pending
// call (authorize.WithPending: the call at index pending of r.Calls, its
// nested calls after it). One Checker serves one session: it may keep
// state between checks (the pattern VM's threads over the history), and
// the session never calls it concurrently. The runs it is given grow by
// appending only, each run's history a prefix of the next one's.
type Checker interface {
	Check(r *run.Run, pending int) ([]Result, error)
}

// InvariantInfo describes one invariant a Checker checks.
type InvariantInfo struct {
	Name     string
	Severity string
	// Incremental: checked without rescanning the history (a pattern run
	// by the incremental VM), rather than evaluated on the whole run.
	Incremental bool
}

// Engine is one loaded bundle as sessions use it. Sessions keep the
// Engine they started with, so a reloaded bundle applies to new sessions
// only. An Engine is immutable once made.
type Engine struct {
	Auth *authorize.Authorizer
	// Bundle is the decoded bundle Auth decides with (its manifest and
	// declarations describe the engine: GET /v1/bundle).
	Bundle *bundle.Bundle
	// NewChecker returns the invariant checker of a new session of task
	// and goal ("" when the session names none), or an error naming what
	// the bundle does not declare; nil when the bundle's invariants are
	// not checked (the answer is then the authorization decision alone).
	NewChecker func(task, goal string) (Checker, error)
	Invariants []InvariantInfo
	OnUnknown  OnUnknown
}

// Refusal names what refused a call.
type Refusal string

// The refusals; "" when the call is allowed.
const (
	ByAuthorization Refusal = "authorization"     // the grant does not allow it (Decision says which layer)
	ByInvariant     Refusal = "invariant"         // it would newly violate an invariant
	ByUnknown       Refusal = "unknown_invariant" // an invariant is unknown, under the closed policy
)

// Request is one check of a session: the messages its host reports since
// the last check and the call about to run.
type Request struct {
	// Grant, Task and Goal are fixed by a session's first request; a later
	// request may leave them "" or must repeat them.
	Grant, Task, Goal string
	// Offset, when not nil, is the number of messages the host has
	// reported before Messages: it must equal the session's history
	// length, so that a host whose session was evicted, deleted or
	// restarted learns it (a MismatchError) instead of being checked on a
	// history with a hole.
	Offset *int
	// Messages are JSON objects in OpenAI chat shape. They may end with
	// the assistant message requesting Call: a call of the history that
	// no result answers and has Call's id is Call, checked in place, not
	// counted twice (its tool and arguments must be Call's). A Call
	// without an id is appended, unless the history's last message
	// requests calls no result answers (it may be one of them: refused,
	// CallIDRequired).
	Messages [][]byte
	Call     authorize.Call
	// Unread, when not nil, says why the host's call could not be read
	// (Call is then empty): the check fails with it, after the session's
	// grant and offset are checked, and counts it (Outcome.Seq), as it
	// counts a call that cannot be decided (an *authorize.CallError), so
	// that the failure has a seq of its own in the decision log.
	Unread error
}

// Outcome is the answer to one check.
type Outcome struct {
	Allowed  bool
	Refusal  Refusal
	Decision authorize.Decision
	// Invariants are the results that matter to the answer: every
	// invariant violated or unknown with the pending call, by name.
	Invariants []Result
	Grant      string
	Bundle     string
	Contract   string
	Seq        int // the session's checks, from 1
	History    int // the session's messages after this request
	OnUnknown  OnUnknown
	// Instance numbers the session among the sessions its Table created,
	// from 1: a session id used again (after Delete or eviction) is
	// another instance.
	Instance int
	// InHistory is true when the pending call was the history's own
	// unanswered call of its id, checked in place rather than appended.
	InHistory bool
}

// Session is one agent run's state.
type Session struct {
	id   string
	n    int // its Table's count of sessions created, this one included
	eng  *Engine
	busy atomic.Int32 // checks holding or waiting for mu: not evicted meanwhile
	last atomic.Int64 // unix nanoseconds of the last use

	mu         sync.Mutex
	deleted    bool   // by Table.Delete
	dropped    bool   // its first request failed: removed from the table
	broken     string // why it is unusable ("": it is not): see Table.Break
	grant      string
	task, goal string
	msgs       [][]byte
	size       int // bytes of msgs
	seq        int
	rn         *run.Run // msgs decoded
	checker    Checker
}

// Engine is the bundle the session is checked with.
func (s *Session) Engine() *Engine { return s.eng }

// final folds a decision and invariant results into an answer.
func final(d authorize.Decision, results []Result, pol OnUnknown) (bool, Refusal, []Result) {
	var kept []Result
	refusal := Refusal("")
	if !d.Allowed {
		refusal = ByAuthorization
	}
	unknown := false
	for _, r := range results {
		switch r.Status {
		case Violated:
			kept = append(kept, r)
			if !r.Before && refusal == "" {
				refusal = ByInvariant
			}
		case Unknown:
			kept = append(kept, r)
			unknown = true
		case Held:
		default:
			// A status the checker should not give is not taken for held.
			r.Reason = strings.TrimSpace(r.Reason + " (status " + string(r.Status) + " read as unknown)")
			r.Status = Unknown
			kept = append(kept, r)
			unknown = true
		}
	}
	if refusal == "" && unknown && pol == Closed {
		refusal = ByUnknown
	}
	return refusal == "", refusal, kept
}

// Now is the time source of a Table (time.Now in production).
type Now func() time.Time
