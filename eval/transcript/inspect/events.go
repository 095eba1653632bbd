package inspect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Meta "calls_from" values: where the run's calls were read from.
const (
	callsFromMessages = "messages"
	callsFromEvents   = "messages and events"
)

// toolEvent is one Inspect ToolEvent of sample.events, in the order the
// transcript recorded it (a tool event is written when the call starts).
type toolEvent struct {
	path    string // "events[3]" or, nested in an older log, "events[3].events[0]"
	id, fn  string
	args    map[string]any
	argsErr string
	span    string // span_id: the span the event occurred within
	outer   int    // index of the tool event it ran within, or -1
	content string
	blocks  []any
	failed  bool
	err     string
	pending string // why no result was recorded, or ""
	call    int    // the matched message call's index in Run.Calls, or -1
	anchor  int    // the event after which an unmatched call is placed
}

// toolEventKeys are the members of Inspect's ToolEvent (and BaseEvent)
// the reader knows; the rest is searched for calls.
var toolEventKeys = map[string]bool{
	"event": true, "type": true, "id": true, "function": true, "arguments": true,
	"view": true, "result": true, "truncated": true, "error": true, "events": true,
	"completed": true, "working_time": true, "agent": true, "agent_span_id": true,
	"failed": true, "message_id": true, "uuid": true, "span_id": true,
	"timestamp": true, "working_start": true, "pending": true,
	"internal": true,
}

// ignoredEvents are Inspect's event types that record no tool call that
// ran: the model's requests (model), the sandbox's own commands (sandbox),
// scoring, state, logging and flow markers. A subtask's or a tool's
// deprecated nested "events" are read (older logs kept sub-events there).
var ignoredEvents = map[string]bool{
	"sample_init": true, "sample_limit": true, "sandbox": true, "state": true,
	"store": true, "model": true, "approval": true, "input": true, "score": true,
	"score_edit": true, "error": true, "logger": true, "info": true, "step": true,
	"span_begin": true, "span_end": true, "compaction": true, "checkpoint": true,
	"anchor": true, "branch": true, "interrupt": true, "pool": true, "timeline": true,
	"subtask": true,
}

// eventReader collects the tool events and spans of sample.events.
type eventReader struct {
	res   *resolver
	tools []*toolEvent
	spans map[string]span // span_begin events by id
}

type span struct{ parent, typ string }

// read walks a list of events; outer is the tool event whose deprecated
// nested "events" list this is, or -1.
func (r *eventReader) read(list []any, prefix string, outer int) string {
	for i, raw := range list {
		at := fmt.Sprintf("%s[%d]", prefix, i)
		e, ok := raw.(map[string]any)
		if !ok {
			return at + ": want an object, got " + build.Kind(raw)
		}
		typ, ok := e["event"].(string)
		if !ok {
			return at + ".event: want a string (the event type), got " + build.KindOrMissing(e, "event")
		}
		switch {
		case typ == "tool":
			if err := r.tool(e, at, outer); err != "" {
				return err
			}
		case typ == "span_begin":
			id, _ := e["id"].(string)
			if id == "" {
				return at + ".id: want the span's id, a non-empty string, got " + build.KindOrMissing(e, "id")
			}
			parent, _ := e["parent_id"].(string)
			t, _ := e["type"].(string)
			if r.spans == nil {
				r.spans = map[string]span{}
			}
			r.spans[id] = span{parent: parent, typ: t}
		case ignoredEvents[typ]:
			if typ == "subtask" {
				// Older logs: the subtask's events, ran within no call.
				sub, err := eventList(e, at)
				if err != "" {
					return err
				}
				if err := r.read(sub, at+".events", outer); err != "" {
					return err
				}
			}
		case build.NamesCall(typ):
			return fmt.Sprintf("%s: event of type %q, which this reader does not read as a call: Inspect's calls that ran are tool events", at, build.Clip(typ, 100))
		}
	}
	return ""
}

// tool reads one ToolEvent.
func (r *eventReader) tool(e map[string]any, at string, outer int) string {
	for _, k := range []string{"arguments", "result", "error"} {
		if v, ok := e[k]; ok {
			if e[k] = r.res.resolve(v); r.res.err != "" {
				return at + "." + k + ": " + r.res.err
			}
		}
	}
	t := &toolEvent{path: at, outer: outer, call: -1}
	var ok bool
	if t.id, ok = e["id"].(string); !ok {
		return at + ".id: want a string, got " + build.KindOrMissing(e, "id")
	}
	if t.fn, ok = e["function"].(string); !ok || t.fn == "" {
		return at + ".function: want the tool's name, got " + build.KindOrMissing(e, "function")
	}
	t.args, t.argsErr = build.ParseArgs("arguments", e["arguments"])
	span, err := build.OptString(e, "span_id")
	if err != "" {
		return at + "." + err
	}
	t.span = span
	switch c := e["result"].(type) {
	case nil:
	case string:
		t.content = c
	case []any:
		t.blocks, t.content = c, build.BlockText(c)
	case map[string]any: // one content object
		t.blocks = []any{c}
		t.content = build.BlockText(t.blocks)
	default: // a number or a boolean, which Inspect turns into its text
		b, _ := json.Marshal(c) // cannot fail: c was decoded from JSON
		t.content = string(b)
	}
	if t.blocks != nil {
		// A tool's result holds text, images, audio, video or documents,
		// never a call: a tool_use object there would be a call unread.
		calls, err := contentBlocks(t.blocks)
		if err == "" && len(calls) > 0 {
			err = "content of type \"tool_use\" in a tool's result, which this reader does not read as a call"
		}
		if err != "" {
			return at + ".result: " + err
		}
	}
	switch x := e["error"].(type) {
	case nil:
	case map[string]any:
		typ, _ := x["type"].(string)
		text, _ := x["message"].(string)
		switch {
		case text != "":
			t.err = text
		case typ != "":
			t.err = typ
		default:
			return at + ".error: want {type, message} with a string type or message, got " + build.Clip(fmt.Sprint(x), 100)
		}
		t.failed = true
	default:
		return at + ".error: want an object {type, message} or null, got " + build.Kind(x)
	}
	switch f := e["failed"].(type) {
	case nil:
	case bool:
		if f && !t.failed {
			t.failed, t.err = true, "the tool call failed with a hard error"
		}
	default:
		return at + ".failed: want a boolean or null, got " + build.Kind(f)
	}
	if p, _ := e["pending"].(bool); p {
		t.pending = "the tool event is pending: the log was written before the call finished"
	}
	if err := build.ScanRest(e, toolEventKeys, at); err != "" {
		return err
	}
	r.tools = append(r.tools, t)
	self := len(r.tools) - 1
	// Older logs nest the events a call made (a handoff's agent) inside
	// its tool event.
	sub, err := eventList(e, at)
	if err != "" {
		return err
	}
	return r.read(sub, at+".events", self)
}

// eventList reads the deprecated nested "events" of a tool or subtask
// event: a list, or absent or null.
func eventList(e map[string]any, at string) ([]any, string) {
	switch sub := e["events"].(type) {
	case nil:
		return nil, ""
	case []any:
		return sub, ""
	default:
		return nil, at + ".events: want a list, got " + build.Kind(sub)
	}
}

// outerBySpan finds, for each tool event with no outer call yet, the
// tool event it ran within: the first span above its own tool span that
// is the "tool" span of exactly one earlier tool event (Inspect runs
// every call, a handoff's agent included, inside a span of type "tool"
// of its own).
func (r *eventReader) outerBySpan() {
	owner := map[string]int{} // tool span id → tool event, -2 when shared
	for i, t := range r.tools {
		if t.span == "" || r.spans[t.span].typ != "tool" {
			continue
		}
		if _, dup := owner[t.span]; dup {
			owner[t.span] = -2
		} else {
			owner[t.span] = i
		}
	}
	// nearest[s] is the tool event owning the first span at or above s
	// (-1: none, -2: shared), each span walked once whatever the number
	// of tool events under it, so that a long chain of spans costs linear
	// time; a cycle of parent ids ends a walk with none.
	nearest := map[string]int{}
	above := func(s string) int {
		var path []string
		onPath := map[string]bool{}
		res := -1
		for s != "" {
			if o, ok := nearest[s]; ok {
				res = o
				break
			}
			if o, ok := owner[s]; ok {
				res = o
				break
			}
			if onPath[s] {
				break
			}
			onPath[s] = true
			path = append(path, s)
			s = r.spans[s].parent
		}
		for _, p := range path {
			nearest[p] = res
		}
		return res
	}
	for i, t := range r.tools {
		if t.outer >= 0 || t.span == "" {
			continue
		}
		s := t.span
		if r.spans[s].typ == "tool" {
			s = r.spans[s].parent
		}
		if o := above(s); o >= 0 && o < i {
			t.outer = o
		}
	}
}

// addEventCalls reads sample.events (ev) into rn, which holds the calls
// of the messages: every tool event whose id is a message call's is that
// call (refused when they disagree); every other tool event is a call the
// messages do not show (a handed-off agent's calls, which Inspect's
// content_only filter writes into the messages as text), added as a call
// answered by a tool event of its own. The package doc says where each
// is placed.
func addEventCalls(rn *run.Run, ev any, res *resolver) string {
	list, ok := ev.([]any)
	if !ok {
		return "events: want a list, got " + build.Kind(ev)
	}
	r := eventReader{res: res}
	if err := r.read(list, "events", -1); err != "" {
		return err
	}
	r.outerBySpan()
	// Pair the events with the message calls of their id, in order.
	byID := map[string][]int{}
	for _, c := range rn.Calls {
		if c.ID != "" {
			byID[c.ID] = append(byID[c.ID], c.Index)
		}
	}
	// requested[i]: a message requested call i (else it was made from
	// its result alone).
	requested := make([]bool, len(rn.Calls))
	for _, ev := range rn.Events {
		for _, ci := range ev.Calls {
			requested[ci] = true
		}
	}
	seen := map[string]int{}
	for _, t := range r.tools {
		calls, ok := byID[t.id]
		if !ok {
			continue
		}
		k := seen[t.id]
		seen[t.id]++
		if k >= len(calls) {
			return fmt.Sprintf("%s: tool event %d of id %q, but the messages hold %d call(s) of that id: which call it is cannot be told", t.path, k+1, build.Clip(t.id, 100), len(calls))
		}
		c := rn.Calls[calls[k]]
		if !requested[c.Index] {
			// A call known only from its tool message (no request in
			// the messages): the tool event is its request.
			if c.Tool == "" {
				build.ToolNamed(c, t.fn)
			}
			if len(c.Args) == 0 && c.ArgsError == "" {
				c.Args, c.ArgsError = t.args, t.argsErr
			}
		}
		fn, args, argsErr := c.Tool, c.Args, c.ArgsError
		if c.RequestedTool != "" {
			fn = c.RequestedTool
		}
		if c.RequestedArgs != nil {
			args = c.RequestedArgs
		}
		if fn != t.fn {
			return fmt.Sprintf("%s: call %q is %q in the messages but %q in the tool event: the log disagrees with itself", t.path, build.Clip(t.id, 100), build.Clip(fn, 100), build.Clip(t.fn, 100))
		}
		if argsErr == "" && t.argsErr == "" && !reflect.DeepEqual(args, t.args) {
			return fmt.Sprintf("%s: call %q has other arguments in the tool event than in the messages: the log disagrees with itself", t.path, build.Clip(t.id, 100))
		}
		t.call = c.Index
	}
	// prev[i] and next[i]: the latest matched tool event before i and
	// the first after it (-1: none), found in linear time.
	prev, next := make([]int, len(r.tools)), make([]int, len(r.tools))
	last := -1
	for i, t := range r.tools {
		prev[i] = last
		if t.call >= 0 {
			last = i
		}
	}
	last = -1
	for i := len(r.tools) - 1; i >= 0; i-- {
		next[i] = last
		if r.tools[i].call >= 0 {
			last = i
		}
	}
	// groupEnd[e]: the last of the tool messages that follow event e
	// (e itself when none does).
	groupEnd := make([]int, len(rn.Events))
	for e := len(rn.Events) - 1; e >= 0; e-- {
		groupEnd[e] = e
		if e+1 < len(rn.Events) && rn.Events[e+1].Role == "tool" {
			groupEnd[e] = groupEnd[e+1]
		}
	}
	var extra []*toolEvent
	for i, t := range r.tools {
		if t.call >= 0 {
			continue
		}
		a, err := r.place(rn, groupEnd, i, prev[i], next[i])
		if err != "" {
			return err
		}
		t.anchor = a
		extra = append(extra, t)
	}
	if len(extra) > 0 {
		insert(rn, extra)
	}
	return ""
}

// place says after which event of rn (-1: before the first) the call of
// unmatched tool event i goes (prev and next: the matched tool events
// around it, or -1; groupEnd as addEventCalls computes it): after the messages answering the call it
// ran within; else after those answering the latest message call whose
// tool event came before it; else before the message requesting the first
// whose tool event came after it; else, with no message calls at all,
// after the last message. A call that none of these orders against the
// messages' calls is refused.
func (r *eventReader) place(rn *run.Run, groupEnd []int, i, prev, next int) (int, string) {
	t := r.tools[i]
	answered := func(c *run.Call) int {
		e := c.Event
		if c.ResultEvent >= 0 {
			e = c.ResultEvent
		}
		// After the tool messages that follow it: they answer the
		// same turn's calls, requested before any call placed here.
		return groupEnd[e]
	}
	if t.outer >= 0 {
		o := r.tools[t.outer]
		if o.call >= 0 {
			return answered(rn.Calls[o.call]), ""
		}
		return o.anchor, ""
	}
	if prev >= 0 {
		return answered(rn.Calls[r.tools[prev].call]), ""
	}
	if next >= 0 {
		return rn.Calls[r.tools[next].call].Event - 1, ""
	}
	if len(rn.Calls) == 0 {
		return len(rn.Events) - 1, ""
	}
	return 0, fmt.Sprintf("%s: call %q (%s) is in no message, and nothing in the log orders it against the messages' calls (no span within one of them, no tool event of theirs): a sub-agent's call placed by guess could make an order-dependent criterion wrong", t.path, build.Clip(t.id, 100), build.Clip(t.fn, 100))
}

// insert adds the calls of the unmatched tool events to rn, each answered
// by a tool event of its own placed after event anchor, renumbering the
// events and calls (rn's calls are still all top-level: Finish has not
// run).
func insert(rn *run.Run, extra []*toolEvent) {
	sort.SliceStable(extra, func(i, j int) bool { return extra[i].anchor < extra[j].anchor })
	events := make([]*run.Event, 0, len(rn.Events)+len(extra))
	var added []*run.Call
	k := 0
	flush := func(after int) {
		for ; k < len(extra) && extra[k].anchor == after; k++ {
			t := extra[k]
			ev := &run.Event{Index: len(events), Role: "tool", Content: t.content, Blocks: t.blocks,
				CallID: t.id, Tool: t.fn, Failed: t.failed, Error: t.err}
			events = append(events, ev)
			c := &run.Call{Index: -1, Event: ev.Index, ID: t.id, Tool: t.fn, Args: t.args, ArgsError: t.argsErr,
				Ok: !t.failed, Result: t.content, Error: t.err, ResultEvent: ev.Index, Parent: -1}
			if t.pending != "" {
				c.Ok, c.OkUnknown, c.ResultEvent = false, t.pending, -1
			}
			added = append(added, c)
		}
	}
	flush(-1)
	for i, ev := range rn.Events {
		ev.Index = len(events)
		events = append(events, ev)
		flush(i)
	}
	flush(len(rn.Events)) // cannot happen: no anchor passes the last event
	for _, c := range rn.Calls {
		c.Event = rn.Events[c.Event].Index
		if c.ResultEvent >= 0 {
			c.ResultEvent = rn.Events[c.ResultEvent].Index
		}
	}
	old := rn.Calls
	calls := append(append(make([]*run.Call, 0, len(old)+len(added)), old...), added...)
	// Calls are in order of their event; the messages' calls were, and
	// keep their order among themselves.
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Event < calls[j].Event })
	newIndex := make([]int, len(old))
	for i, c := range calls {
		if c.Index >= 0 {
			newIndex[c.Index] = i
		}
		c.Index = i
	}
	for _, ev := range rn.Events {
		for j, ci := range ev.Calls {
			ev.Calls[j] = newIndex[ci]
		}
	}
	rn.Events, rn.Calls = events, calls
}
