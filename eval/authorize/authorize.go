// Package authorize decides, before a tool call runs, whether a bundle's
// grant allows it: the same checks, in the same order and with the same
// words, as the offline authorization audit (eval/audit) makes of a
// recorded call — registered tool, then exact schema, then (operation,
// resource) capability, calls nested in the arguments decided first. A
// host asks it per call; tenet's server and MCP gateway ask it for theirs.
//
// It executes nothing and changes nothing it is given: a call is read, a
// grant is only read, and nothing in a call can extend the grant. An
// Authorizer is immutable once made, so it is safe for concurrent use.
package authorize

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/audit"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Authorizer answers authorization questions for one bundle.
type Authorizer struct {
	id     string
	b      *bundle.Bundle
	tools  map[string]*bundle.Tool
	grants map[string]*bundle.Grant
	// scratch pools the *scratch a decision is made in, so that a call is
	// decided without allocating its run (BenchmarkAuthorize).
	scratch sync.Pool
}

// New returns the Authorizer of bundle b, whose id ("sha256:…") every
// decision carries. b must not change afterwards.
func New(b *bundle.Bundle, id string) *Authorizer {
	a := &Authorizer{id: id, b: b, tools: map[string]*bundle.Tool{}, grants: map[string]*bundle.Grant{}}
	a.scratch.New = func() any { return new(scratch) }
	for i := range b.Decls.Tools {
		a.tools[b.Decls.Tools[i].Name] = &b.Decls.Tools[i]
	}
	for i := range b.Decls.Grants {
		a.grants[b.Decls.Grants[i].Name] = &b.Decls.Grants[i]
	}
	return a
}

// Bundle is the id of the bundle decisions are made with.
func (a *Authorizer) Bundle() string { return a.id }

// Contract is the bundle's contract name.
func (a *Authorizer) Contract() string { return a.b.Manifest.Contract }

// Grants are the bundle's grant names, sorted.
func (a *Authorizer) Grants() []string {
	out := make([]string, 0, len(a.grants))
	for n := range a.grants {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Tool returns the declared tool named name.
func (a *Authorizer) Tool(name string) (*bundle.Tool, bool) {
	t, ok := a.tools[name]
	return t, ok
}

// Call is one tool call as a host is about to make it.
type Call struct {
	ID   string // the call's id as given ("" when none)
	Tool string
	// Args are the decoded arguments; ArgsError, when not "", says why the
	// arguments as sent are not an object (the call then fails its schema).
	Args      map[string]any
	ArgsError string
}

// Capability is the (operation, resource) pair a call needs of the grant.
type Capability struct {
	Operation string `json:"operation"`
	// Param is the tool's resource argument ("" when the tool declares
	// none: the operation alone is needed).
	Param string `json:"param,omitempty"`
	// Resource is the resource the call names; nil when the tool declares no
	// resource argument or the call leaves it absent or null (then only a
	// "*" resource covers it).
	Resource *string `json:"resource,omitempty"`
}

// Decision is the answer for one call and, recursively, for the calls
// nested in its arguments.
type Decision struct {
	// Allowed is true when the call is authorized and so is every call
	// nested in it: a refused nested call refuses the call that carries it,
	// since a runtime may execute nested calls before it validates their
	// carrier.
	Allowed bool   `json:"allowed"`
	Tool    string `json:"tool"`
	ID      string `json:"id,omitempty"`
	// Decision is the call's own: runs.Authorized or the first layer it
	// fails (runs.UnregisteredTool, runs.SchemaFields, runs.SchemaTypes,
	// runs.MissingResourceCapability), as the offline audit words it.
	Decision string `json:"decision"`
	Detail   string `json:"detail,omitempty"`
	// Required is the capability the call needs; nil for an unregistered tool.
	Required *Capability `json:"required,omitempty"`
	// Nested are the calls found in the arguments, outermost first, each
	// decided on its own.
	Nested []Decision `json:"nested,omitempty"`
}

// UnknownGrantError is a grant the bundle does not declare.
type UnknownGrantError struct {
	Grant  string
	Grants []string
}

func (e *UnknownGrantError) Error() string {
	if len(e.Grants) == 0 {
		return fmt.Sprintf("grant %q: the bundle declares no grant (add a grant block to the contract)", e.Grant)
	}
	return fmt.Sprintf("grant %q is not declared (the bundle's grants: %s)", e.Grant, strings.Join(e.Grants, ", "))
}

// CallError is a call whose arguments hold a call shape that cannot be
// read (a tool_use object without a name): it is neither allowed nor
// decided, as the offline reader refuses such a record.
type CallError struct{ Msg string }

func (e *CallError) Error() string { return "call not decided: " + e.Msg }

// Authorize decides call c under the bundle's grant named grant.
func (a *Authorizer) Authorize(c Call, grant string) (Decision, error) {
	g, ok := a.grants[grant]
	if !ok {
		return Decision{}, &UnknownGrantError{Grant: grant, Grants: a.Grants()}
	}
	s := a.scratch.Get().(*scratch)
	defer a.put(s)
	rn, err := s.callRun(c)
	if err != nil {
		return Decision{}, err
	}
	return a.decide(rn, g, s), nil
}

// scratch is what deciding one call needs besides the decision: the run
// CallRun would make and the buffers decide folds the audit with. One is
// used by one decision at a time (Authorizer.scratch) and holds nothing of
// it afterwards (put).
type scratch struct {
	rn       run.Run
	event    run.Event
	events   [1]*run.Event
	call     run.Call
	calls    []*run.Call
	callIdx  [1]int
	entries  []runs.AuditEntry
	byCall   []*runs.AuditEntry
	children [][]int
}

// callRun is CallRun made in s.
func (s *scratch) callRun(c Call) (*run.Run, error) {
	s.event = run.Event{Index: 0, Role: "assistant", Calls: s.callIdx[:]}
	s.events[0] = &s.event
	s.call = run.Call{Index: 0, ID: c.ID, Tool: c.Tool, Args: c.Args, ArgsError: c.ArgsError, Parent: -1, ResultEvent: -1}
	if s.call.Args == nil {
		s.call.Args = map[string]any{}
	}
	s.calls = append(s.calls[:0], &s.call)
	s.rn = run.Run{Events: s.events[:], Calls: s.calls}
	// AppendNested is build.Finish for a run of one call (Finish's other
	// step concerns several calls of one message sharing an id).
	if msg := build.AppendNested(&s.rn, 0); msg != "" {
		return nil, &CallError{Msg: msg}
	}
	s.calls = s.rn.Calls // grown by the nested calls, kept for the next call
	return &s.rn, nil
}

// put clears what s holds of a call (its arguments, nested calls, audit
// entries) and returns s to a's pool.
func (a *Authorizer) put(s *scratch) {
	clear(s.calls)
	s.calls = s.calls[:0]
	s.call, s.rn = run.Call{}, run.Run{}
	clear(s.entries)
	s.entries = s.entries[:0]
	clear(s.byCall) // pointers into entries; children are indexes only
	a.scratch.Put(s)
}

// CallRun is the run a host's pending call is decided in: one assistant
// message requesting c, and the calls nested in c's arguments, found as a
// transcript reader finds them (eval/transcript/build), so that a call
// and its recorded twin are the same calls to the audit. c.Args is not
// copied: it is only read.
func CallRun(c Call) (*run.Run, error) {
	rn := &run.Run{
		Events: []*run.Event{{Index: 0, Role: "assistant", Calls: []int{0}}},
		Calls:  []*run.Call{{Index: 0, ID: c.ID, Tool: c.Tool, Args: c.Args, ArgsError: c.ArgsError, Parent: -1, ResultEvent: -1}},
	}
	if rn.Calls[0].Args == nil {
		rn.Calls[0].Args = map[string]any{}
	}
	if msg := build.Finish(rn); msg != "" {
		return nil, &CallError{Msg: msg}
	}
	return rn, nil
}

// decide audits every call of rn (nested calls first) and folds the
// entries into the decision tree of call 0. s, when not nil, lends the
// buffers.
func (a *Authorizer) decide(rn *run.Run, g *bundle.Grant, s *scratch) Decision {
	if s == nil {
		s = new(scratch)
	}
	s.entries = audit.AppendCalls(s.entries[:0], rn, g, a.tools)
	entries := s.entries
	if len(rn.Calls) == 1 {
		// A call that carries none: its one entry is the decision.
		return a.node(rn.Calls[0], &entries[0])
	}
	s.byCall = grow(s.byCall, len(rn.Calls))
	for i := range entries {
		s.byCall[entries[i].Call] = &entries[i]
	}
	s.children = grow(s.children, len(rn.Calls))
	for _, c := range rn.Calls {
		if c.Parent >= 0 {
			s.children[c.Parent] = append(s.children[c.Parent], c.Index)
		}
	}
	var tree func(i int) Decision
	tree = func(i int) Decision {
		d := a.node(rn.Calls[i], s.byCall[i])
		for _, ch := range s.children[i] {
			n := tree(ch)
			d.Allowed = d.Allowed && n.Allowed
			d.Nested = append(d.Nested, n)
		}
		return d
	}
	return tree(0)
}

// node is the decision of call c alone, whose audit entry is e.
func (a *Authorizer) node(c *run.Call, e *runs.AuditEntry) Decision {
	d := Decision{Tool: c.Tool, ID: c.ID, Decision: e.Decision, Detail: e.Detail}
	d.Allowed = e.Decision == runs.Authorized
	if t, ok := a.tools[c.Tool]; ok {
		d.Required = required(t, c.Args)
	}
	return d
}

// grow returns buf with length n, its elements zero, reusing its array
// when large enough.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// required is the capability a call of t with args needs.
func required(t *bundle.Tool, args map[string]any) *Capability {
	// The capability and its resource text in one allocation.
	c := &struct {
		Capability
		resource string
	}{Capability: Capability{Operation: t.Operation, Param: t.Resource}}
	if r, named := audit.Resource(t, args); named {
		c.resource = r
		c.Resource = &c.resource
	}
	return &c.Capability
}

// Entries flattens a decision into the offline audit's entries, in audit
// order (nested calls before their carrier), numbering calls as CallRun
// does: what a recorded twin of the call would get in a runs file.
func (d Decision) Entries() []runs.AuditEntry {
	var out []runs.AuditEntry
	next := 0
	var walk func(d *Decision, parent, depth int) int
	// Calls are numbered as build.Finish appends them: breadth-first.
	type queued struct {
		d             *Decision
		parent, depth int
	}
	index := map[*Decision]int{}
	queue := []queued{{&d, -1, 0}}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		index[q.d] = next
		next++
		for i := range q.d.Nested {
			queue = append(queue, queued{&q.d.Nested[i], index[q.d], q.depth + 1})
		}
	}
	walk = func(d *Decision, parent, depth int) int {
		i := index[d]
		for j := range d.Nested {
			walk(&d.Nested[j], i, depth+1)
		}
		out = append(out, runs.AuditEntry{Call: i, Tool: d.Tool, Decision: d.Decision, Detail: d.Detail, Parent: parent, Hazard: depth > 0})
		return i
	}
	walk(&d, -1, 0)
	return out
}

// WithPending returns history with c appended as a pending call: a new
// assistant message requesting it, and the calls nested in its
// arguments. It returns the pending call's index in the run's calls.
// history is not changed: its event and call lists are copied (the events
// and calls themselves are shared, read only).
//
// The pending call is the call as it would be once run: ok, with no
// result yet (ResultEvent -1, Result ""). The question a host asks is
// whether running the call would violate an invariant, and invariants
// name the harm a call does by its having run (`call.ok`); a pending
// call that read as "did not run" could never violate one. A guard that
// reads the pending call's result sees "".
func WithPending(history *run.Run, c Call) (*run.Run, int, error) {
	rn := *history
	rn.Events = append(make([]*run.Event, 0, len(history.Events)+1), history.Events...)
	rn.Calls = append(make([]*run.Call, 0, len(history.Calls)+1), history.Calls...)
	i := len(rn.Calls)
	args := c.Args
	if args == nil {
		args = map[string]any{}
	}
	ev := len(rn.Events)
	rn.Events = append(rn.Events, &run.Event{Index: ev, Role: "assistant", Calls: []int{i}})
	rn.Calls = append(rn.Calls, &run.Call{Index: i, Event: ev, ID: c.ID, Tool: c.Tool, Args: args, ArgsError: c.ArgsError, Parent: -1, ResultEvent: -1, Ok: true})
	if msg := build.AppendNested(&rn, i); msg != "" {
		return nil, 0, &CallError{Msg: msg}
	}
	return &rn, i, nil
}

// AuthorizeIn decides the pending call at index pending of rn (a run from
// WithPending) under grant: the same decision Authorize gives the call
// alone, since nested calls are found in its arguments only.
func (a *Authorizer) AuthorizeIn(rn *run.Run, pending int, grant string) (Decision, error) {
	g, ok := a.grants[grant]
	if !ok {
		return Decision{}, &UnknownGrantError{Grant: grant, Grants: a.Grants()}
	}
	sub := &run.Run{Events: []*run.Event{{Index: 0, Role: "assistant", Calls: []int{0}}}}
	// The pending call and its nested calls, renumbered from 0 as CallRun numbers them.
	renum := map[int]int{}
	for _, c := range rn.Calls[pending:] {
		if c.Index != pending && (c.Parent < pending) {
			continue
		}
		cc := *c
		cc.Index, cc.Event = len(sub.Calls), 0
		if p, ok := renum[c.Parent]; ok {
			cc.Parent = p
		} else {
			cc.Parent = -1
		}
		renum[c.Index] = cc.Index
		sub.Calls = append(sub.Calls, &cc)
	}
	return a.decide(sub, g, nil), nil
}
