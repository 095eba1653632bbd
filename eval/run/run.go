// Package run defines a run: one agent transcript normalised into events and
// tool calls, the shape every transcript format is read into and every
// criterion is evaluated over (docs/language.md, docs/runs-format.md).
//
// The types here are plain data; eval turns them into CEL values.
package run

import "fmt"

// Origin says where a run came from: the transcript file and the 1-based line
// of its record (for JSONL; 1 for a whole-file JSON transcript).
type Origin struct {
	File string
	Line int
}

// Run is one transcript.
type Run struct {
	Origin Origin
	// Record is the raw record as decoded from JSON (objects are
	// map[string]any, numbers float64); source expressions see it as `record`.
	Record map[string]any
	// Meta is the record's metadata object (`metadata` in openai-messages
	// records), or an empty map; criteria and source expressions see it as `meta`.
	Meta   map[string]any
	Events []*Event
	// Calls lists every tool call in order of request (nested calls included).
	Calls []*Call
	// Output is the final answer: the text of the last event when it is an
	// assistant message with non-empty text, else "". Earlier assistant text
	// does not count.
	Output string
	// Pre and Post are state snapshots when the transcript has them, else nil.
	Pre, Post any
}

// Event is one message of a transcript. Its CEL type is tenet.Event.
type Event struct {
	Index   int    // position in Run.Events, from 0
	Role    string // lower case: system, user, assistant or tool (a message carrying results is "tool"; other roles are kept, lower-cased)
	Content string // the content normalised to text: a string as is, null as "", content blocks joined
	// Blocks holds the raw content blocks when content was a list, else nil.
	Blocks []any
	// Calls are the indexes in Run.Calls of the calls this (assistant) message requested.
	Calls []int
	// CallID, Tool, Error and Failed describe the result a message carries
	// (a tool or function message, or a message with exactly one
	// tool_result content block); they are empty for other messages.
	CallID string // the id of the call this result answers ("" when absent)
	Tool   string // the tool that ran
	Error  string // the error text ("" when the call succeeded)
	// Failed is true when the result reports an error.
	Failed bool
	// FailedUnknown, when not "", says why it is unknown whether the
	// result reports an error (an "error" of 0, {} or []): Failed is then
	// false but means nothing, and criteria reading failed get an error.
	FailedUnknown string
}

// Call is one tool call. Its CEL type is tenet.Call.
type Call struct {
	Index     int    // position in Run.Calls, from 0
	Event     int    // index of the event that requested it, or of its result when no request was seen
	ID        string // the call id as given ("" when absent)
	Tool      string // the tool name; a result's own record of the call wins over the request
	Operation string // from the contract's registry; "" for an unregistered tool (set by eval)
	// Args are the arguments as the model sent them, decoded from JSON. When
	// they were a JSON string that does not parse, Args is empty and ArgsError
	// says why. A call nested at the deepest level followed that still
	// carries calls keeps its Args, and ArgsError says so.
	Args      map[string]any
	ArgsError string
	// Ok is true when a result came back and it carried no error: the call ran.
	Ok          bool
	Result      string // the result event's content ("" when none came back)
	Error       string // the result's error text ("" when none)
	ResultEvent int    // index of the result event, or -1 when none came back
	Depth       int    // 0 for a top-level call, 1 + the parent's depth for a nested one
	Parent      int    // index of the parent call, or -1
	// OkUnknown, when not "", says why it is unknown whether the call ran
	// (a call dispatched by a wrapper whose result reports an error): Ok
	// is then false but means nothing, and criteria reading ok get an
	// error, so that unknown is never read as "did not run".
	OkUnknown string
	// RequestedTool and RequestedArgs are the call as requested when the
	// result's own record of what ran replaced Tool or Args (they are ""
	// and nil otherwise: the request is Tool and Args).
	RequestedTool string
	RequestedArgs map[string]any
	// Mismatch says how the result disagrees with the request — another
	// tool or other arguments ran, or the result's id is not the call's —
	// or is "" when they agree.
	Mismatch string
}

// MaxNestedDepth bounds how deep readers follow calls nested in a call's
// arguments. A call at this depth that still carries calls gets ArgsError
// NestedTooDeep, so that the audit does not pass over the calls it hides.
const MaxNestedDepth = 16

// NestedTooDeep is the ArgsError of a call at the deepest followed level
// that still carries calls; the audit refuses such a call whatever its
// tool's schema, since the calls it hides are not audited.
const NestedTooDeep = "nested calls deeper than 16 levels are not followed"

// Consistent checks the indexes a run's readers keep, so that a run built
// elsewhere (a session's history) cannot send judging out of range: each
// event's and call's Index is its position, an event's Calls, a call's
// Event and ResultEvent are in range, and a call's Parent is an earlier
// call or -1.
func (r *Run) Consistent() error {
	for i, e := range r.Events {
		if e == nil || e.Index != i {
			return fmt.Errorf("event %d: its index is not its position in the run's events", i)
		}
		for _, ci := range e.Calls {
			if ci < 0 || ci >= len(r.Calls) {
				return fmt.Errorf("event %d requests call %d, and the run has %d calls", i, ci, len(r.Calls))
			}
		}
	}
	for i, c := range r.Calls {
		switch {
		case c == nil || c.Index != i:
			return fmt.Errorf("call %d: its index is not its position in the run's calls", i)
		case c.Event < 0 || c.Event >= len(r.Events):
			return fmt.Errorf("call %d: event %d is not an event of the run", i, c.Event)
		case c.ResultEvent < -1 || c.ResultEvent >= len(r.Events):
			return fmt.Errorf("call %d: result event %d is not an event of the run", i, c.ResultEvent)
		case c.Parent < -1 || c.Parent >= i:
			return fmt.Errorf("call %d: parent %d is not an earlier call", i, c.Parent)
		}
	}
	return nil
}

// Without returns the run as it was before call c was requested: c and
// the calls nested in it removed, the later calls renumbered (their Index
// and Parent, and the events' Calls that name them). r is not changed; the
// events and calls that keep their numbers are shared with it. r must be
// Consistent and c one of its calls.
func (r *Run) Without(c int) *Run {
	drop := make([]bool, len(r.Calls))
	drop[c] = true
	for i := c + 1; i < len(r.Calls); i++ {
		if p := r.Calls[i].Parent; p >= 0 && drop[p] {
			drop[i] = true
		}
	}
	idx := make([]int, len(r.Calls)) // old index → new, -1 when dropped
	n := 0
	for i := range r.Calls {
		idx[i] = -1
		if !drop[i] {
			idx[i] = n
			n++
		}
	}
	out := *r
	out.Calls = make([]*Call, 0, n)
	for i, cl := range r.Calls {
		if drop[i] {
			continue
		}
		parent := cl.Parent
		if parent >= 0 {
			parent = idx[parent]
		}
		if idx[i] != i || parent != cl.Parent {
			cp := *cl
			cp.Index, cp.Parent = idx[i], parent
			cl = &cp
		}
		out.Calls = append(out.Calls, cl)
	}
	out.Events = append([]*Event(nil), r.Events...)
	for k, e := range r.Events {
		changed := false
		for _, ci := range e.Calls {
			changed = changed || idx[ci] != ci
		}
		if !changed {
			continue
		}
		ce := *e
		ce.Calls = nil
		for _, ci := range e.Calls {
			if idx[ci] >= 0 {
				ce.Calls = append(ce.Calls, idx[ci])
			}
		}
		out.Events[k] = &ce
	}
	return &out
}
