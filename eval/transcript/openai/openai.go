package openai

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Decode decodes one openai-messages record: it is the format's
// frame.Decoder. It returns skip for a record with no "messages", or a
// non-empty msg saying why the record is malformed.
func Decode(line []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(line, true)
	if msg != "" {
		if t := strings.TrimSpace(string(line)); t == "[" || t == "{" {
			// The first line of a pretty-printed JSON document.
			msg += ` (the first line of one JSON document written over many lines, not JSONL: a whole-file format's log such as tau-bench or inspect, or records to compact with jq -c)`
		} else if strings.HasPrefix(string(line[:min(len(line), 4)]), "PK\x03\x04") {
			msg += ` (a ZIP archive: an Inspect AI .eval log? read it with format "inspect")`
		}
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		if l, ok := v.([]any); ok && len(l) > 0 {
			if e, ok := l[0].(map[string]any); ok && e["traj"] != nil {
				return nil, false, `record is a list of objects with "traj", want an object: a tau-bench results file? its format is "tau-bench"`
			}
		}
		return nil, false, "record is " + build.Kind(v) + ", want an object" + itemsHint(v)
	}
	msgs, meta, skip, msg := head(rec)
	if skip || msg != "" {
		return nil, skip, msg
	}
	rn, msg = body(rec, meta, msgs)
	return rn, false, msg
}

// body reads a record's messages into its run, whose meta head gave.
func body(rec, meta map[string]any, msgs []any) (*run.Run, string) {
	rn := &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m build.Matcher
	for i, raw := range msgs {
		if err := message(&m, rn, i, raw); err != "" {
			return nil, fmt.Sprintf("message %d: %s", i, err)
		}
	}
	if err := build.Finish(rn); err != "" {
		return nil, err
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, ""
}

// head reads what a record says besides its messages, in the order Decode
// refuses it: a record that is not an openai-messages record, one without
// "messages" (skip: a header line), a record member the reader cannot
// read, or metadata that is not an object. Peek runs it too, so that a
// record it passes is refused by Decode, if at all, for its messages.
func head(rec map[string]any) (msgs []any, meta map[string]any, skip bool, msg string) {
	if msg := anthropicProblem(rec); msg != "" {
		return nil, nil, false, msg
	}
	if rec["eval"] != nil && rec["samples"] != nil && rec["messages"] == nil {
		return nil, nil, false, `an Inspect AI log (members "eval" and "samples"): read it with format "inspect"`
	}
	if msg := recordProblem(rec); msg != "" {
		return nil, nil, false, msg
	}
	rawMsgs, ok := rec["messages"]
	if !ok {
		return nil, nil, true, ""
	}
	msgs, ok = rawMsgs.([]any)
	if !ok {
		return nil, nil, false, "messages: want a list, got " + build.Kind(rawMsgs)
	}
	if msg := build.TopLevelProblem(rec); msg != "" {
		return nil, nil, false, msg
	}
	meta = map[string]any{}
	switch m := rec["metadata"].(type) {
	case nil:
	case map[string]any:
		meta = m
	default:
		return nil, nil, false, "metadata: want an object, got " + build.Kind(m)
	}
	return msgs, meta, false, ""
}

// Peek is the format's frame.Peeker: the record's members but
// "messages" decoded and checked as Decode does (head), the messages
// only found. A record Decode would skip or refuse before its messages is
// not peeked (ok false).
func Peek(line []byte) (frame.Peek, bool) {
	rec, msgs, ok := frame.SkimObject(line, "messages")
	if !ok || len(msgs) == 0 || msgs[0] != '[' {
		return frame.Peek{}, false
	}
	// A list standing for the messages, for head's checks (which look
	// only at whether "messages" is there and is a list).
	rec["messages"] = []any(nil)
	_, meta, skip, msg := head(rec)
	if skip || msg != "" {
		return frame.Peek{}, false
	}
	return frame.Peek{Meta: meta, Record: rec, Unread: unread, Check: func() bool { return build.Decodable(line) }, Raw: msgs}, true
}

// DecodePeeked is the format's frame.PeekDecoder: Decode of a record Peek
// passed, decoding only its messages (p.Raw) and reusing the rest.
func DecodePeeked(p frame.Peek) (rn *run.Run, ok bool) {
	msgs, ok := p.Messages()
	if !ok {
		return nil, false
	}
	rn, msg := body(p.Record, p.Meta, msgs)
	return rn, msg == ""
}

// unread are the members Peek leaves undecoded.
var unread = []string{"messages"}

// Message keys the reader knows. Another key whose name speaks of a call,
// a tool or a function, holding something that could carry one, is an
// error rather than "no call" (build.UnknownCallKey).
var messageKeys = map[string]bool{
	"role": true, "content": true, "tool_calls": true, "function_call": true,
	"tool_call_id": true, "tool_call": true, "name": true, "error": true,
}

// resultRole reports whether a (lower-cased) role is that of a message
// holding one result.
func resultRole(role string) bool { return role == "tool" || role == "function" }

// message adds message i to rn, or says why it is malformed.
func message(m *build.Matcher, rn *run.Run, i int, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object"
	}
	givenRole, ok := msg["role"].(string)
	if !ok {
		if _, present := msg["role"]; !present {
			return "role: missing"
		}
		return "role: want a string, got " + build.Kind(msg["role"])
	}
	// Harnesses differ in case ("Tool", "ASSISTANT"); a role compared as
	// written would leave such a result unmatched.
	role := strings.ToLower(givenRole)
	if k := build.UnknownCallKey(msg, messageKeys); k != "" {
		return fmt.Sprintf("key %q names a call, a tool or a function, but this reader knows calls only as tool_calls, function_call and tool_use content blocks, and results only as tool and function messages (tool_call_id, tool_call, name) and tool_result content blocks", k)
	}
	if r, ok := msg["recipient"].(string); ok && len(r) >= len(build.NamespacePrefix) && strings.EqualFold(r[:len(build.NamespacePrefix)], build.NamespacePrefix) {
		return fmt.Sprintf("recipient %q: a message addressed to a function is a call in OpenAI's Harmony format, which this reader does not read (convert it to tool_calls and tool messages)", build.Clip(r, 100))
	}
	if !resultRole(role) {
		for _, k := range []string{"tool_call_id", "tool_call"} {
			if msg[k] != nil {
				return fmt.Sprintf("%s on a message with role %q: only a \"tool\" or \"function\" message is a result (is the role wrong?)", k, givenRole)
			}
		}
	}
	// Index is the event's place in rn.Events: a user message holding
	// tool results and the user's own words is two events or more
	// (build.SplitResults), so from then on it is not i.
	ev := &run.Event{Index: len(rn.Events), Role: role}
	var blocks []build.BlockItem
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		ev.Content = build.BlockText(c)
		var err string
		if blocks, err = build.ContentBlocks(c); err != "" {
			return err
		}
	default:
		return "content: want a string, null or a list of content blocks, got " + build.Kind(c)
	}
	if segs := build.SplitResults(ev.Blocks); role == "user" && segs != nil {
		// The user's words beside tool_result blocks are the user's turn,
		// the results the tool's: an event each, in content order. The
		// message's other members go with its last event.
		for _, seg := range segs {
			sub := ev.Blocks[seg.Start:seg.End]
			part := &run.Event{Index: len(rn.Events), Role: role, Blocks: sub, Content: build.BlockText(sub)}
			subBlocks, err := build.ContentBlocks(sub) // the whole list passed: cannot fail
			if err != "" {
				return err
			}
			rn.Events = append(rn.Events, part)
			addBlocks(m, rn, part, role, subBlocks)
			ev = part
		}
	} else {
		rn.Events = append(rn.Events, ev)
		// A result message answers earlier calls before this message's
		// own calls are requested.
		if resultRole(role) {
			if err := result(m, rn, ev, msg); err != "" {
				return err
			}
		}
		addBlocks(m, rn, ev, role, blocks)
	}
	return messageCalls(m, rn, ev, role, msg)
}

// addBlocks requests the calls and matches the results of blocks, the
// tool_use and tool_result blocks of ev.
func addBlocks(m *build.Matcher, rn *run.Run, ev *run.Event, role string, blocks []build.BlockItem) {
	// Content blocks are taken in order: a tool_use requests a call, a
	// tool_result answers one, so a tool_result after a tool_use in the
	// same message can answer it, and one before it answers an earlier
	// call. (Taking all results first matched such a result to nothing
	// or to another call: a send that ran counted as not run.)
	nResults := 0
	for _, b := range blocks {
		if b.Call == nil {
			nResults++
		}
	}
	for _, b := range blocks {
		if b.Call != nil {
			m.Request(rn, ev, b.Call)
			continue
		}
		r := b.Result
		c := m.Answer(rn, ev.Index, build.Result{CallID: r.CallID, Content: r.Content, Failed: r.Failed, Err: r.Error})
		if !resultRole(role) && nResults == 1 {
			ev.CallID, ev.Tool, ev.Failed, ev.Error = r.CallID, c.Tool, r.Failed, r.Error
		}
	}
	// A message that carries results is a tool message to criteria and
	// patterns, whatever role it was sent under: a legacy "function"
	// message, or a user message holding tool_result blocks (Anthropic's
	// shape). Left as "user", the results would count as user text and
	// as a user turn, so "no user message in between" would never hold
	// after a read and an injected send would escape such an invariant.
	// The user's own words beside the results are an event of their own
	// (build.SplitResults); only blank text stays in the tool's event.
	if role == "function" || nResults > 0 {
		ev.Role = "tool"
	}
}

// messageCalls requests the calls of msg's tool_calls and function_call,
// made by ev, and refuses what the reader would misread as no call.
func messageCalls(m *build.Matcher, rn *run.Run, ev *run.Event, role string, msg map[string]any) string {

	own, err := toolCalls("tool_calls", msg["tool_calls"])
	if err != "" {
		return err
	}
	lc, err := langChainCalls(msg, own)
	if err != "" {
		return err
	}
	if msg["tool_calls"] == nil {
		own = lc
	}
	for _, c := range own {
		m.Request(rn, ev, c)
	}
	// OpenAI's legacy form: one {"name", "arguments"} call per message.
	switch fc := msg["function_call"].(type) {
	case nil:
	case map[string]any:
		name, ok := fc["name"].(string)
		if !ok {
			return "function_call.name: want a string, got " + build.KindOrMissing(fc, "name")
		}
		c := &run.Call{Tool: name, ResultEvent: -1, Parent: -1}
		c.Args, c.ArgsError = build.ParseArgs("function_call.arguments", fc["arguments"])
		m.Request(rn, ev, c)
		if err := build.ScanRest(fc, callKeys, "function_call"); err != "" {
			return err
		}
	default:
		return "function_call: want an object {name, arguments}, got " + build.Kind(fc)
	}
	// A call the model wrote as text in a chat template's form would be
	// read as no call (build/textcall.go). A message with structured calls
	// too is read by them: a server that parsed the text keeps both.
	if role == "assistant" && len(ev.Calls) == 0 {
		if err := build.TextCallProblem(ev.Content); err != "" {
			return err
		}
	}
	return scanMessageRest(msg)
}

// Keys read in the objects of a message; build.ScanRest searches the others.
var (
	callKeys     = map[string]bool{"name": true, "arguments": true}
	toolCallKeys = map[string]bool{"id": true, "type": true, "function": true}
	// placeholder_args are arguments (see the package doc), ignored.
	ranKeys = map[string]bool{"function": true, "args": true, "id": true, "placeholder_args": true}
)

// scanMessageRest searches the message keys the reader does not read for
// a call (unread.go). Keys it reads are left out: role, content (whose
// blocks build.ContentBlocks searches), tool_calls and function_call (searched
// where read), tool_call_id, name and error (a result's data), tool_call
// (searched beside what it reads), and additional_kwargs' tool_calls.
func scanMessageRest(msg map[string]any) string {
	if tc, ok := msg["tool_call"].(map[string]any); ok {
		if err := build.ScanRest(tc, ranKeys, "tool_call"); err != "" {
			return err
		}
	}
	if ak, ok := msg["additional_kwargs"].(map[string]any); ok {
		if err := build.ScanRest(ak, map[string]bool{"tool_calls": true}, "additional_kwargs"); err != "" {
			return err
		}
	}
	read := messageKeys
	if _, ok := msg["additional_kwargs"].(map[string]any); ok {
		read = messageKeysLangChain // searched above
	}
	return build.ScanRest(msg, read, "")
}

// messageKeysLangChain is messageKeys and additional_kwargs.
var messageKeysLangChain = func() map[string]bool {
	m := map[string]bool{"additional_kwargs": true}
	for k := range messageKeys {
		m[k] = true
	}
	return m
}()

// toolCalls reads a list of OpenAI tool calls at field.
func toolCalls(field string, v any) ([]*run.Call, string) {
	switch tcs := v.(type) {
	case nil:
		return nil, ""
	case []any:
		calls := make([]*run.Call, 0, len(tcs))
		for j, raw := range tcs {
			c, err := requestedCall(raw)
			if err != "" {
				return nil, fmt.Sprintf("%s[%d]: %s", field, j, err)
			}
			at := fmt.Sprintf("%s[%d]", field, j)
			tc := raw.(map[string]any) // requestedCall checked it
			fn := tc["function"].(map[string]any)
			if _, ok := fn["arguments"]; !ok {
				// Arguments under another name would be read as none.
				for _, k := range []string{"args", "input", "parameters"} {
					if _, ok := fn[k]; ok {
						return nil, fmt.Sprintf("%s.function.%s: the arguments of a tool call are \"arguments\" (another harness's shape?)", at, k)
					}
				}
			}
			if err := build.ScanRest(tc, toolCallKeys, at); err != "" {
				return nil, err
			}
			if err := build.ScanRest(fn, callKeys, at+".function"); err != "" {
				return nil, err
			}
			calls = append(calls, c)
		}
		return calls, ""
	default:
		return nil, field + ": want a list, got " + build.Kind(tcs)
	}
}

// langChainCalls reads a LangChain message's additional_kwargs.tool_calls:
// the OpenAI tool calls as the provider sent them, which LangChain keeps
// there (its own tool_calls field has another shape). They are the
// message's calls when it has no tool_calls of its own: read rather than
// refused, since the shape is OpenAI's. When it has both, they must be the
// same calls (id, tool and parsed arguments, in order), else which ran is
// unclear and the record is bad input.
func langChainCalls(msg map[string]any, own []*run.Call) ([]*run.Call, string) {
	ak, ok := msg["additional_kwargs"].(map[string]any)
	if !ok || ak["tool_calls"] == nil {
		return nil, ""
	}
	calls, err := toolCalls("additional_kwargs.tool_calls", ak["tool_calls"])
	if err != "" || msg["tool_calls"] == nil {
		return calls, err
	}
	if len(calls) != len(own) {
		return nil, fmt.Sprintf("additional_kwargs.tool_calls has %d calls, tool_calls %d: which calls were made is unclear (LangChain's copy of the provider's calls should be the same calls)", len(calls), len(own))
	}
	for j, c := range calls {
		o := own[j]
		var diff []string
		if c.ID != o.ID {
			diff = append(diff, fmt.Sprintf("id %q, not %q", build.Clip(c.ID, 100), build.Clip(o.ID, 100)))
		}
		if c.Tool != o.Tool {
			diff = append(diff, fmt.Sprintf("tool %q, not %q", build.Clip(c.Tool, 100), build.Clip(o.Tool, 100)))
		}
		if c.ArgsError != o.ArgsError || !reflect.DeepEqual(c.Args, o.Args) {
			diff = append(diff, "other arguments")
		}
		if len(diff) > 0 {
			return nil, fmt.Sprintf("additional_kwargs.tool_calls[%d] is not tool_calls[%d] (%s): which call was made is unclear", j, j, strings.Join(diff, "; "))
		}
	}
	return nil, ""
}

// requestedCall reads one element of an assistant message's tool_calls.
func requestedCall(raw any) (*run.Call, string) {
	tc, ok := raw.(map[string]any)
	if !ok {
		return nil, "is " + build.Kind(raw) + ", want an object"
	}
	id, err := build.OptString(tc, "id")
	if err != "" {
		return nil, err
	}
	fn, ok := tc["function"].(map[string]any)
	if !ok {
		if _, present := tc["function"]; !present && tc["requestor"] != nil && tc["name"] != nil {
			return nil, `function: missing, but "name" and "requestor": a tau2-bench tool call {id, name, arguments, requestor}? its format is "tau-bench" (on its results file or simulation file)`
		}
		if _, present := tc["function"]; !present {
			return nil, "function: missing"
		}
		return nil, "function: want an object, got " + build.Kind(tc["function"])
	}
	name, ok := fn["name"].(string)
	if !ok {
		if _, present := fn["name"]; !present {
			return nil, "function.name: missing"
		}
		return nil, "function.name: want a string, got " + build.Kind(fn["name"])
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = build.ParseArgs("arguments", fn["arguments"])
	return c, ""
}

// result handles a tool or function message: it fills the event's result
// fields and matches it to a call (see "Matching results to calls" in the
// package doc).
func result(m *build.Matcher, rn *run.Run, ev *run.Event, msg map[string]any) string {
	callID, err := build.OptString(msg, "tool_call_id")
	if err != "" {
		return err
	}
	a := build.Result{CallID: callID, Content: ev.Content}

	// What actually ran, when the message records it.
	switch tc := msg["tool_call"].(type) {
	case nil:
	case map[string]any:
		if a.RanTool, err = build.OptString(tc, "function"); err != "" {
			return "tool_call." + err
		}
		a.RanArgs = tc["args"]
		// tool_call.id is only compared with the call's id and used for a
		// synthesised call; a non-string one is ignored rather than
		// rejected, as it is not used for matching. placeholder_args is
		// ignored (package doc).
		a.RanID, _ = tc["id"].(string)
	default:
		return "tool_call: want an object, got " + build.Kind(tc)
	}
	if a.RanTool == "" {
		// A function message (and some tool messages) names the function
		// whose result it is.
		if a.RanTool, err = build.OptString(msg, "name"); err != "" {
			return err
		}
	}

	if a.Failed, a.Err, a.Unknown, err = build.ResultOutcome(msg, ev.Content); err != "" {
		return err
	}
	c := m.Answer(rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error = callID, c.Tool, a.Failed, a.Err
	ev.FailedUnknown = a.Unknown
	return ""
}

// itemsHint names the openai-responses format for a list record holding
// a Responses API item (an object whose "type" is message, reasoning or
// names a call or its output): read here it is only "not an object".
func itemsHint(v any) string {
	list, _ := v.([]any)
	for _, e := range list {
		obj, _ := e.(map[string]any)
		if typ, _ := obj["type"].(string); typ == "message" || typ == "reasoning" || strings.HasSuffix(typ, "_call") || strings.HasSuffix(typ, "_call_output") {
			return " (a list of OpenAI Responses API items? use --transcript-format openai-responses)"
		}
	}
	return ""
}
