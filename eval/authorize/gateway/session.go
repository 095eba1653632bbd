package gateway

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/mcp"
)

// OnUnknown is what the session check does with a call on which an
// invariant can be decided neither way (a guard or assert that fails at
// run time, a criterion reading a task the session did not name, a cost
// limit): refuse it (UnknownClosed) or allow it (UnknownOpen). Either way
// the unknown is logged. It is a flag value (Set, Type).
type OnUnknown string

// The on-unknown policies.
const (
	UnknownClosed OnUnknown = "closed" // refuse the call (the default)
	UnknownOpen   OnUnknown = "open"   // allow it
)

func (o OnUnknown) String() string { return string(o) }

// Set reads a policy's name.
func (o *OnUnknown) Set(s string) error {
	switch OnUnknown(s) {
	case UnknownClosed, UnknownOpen:
		*o = OnUnknown(s)
		return nil
	}
	return fmt.Errorf("%q: want closed (refuse a call an invariant is unknown on) or open (allow it)", s)
}

// Type names the values, for a flag's help.
func (o *OnUnknown) Type() string { return "closed|open" }

// The decision log's words for an invariant a check reports.
const (
	statusViolated = "violated"
	statusUnknown  = "unknown"
)

// inFlight is the OkUnknown of a call the gateway relayed whose answer
// has not come back: it may be running, so whether it ran is not known
// yet, and an invariant that reads it (call.ok) is unknown rather than
// told "did not run".
const inFlight = "the call was relayed to the MCP server and its answer has not come back yet: whether it ran is not known"

// SessionDecider decides each call of one MCP session by the grant first
// and then, for a call the grant allows, by the contract's invariants on
// the session so far with the call pending (eval.Live): a call that would
// newly violate an invariant is refused, and one on which an invariant is
// unknown is refused or allowed by its OnUnknown policy.
//
// The session is the run the gateway relayed, in relay order: each
// allowed call an assistant message requesting it (with the calls nested
// in its arguments, as authorize.WithPending finds them), and each answer
// of the server a tool message carrying its result (Observe). A call the
// server has not answered yet is requested without a result, its ok
// unknown (inFlight); several may be in flight and answered in any order.
// A refused call never ran: it is not in the session.
//
// Decide and Observe run on different goroutines (the client's and the
// server's); a mutex orders them. One SessionDecider is one session.
//
// A call Decide allowed enters the session then, before the gateway
// writes its log line and forwards it: a call the gateway refuses after
// all (its log cannot be written, the server has exited) stays in flight
// in the session. Both refuse every later call too, so no later decision
// reads it.
type SessionDecider struct {
	grant  Decider
	live   *eval.Live
	policy OnUnknown

	mu       sync.Mutex
	hist     run.Run
	inflight []flight
}

// flight is a relayed call awaiting its answer: the call as decided, and
// its calls in the history (the call at index, then its nested calls).
type flight struct {
	call     authorize.Call
	index, n int
}

// NewSessionDecider wraps grant (a GrantDecider, say) with live, the
// session's invariant check (eval.Program.NewLive), under policy.
func NewSessionDecider(grant Decider, live *eval.Live, policy OnUnknown) (*SessionDecider, error) {
	if err := new(OnUnknown).Set(string(policy)); err != nil {
		return nil, fmt.Errorf("on-unknown policy %w", err)
	}
	return &SessionDecider{grant: grant, live: live, policy: policy,
		hist: run.Run{Record: map[string]any{}, Meta: map[string]any{}}}, nil
}

// Decide implements Decider: the grant's verdict when it refuses the
// call, else the invariants' on the session with the call pending.
func (s *SessionDecider) Decide(c authorize.Call) Verdict {
	v := s.grant.Decide(c)
	if v.Err != nil || !v.Allowed {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rn, pending, err := authorize.WithPending(&s.hist, c)
	if err == nil {
		var res eval.LiveResult
		if res, err = s.live.Check(rn, pending); err == nil {
			v = s.verdict(v, res, rn, pending)
		}
	}
	if err != nil {
		v.Allowed, v.Err = false, fmt.Errorf("the session check: %w", err)
		return v
	}
	if !v.Allowed {
		return v // a refused call never ran: the history stays as it was
	}
	// The call is relayed: the history is now the run with it in flight.
	calls, err := derive(*rn.Calls[pending], pending, nil)
	if err != nil {
		v.Allowed, v.Err = false, fmt.Errorf("the session check: %w", err)
		return v
	}
	s.hist = *rn
	s.hist.Calls = append(rn.Calls[:pending], calls...)
	s.inflight = append(s.inflight, flight{call: c, index: pending, n: len(calls)})
	return v
}

// verdict adds the invariants' findings on rn, whose call pending is the
// one decided, to the grant's verdict v.
func (s *SessionDecider) verdict(v Verdict, res eval.LiveResult, rn *run.Run, pending int) Verdict {
	v.OnUnknown = string(s.policy)
	for _, ic := range res.Invariants {
		if ic.Label.Known && ic.Label.Value {
			continue
		}
		// A violation the history already shows is not the call's doing:
		// logged, never a reason to refuse, unless the call makes a match
		// of its own (Again).
		before := ic.History.Known && !ic.History.Value && !ic.Again
		inv := decisionlog.Invariant{Name: ic.Name, Severity: ic.Severity, Before: before}
		if ic.Label.Known {
			inv.Status, inv.Witness = statusViolated, ic.Witness
			if !before {
				v.Allowed = false
			}
		} else {
			inv.Status, inv.Reason = statusUnknown, ic.Label.Reason
			if !before && s.policy == UnknownClosed {
				v.Allowed = false
			}
		}
		v.Invariants = append(v.Invariants, inv)
	}
	if !v.Allowed {
		v.Message = invariantRefusal(v.Invariants, v.OnUnknown, func(item string) string { return describeItem(rn, pending, item) })
	}
	return v
}

// describeItem names a witness's item ("call:N", "event:N" of rn) for the
// client, who knows its calls by their request ids, not by their place in
// the session.
func describeItem(rn *run.Run, pending int, item string) string {
	var n int
	switch {
	case scanItem(item, "call:%d", &n) && n < len(rn.Calls):
		c := rn.Calls[n]
		switch {
		case n == pending:
			return fmt.Sprintf("%s (%s, this call)", item, clip(c.Tool, 80))
		case c.Parent >= 0:
			return fmt.Sprintf("%s (%s, nested in call:%d)", item, clip(c.Tool, 80), c.Parent)
		}
		return fmt.Sprintf("%s (%s, request id %s)", item, clip(c.Tool, 80), clip(c.ID, 80))
	case scanItem(item, "event:%d", &n) && n < len(rn.Events):
		return fmt.Sprintf("%s (%s message)", item, rn.Events[n].Role)
	}
	return item
}

// scanItem reads an item reference of format into n.
func scanItem(item, format string, n *int) bool {
	_, err := fmt.Sscanf(item, format, n)
	return err == nil && *n >= 0
}

// Observe implements ResultObserver: the server's answer to call c
// becomes its result, a tool message at the end of the history.
func (s *SessionDecider) Observe(c authorize.Call, response json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.flightOf(c)
	if k < 0 {
		return // not a call this session relayed (cannot happen: the gateway observes only allowed calls)
	}
	f := s.inflight[k]
	s.inflight = append(s.inflight[:k], s.inflight[k+1:]...)
	out := readAnswer(response)
	ev := len(s.hist.Events)
	s.hist.Events = append(s.hist.Events, &run.Event{Index: ev, Role: "tool", Content: out.content, CallID: c.ID, Tool: c.Tool,
		Error: out.err, Failed: out.failed, FailedUnknown: out.unknown})
	calls, err := derive(*s.hist.Calls[f.index], f.index, &out)
	if err != nil || len(calls) != f.n {
		// derive found these calls once already (Decide): it cannot fail now.
		return
	}
	calls[0].ResultEvent = ev
	for _, nc := range calls[1:] {
		if nc.ResultEvent >= 0 { // a dispatched call shares its wrapper's result event
			nc.ResultEvent = ev
		}
	}
	copy(s.hist.Calls[f.index:], calls)
}

// flightOf is the index in s.inflight of call c: the one with c's id and
// the very arguments map the gateway decided (two ids the client wrote
// differently, 1 and "1", read alike), else the first with c's id.
func (s *SessionDecider) flightOf(c authorize.Call) int {
	first := -1
	for k, f := range s.inflight {
		if f.call.ID != c.ID || f.call.Tool != c.Tool {
			continue
		}
		if first < 0 {
			first = k
		}
		if reflect.ValueOf(f.call.Args).UnsafePointer() == reflect.ValueOf(c.Args).UnsafePointer() {
			return k
		}
	}
	return first
}

// answer is what the server's answer says of a call.
type answer struct {
	content, err string
	failed       bool
	unknown      string // why whether the call ran is unknown, or ""
}

// readAnswer reads a JSON-RPC response to a tools/call: a CallToolResult
// (its text as mcp.ResultText reads it, isError true a failure whose error is
// that text) or an error response (a failure: the call did not run as
// asked). An answer that is neither leaves whether the call ran unknown.
func readAnswer(response json.RawMessage) answer {
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(response, &r); err != nil {
		return answer{unknown: "the MCP server's answer cannot be read: " + err.Error()}
	}
	if r.Error != nil {
		return answer{failed: true, err: fmt.Sprintf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)}
	}
	var res struct {
		Content           []any           `json:"content"`
		StructuredContent any             `json:"structuredContent"`
		IsError           json.RawMessage `json:"isError"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return answer{unknown: "the MCP server's result is not a CallToolResult (an object with a content list): " + build.Clip(string(r.Result), 80)}
	}
	// Every part of the result a model could read, as the offline mcp
	// reader reads it: an instruction in an embedded resource or in
	// structuredContent is as much in the result as one in a text block.
	a := answer{content: mcp.ResultText(res.Content, res.StructuredContent)}
	switch string(res.IsError) {
	case "", "null", "false":
	case "true":
		a.failed, a.err = true, a.content
		if a.err == "" {
			a.err = "the tool reported an error (isError) with no text"
		}
	default:
		a.unknown = fmt.Sprintf("the result's isError is %s, not a boolean: whether the call failed is unknown", build.Clip(string(res.IsError), 80))
		a.err = string(res.IsError)
	}
	return a
}

// derive is top-level call top (history index base) with its outcome —
// in flight when out is nil, else the answer — and the calls nested in
// its arguments, found again by the transcript readers' rules so that the
// calls a dispatch wrapper makes share its outcome (build.AppendNested).
func derive(top run.Call, base int, out *answer) ([]*run.Call, error) {
	top.Index, top.Parent, top.Depth = 0, -1, 0
	top.Result, top.Error = "", ""
	if out == nil {
		// The wrapper's outcome is copied to its dispatched calls only
		// when it has a result event: a stand-in, reset below.
		top.Ok, top.OkUnknown, top.ResultEvent = false, inFlight, 0
	} else {
		top.Ok, top.OkUnknown = !out.failed && out.unknown == "", out.unknown
		top.Result, top.Error, top.ResultEvent = out.content, out.err, 0
	}
	rn := run.Run{Calls: []*run.Call{&top}}
	if msg := build.AppendNested(&rn, 0); msg != "" {
		return nil, &authorize.CallError{Msg: msg}
	}
	for _, c := range rn.Calls {
		c.Index += base
		if c.Parent >= 0 {
			c.Parent += base
		}
		if out == nil {
			c.ResultEvent = -1
		}
	}
	return rn.Calls, nil
}
