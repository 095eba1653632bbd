package native

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agext/levenshtein"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Version is the one version of the format this reader reads: the value of
// a record's "tenet_run".
const Version = 1

// The fields of each object of the format, in the order the docs give them.
var (
	recordFields = []string{"tenet_run", "metadata", "pre", "post", "given", "events"}
	eventFields  = []string{"role", "content", "calls", "call_id", "error", "failed_unknown", "ran"}
	callFields   = []string{"id", "tool", "args"}
	ranFields    = []string{"tool", "args"}
	// GivenLabels are the labels a record may give (a source's given
	// block reads them); Decode sets the missing ones, and a missing
	// "given", to null in Run.Record, so that one given block,
	// record.given.<label>, reads every run, whichever labels it gives.
	GivenLabels = []string{runs.Utility.String(), runs.AttackSuccess.String(), runs.SideEffect.String()}
	// Roles are the roles of events. A tool event carries a result; the
	// others may request calls.
	Roles = []string{"system", "user", "assistant", "tool"}
)

// terms name an event as this format does, "events[N]", where build's
// refusals would say "message N" as chat formats do.
var terms = build.Terms{Event: "events[%d]"}

// resultFields are the fields only a tool event has.
var resultFields = map[string]bool{"call_id": true, "error": true, "failed_unknown": true, "ran": true}

// Decode decodes one record of the tenet format: it is the format's
// frame.Decoder. Every record is a run (the format has no header lines);
// a record that is not one gets a msg naming the place ("events[3].calls[0]:
// ...") and, for another format's record, that format.
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, false, "record is " + build.Kind(v) + ", want an object {\"tenet_run\": 1, \"events\": [...]}"
	}
	if _, ok := rec["tenet_run"]; !ok {
		return nil, false, notATenetRun(rec)
	}
	if msg := unknownFields(rec, recordFields, "a record", ""); msg != "" {
		return nil, false, msg
	}
	switch ver := rec["tenet_run"].(type) {
	case float64:
		if ver != Version {
			return nil, false, fmt.Sprintf("tenet_run: version %s is not one this tenet reads (it reads version %d)", build.Clip(fmt.Sprint(ver), 40), Version)
		}
	default:
		return nil, false, fmt.Sprintf("tenet_run: want the number %d, got %s", Version, build.Kind(ver))
	}
	meta := map[string]any{}
	if m, present := rec["metadata"]; present {
		obj, ok := m.(map[string]any)
		if !ok {
			return nil, false, "metadata: want an object, got " + build.Kind(m) + " (omit it when there is none)"
		}
		meta = obj
	}
	if msg := given(rec); msg != "" {
		return nil, false, msg
	}
	rawEvents, present := rec["events"]
	if !present {
		return nil, false, "events: missing (a run lists its events, [] for none)"
	}
	events, ok := rawEvents.([]any)
	if !ok {
		return nil, false, "events: want a list, got " + build.Kind(rawEvents)
	}
	rn = &run.Run{Record: rec, Meta: meta, Pre: rec["pre"], Post: rec["post"], Events: make([]*run.Event, 0, len(events))}
	d := decoder{rn: rn, requested: map[string]int{}, answered: map[string]int{}}
	for i, raw := range events {
		if msg := d.event(i, raw); msg != "" {
			return nil, false, msg
		}
	}
	if msg := terms.Finish(rn); msg != "" {
		return nil, false, msg
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, ""
}

// notATenetRun says why a record without "tenet_run" is not a tenet run,
// naming the format it likely is.
func notATenetRun(rec map[string]any) string {
	const want = `tenet_run: missing (a record of the "tenet" format starts {"tenet_run": 1, "events": [...]})`
	for _, k := range slices.Sorted(maps.Keys(rec)) {
		if near(k, "tenet_run") {
			return fmt.Sprintf("record: unknown field %q (did you mean \"tenet_run\"?)", build.Clip(k, 100))
		}
	}
	switch {
	case rec["messages"] != nil && rec["model"] != nil && rec["system"] != nil:
		return want + `: this record has "messages", "model" and "system", an Anthropic Messages request (format "anthropic-messages"?)`
	case rec["messages"] != nil:
		return want + `: this record has "messages", a chat transcript (format "openai-messages" or "anthropic-messages"?)`
	case rec["input"] != nil || rec["output"] != nil:
		return want + `: this record has "input" or "output", OpenAI Responses API items (format "openai-responses"?)`
	case rec["resourceSpans"] != nil:
		return want + `: this record has "resourceSpans", an OTLP trace (format "otel-genai"?)`
	case rec["jsonrpc"] != nil:
		return want + `: this record is a JSON-RPC message, an MCP session log (format "mcp"?)`
	case rec["samples"] != nil || rec["eval"] != nil:
		return want + `: this record has "samples" or "eval", an Inspect AI log (format "inspect"?)`
	case rec["traj"] != nil || rec["trajectory"] != nil || rec["simulations"] != nil:
		return want + `: this record is a tau-bench trajectory (format "tau-bench"?)`
	case rec["type"] == "function_call" || rec["type"] == "function_call_output" || rec["type"] == "message" || rec["type"] == "reasoning":
		return want + `: this record is an OpenAI Responses API item (format "openai-responses"?)`
	case rec["events"] != nil:
		return want + `: this record has "events" but no version; add "tenet_run": 1`
	}
	return want
}

// given checks a record's "given" labels and sets the missing ones to
// null in the record, which source expressions read as `record`.
func given(rec map[string]any) string {
	raw, present := rec["given"]
	if !present {
		g := map[string]any{}
		for _, l := range GivenLabels {
			g[l] = nil
		}
		rec["given"] = g
		return ""
	}
	g, ok := raw.(map[string]any)
	if !ok {
		return "given: want an object of labels {\"utility\": true, ...}, got " + build.Kind(raw)
	}
	if msg := unknownFields(g, GivenLabels, "given", "given"); msg != "" {
		return msg
	}
	for _, l := range GivenLabels {
		switch v := g[l].(type) {
		case nil, bool:
		default:
			return fmt.Sprintf("given.%s: want true, false or null (not given), got %s", l, build.Kind(v))
		}
		if _, ok := g[l]; !ok {
			g[l] = nil
		}
	}
	return ""
}

// decoder builds one run's events and calls.
type decoder struct {
	rn *run.Run
	m  build.Matcher
	// requested maps each call id to the event that requested it;
	// answered, to the event whose result answered it.
	requested, answered map[string]int
}

// event adds event i to the run, or says why it is malformed.
func (d *decoder) event(i int, raw any) string {
	at := fmt.Sprintf("events[%d]", i)
	obj, ok := raw.(map[string]any)
	if !ok {
		return at + ": want an object {\"role\": ..., ...}, got " + build.Kind(raw)
	}
	if msg := unknownFields(obj, eventFields, "an event", at); msg != "" {
		return msg
	}
	role, ok := obj["role"].(string)
	if !ok {
		if _, present := obj["role"]; !present {
			return at + ".role: missing"
		}
		return at + ".role: want a string, got " + build.Kind(obj["role"])
	}
	if !slices.Contains(Roles, role) {
		return fmt.Sprintf("%s.role: %q is not a role (want %s)%s", at, build.Clip(role, 100), strings.Join(Roles, ", "), suggest(role, Roles))
	}
	ev := &run.Event{Index: i, Role: role}
	switch c := obj["content"].(type) {
	case nil:
		if _, present := obj["content"]; present {
			return at + ".content: want a string or a list of content blocks, got null (omit it when there is none)"
		}
	case string:
		ev.Content = c
	case []any:
		items, msg := build.ContentBlocks(c)
		if msg != "" {
			return at + "." + msg
		}
		if len(items) > 0 {
			return fmt.Sprintf("%s.content: a tool_use or tool_result block: in a tenet run, calls are an event's \"calls\" and results are tool events (content blocks are kept as data only)", at)
		}
		ev.Blocks = c
		ev.Content = build.BlockText(c)
	default:
		return at + ".content: want a string or a list of content blocks, got " + build.Kind(c)
	}
	d.rn.Events = append(d.rn.Events, ev)
	if role == "tool" {
		if _, present := obj["calls"]; present {
			return at + ".calls: a tool event carries a result and requests no calls (the calls that follow a result belong to the next assistant event)"
		}
		return d.result(ev, obj, at)
	}
	for _, k := range eventFields {
		if _, present := obj[k]; present && resultFields[k] {
			return fmt.Sprintf("%s.%s: only a tool event carries a result (is the role %q wrong?)", at, k, role)
		}
	}
	if raw, present := obj["calls"]; present {
		calls, ok := raw.([]any)
		if !ok {
			return at + ".calls: want a list, got " + build.Kind(raw)
		}
		for j, rc := range calls {
			c, msg := d.call(rc, fmt.Sprintf("%s.calls[%d]", at, j), i)
			if msg != "" {
				return msg
			}
			d.m.Request(d.rn, ev, c)
		}
	}
	return ""
}

// call reads one requested call.
func (d *decoder) call(raw any, at string, event int) (*run.Call, string) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, at + ": want an object {\"id\", \"tool\", \"args\"}, got " + build.Kind(raw)
	}
	if msg := unknownFields(obj, callFields, "a call", at); msg != "" {
		return nil, msg
	}
	id, msg := nonEmpty(obj, "id", at, "a call's id is what its result names in call_id")
	if msg != "" {
		return nil, msg
	}
	if prev, dup := d.requested[id]; dup {
		return nil, fmt.Sprintf("%s.id: %q is also the id of a call of events[%d]: call ids are unique in a run", at, build.Clip(id, 100), prev)
	}
	d.requested[id] = event
	tool, msg := nonEmpty(obj, "tool", at, "a call names the tool it calls")
	if msg != "" {
		return nil, msg
	}
	c := &run.Call{ID: id, Tool: tool, ResultEvent: -1, Parent: -1}
	if c.Args, c.ArgsError, msg = args(obj, at); msg != "" {
		return nil, msg
	}
	return c, ""
}

// args reads a call's "args": an object, or the arguments' text as the
// model sent it (parsed; text that does not parse is args_error, as in
// every format, not a record error). Absent is no arguments.
func args(obj map[string]any, at string) (map[string]any, string, string) {
	raw, present := obj["args"]
	if !present {
		return map[string]any{}, "", ""
	}
	switch raw.(type) {
	case map[string]any, string:
		a, argsErr := build.ParseArgs("args", raw)
		return a, argsErr, ""
	}
	return nil, "", fmt.Sprintf("%s.args: want an object, or the arguments' text as the model sent them, got %s", at, build.Kind(raw))
}

// result reads a tool event's result and matches it to its call.
func (d *decoder) result(ev *run.Event, obj map[string]any, at string) string {
	id, msg := nonEmpty(obj, "call_id", at, "a tool event names the call whose result it is")
	if msg != "" {
		return msg
	}
	if _, ok := d.requested[id]; !ok {
		return fmt.Sprintf("%s.call_id: %q is not the id of a call requested before this event%s", at, build.Clip(id, 100), suggest(id, slices.Sorted(maps.Keys(d.requested))))
	}
	if prev, ok := d.answered[id]; ok {
		return fmt.Sprintf("%s.call_id: call %q already has its result at events[%d]: a call has one result", at, build.Clip(id, 100), prev)
	}
	d.answered[id] = ev.Index
	a := build.Result{CallID: id, Content: ev.Content}
	if _, present := obj["error"]; present {
		if a.Err, msg = nonEmpty(obj, "error", at, "omit it for a call that succeeded"); msg != "" {
			return msg
		}
	}
	if _, present := obj["failed_unknown"]; present {
		if a.Unknown, msg = nonEmpty(obj, "failed_unknown", at, "it says why whether the call failed is unknown; omit it when that is known"); msg != "" {
			return msg
		}
	}
	a.Failed = a.Err != "" && a.Unknown == ""
	if raw, present := obj["ran"]; present {
		ran, ok := raw.(map[string]any)
		if !ok {
			return at + ".ran: want an object {\"tool\", \"args\"}, got " + build.Kind(raw)
		}
		rat := at + ".ran"
		if msg := unknownFields(ran, ranFields, "ran", rat); msg != "" {
			return msg
		}
		if len(ran) == 0 {
			return rat + ": empty: name the tool or the arguments that ran, or omit it"
		}
		if _, present := ran["tool"]; present {
			if a.RanTool, msg = nonEmpty(ran, "tool", rat, "the tool that ran"); msg != "" {
				return msg
			}
		}
		if _, present := ran["args"]; present {
			if _, _, msg := args(ran, rat); msg != "" {
				return msg
			}
			a.RanArgs = ran["args"]
		}
	}
	c := d.m.Answer(d.rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error, ev.FailedUnknown = id, c.Tool, a.Failed, a.Err, a.Unknown
	return ""
}

// nonEmpty reads a required non-empty string field; why says what it is for.
func nonEmpty(obj map[string]any, key, at, why string) (string, string) {
	raw, present := obj[key]
	if !present {
		return "", fmt.Sprintf("%s.%s: missing (%s)", at, key, why)
	}
	s, ok := raw.(string)
	if !ok {
		return "", fmt.Sprintf("%s.%s: want a string, got %s", at, key, build.Kind(raw))
	}
	if s == "" {
		return "", fmt.Sprintf("%s.%s: empty (%s)", at, key, why)
	}
	return s, ""
}

// unknownFields refuses, in key order, the first field of obj that is
// not one of known, with the nearest known field; what names the object
// and at is its path ("" for the record).
func unknownFields(obj map[string]any, known []string, what, at string) string {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if slices.Contains(known, k) {
			continue
		}
		path := at
		if path == "" {
			path = "record"
		}
		return fmt.Sprintf("%s: unknown field %q%s; the fields of %s are %s", path, build.Clip(k, 100), suggest(k, known), what, strings.Join(known, ", "))
	}
	return ""
}

// otherNames are other formats' names for the fields of this one: a
// harness converting its own shape writes them by habit.
var otherNames = map[string]string{
	"arguments": "args", "input": "args", "parameters": "args",
	"name": "tool", "function": "tool",
	"tool_call_id": "call_id", "tool_use_id": "call_id",
	"messages": "events", "meta": "metadata", "tool_calls": "calls",
	"is_error": "error",
}

// suggest returns ` (did you mean "x"?)` for the candidate nearest to s,
// or another format's name for it (otherNames), when one is near enough,
// else "".
func suggest(s string, candidates []string) string {
	if o, ok := otherNames[s]; ok && slices.Contains(candidates, o) {
		return fmt.Sprintf(" (did you mean %q?)", o)
	}
	best, bestD := "", -1
	for _, c := range candidates {
		if !near(s, c) {
			continue
		}
		if d := levenshtein.Distance(strings.ToLower(s), strings.ToLower(c), nil); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// near reports whether s is a likely misspelling of c: equal but for case
// and white space, or within an edit distance of 1 for a short c, else of
// 2 or a third of c's length.
func near(s, c string) bool {
	if len(s) > 4*len(c)+8 {
		return false // a long key is no misspelling, and distance is quadratic
	}
	ls, lc := strings.ToLower(strings.TrimSpace(s)), strings.ToLower(c)
	if ls == lc {
		return true
	}
	limit := 1
	if len(c) >= 4 {
		limit = max(2, len(c)/3) // "agrs" is "args"
	}
	return levenshtein.Distance(ls, lc, nil) <= limit
}
