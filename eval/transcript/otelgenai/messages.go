package otelgenai

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// builder turns sorted spans into events and calls.
type builder struct {
	rn *run.Run
	m  build.Matcher
	// history is the conversation so far, one key per message (role and
	// parts): each chat span's input repeats it, and only what follows it
	// is new.
	history []string
	system  string // the last system instructions emitted
	// ranBySpan holds the call ids an execute_tool span answers, with the
	// tool the span names: a tool_call_response part with such an id only
	// carries that result back to the model, and is not a second result.
	ranBySpan map[string]string
	// requested is the latest call requested with each id (its index).
	requested map[string]int
	// deferred holds the ids of requested calls a span marked deferred.
	deferred map[string]string
	// unrecorded holds the calls an execute_tool span answered without
	// gen_ai.tool.call.result (opt-in), by id: the response part that
	// carries the result back to the model gives their result instead.
	unrecorded map[string]*run.Call
}

func buildRun(rn *run.Run, spans []*span) string {
	b := &builder{rn: rn, ranBySpan: map[string]string{}, requested: map[string]int{}, deferred: map[string]string{}, unrecorded: map[string]*run.Call{}}
	// Messages come from chat spans; an invoke_agent span's messages
	// (its input and final output) are read only when no chat span
	// carries messages, else they would be counted twice.
	msgOps := chatOps
	hasChat := false
	for _, s := range spans {
		if chatOps[s.op] {
			_, in := s.attrs[attrInput]
			_, out := s.attrs[attrOutput]
			hasChat = hasChat || in || out
		}
		if s.op == "execute_tool" && !s.notRun() {
			if id, ok := s.attrs[attrToolCallID].(string); ok && id != "" {
				b.ranBySpan[id], _ = s.attrs[attrToolName].(string)
			}
		}
	}
	if !hasChat {
		msgOps = map[string]bool{"invoke_agent": true}
	}
	for _, s := range spans {
		var msg string
		switch {
		case s.op == "execute_tool":
			msg = b.tool(s)
		case msgOps[s.op]:
			msg = b.chat(s)
		}
		if msg != "" {
			return s.where() + ": " + msg
		}
	}
	return ""
}

// jsonAttr reads an attribute of type any: a JSON string (how SDKs record
// it on spans) or a structured OTLP value.
func jsonAttr(attrs map[string]any, key string) (v any, present bool, msg string) {
	raw, ok := attrs[key]
	if !ok {
		return nil, false, ""
	}
	s, ok := raw.(string)
	if !ok {
		return raw, true, ""
	}
	v, msg = build.DecodeJSON([]byte(s), false)
	if msg != "" {
		return nil, true, key + ": " + msg
	}
	return v, true, ""
}

func (b *builder) chat(s *span) string {
	sys, ok, msg := jsonAttr(s.attrs, attrSystem)
	if msg != "" {
		return msg
	}
	if ok && sys != nil {
		parts, ok := sys.([]any)
		if !ok {
			return attrSystem + ": want a list of parts, got " + build.Kind(sys)
		}
		ev := &run.Event{Index: len(b.rn.Events), Role: "system", Blocks: parts}
		text, msg := b.parts(ev, parts, false)
		if msg != "" {
			return attrSystem + ": " + msg
		}
		ev.Content = text
		key := fmt.Sprint(text)
		if key != b.system || len(b.rn.Events) == 0 {
			b.system = key
			b.rn.Events = append(b.rn.Events, ev)
		}
	}
	in, _, msg := jsonAttr(s.attrs, attrInput)
	if msg != "" {
		return msg
	}
	if in != nil {
		list, ok := in.([]any)
		if !ok {
			return attrInput + ": want a list of messages, got " + build.Kind(in)
		}
		n := len(b.history)
		if len(list) < n {
			n = len(list)
		}
		for i := 0; i < n; i++ {
			if key, _ := messageKey(list[i]); key != b.history[i] {
				return fmt.Sprintf("%s: message %d is not message %d of the conversation so far: the input does not continue the earlier chat spans' conversation (rewritten or trimmed history), which tenet does not read", attrInput, i, i)
			}
		}
		if len(list) < len(b.history) {
			return fmt.Sprintf("%s: %d messages, fewer than the %d of the conversation so far (trimmed history), which tenet does not read", attrInput, len(list), len(b.history))
		}
		for i := len(b.history); i < len(list); i++ {
			if msg := b.message(list[i], false); msg != "" {
				return fmt.Sprintf("%s: message %d: %s", attrInput, i, msg)
			}
		}
	}
	out, _, msg := jsonAttr(s.attrs, attrOutput)
	if msg != "" {
		return msg
	}
	if out != nil {
		list, ok := out.([]any)
		if !ok {
			return attrOutput + ": want a list of messages, got " + build.Kind(out)
		}
		if len(list) > 1 {
			return fmt.Sprintf("%s: %d output messages (choices): tenet reads one continuation of the conversation", attrOutput, len(list))
		}
		for i, x := range list {
			if msg := b.message(x, true); msg != "" {
				return fmt.Sprintf("%s: message %d: %s", attrOutput, i, msg)
			}
		}
	}
	return ""
}

// messageKey is what identifies a message of the history: its role and
// parts (an output message's finish_reason is not repeated in the next
// input).
func messageKey(x any) (string, bool) {
	obj, ok := x.(map[string]any)
	if !ok {
		return "", false
	}
	b, err := json.Marshal([]any{obj["role"], obj["parts"]})
	return string(b), err == nil
}

var (
	inputMessageKeys  = map[string]bool{"role": true, "parts": true, "name": true}
	outputMessageKeys = map[string]bool{"role": true, "parts": true, "name": true, "finish_reason": true}
)

func (b *builder) message(x any, output bool) string {
	obj, ok := x.(map[string]any)
	if !ok {
		return "want an object {role, parts}, got " + build.Kind(x)
	}
	known := inputMessageKeys
	if output {
		known = outputMessageKeys
	}
	if k := unknownKey(obj, known); k != "" {
		return fmt.Sprintf("unknown member %q", k)
	}
	role, ok := obj["role"].(string)
	if !ok || role == "" {
		return "role: want a non-empty string, got " + build.KindOrMissing(obj, "role")
	}
	parts, ok := obj["parts"].([]any)
	if !ok {
		return "parts: want a list, got " + build.KindOrMissing(obj, "parts")
	}
	key, _ := messageKey(obj)
	b.history = append(b.history, key)
	ev := &run.Event{Index: len(b.rn.Events), Role: strings.ToLower(role), Blocks: parts}
	b.rn.Events = append(b.rn.Events, ev)
	text, msg := b.parts(ev, parts, true)
	if msg != "" {
		return msg
	}
	ev.Content = text
	if ev.Role != "assistant" && len(ev.Calls) == 0 && ev.CallID == "" && text == "" && onlyEchoes(parts, b.ranBySpan) {
		// Only results an execute_tool span already gave: the message
		// is their way back to the model, not an event of its own.
		b.rn.Events = b.rn.Events[:len(b.rn.Events)-1]
	}
	return ""
}

// onlyEchoes: every part is a tool_call_response an execute_tool span
// answered (and there is at least one).
func onlyEchoes(parts []any, ran map[string]string) bool {
	for _, p := range parts {
		obj, _ := p.(map[string]any)
		id, _ := obj["id"].(string)
		if _, echo := ran[id]; obj["type"] != "tool_call_response" || !echo {
			return false
		}
	}
	return len(parts) > 0
}

// Part members by type that the reader reads (the semantic conventions'
// message schemas; pydantic-ai writes a tool_call_response's response as
// "result", and adds the tool's "name"). The schemas allow other members
// (additionalProperties): they are kept in blocks, unless one names a
// call, which tenet would miss.
var partKeys = map[string]map[string]bool{
	"text":                      {"type": true, "content": true},
	"reasoning":                 {"type": true, "content": true},
	"tool_call":                 {"type": true, "id": true, "name": true, "arguments": true},
	"tool_call_response":        {"type": true, "id": true, "response": true, "result": true, "name": true},
	"server_tool_call":          {"type": true, "id": true, "name": true, "server_tool_call": true},
	"server_tool_call_response": {"type": true, "id": true, "server_tool_call_response": true},
	"blob":                      {"type": true, "mime_type": true, "modality": true, "content": true},
	"file":                      {"type": true, "mime_type": true, "modality": true, "file_id": true},
	"uri":                       {"type": true, "mime_type": true, "modality": true, "uri": true},
}

// parts reads a message's parts into ev: text parts make its content,
// tool_call parts request calls, tool_call_response parts answer them.
func (b *builder) parts(ev *run.Event, parts []any, calls bool) (string, string) {
	var text []string
	results := 0
	for i, p := range parts {
		obj, ok := p.(map[string]any)
		if !ok {
			return "", fmt.Sprintf("part %d: want an object, got %s", i, build.Kind(p))
		}
		typ, _ := obj["type"].(string)
		known, ok := partKeys[typ]
		if !ok {
			return "", fmt.Sprintf("part %d: type %q is not a part type tenet reads (text, reasoning, tool_call, tool_call_response, server_tool_call, server_tool_call_response, blob, file, uri)", i, build.Clip(typ, 100))
		}
		if k := build.UnknownCallKey(obj, known); k != "" {
			return "", fmt.Sprintf("part %d (%s): member %q names a call, a tool or a function, which tenet does not read in a %s part", i, typ, build.Clip(k, 100), typ)
		}
		if !calls && typ != "text" {
			return "", fmt.Sprintf("part %d: a %s part in system instructions", i, typ)
		}
		id, msg := build.OptString(obj, "id")
		if msg != "" {
			return "", fmt.Sprintf("part %d: %s", i, msg)
		}
		switch typ {
		case "text":
			s, ok := obj["content"].(string)
			if !ok {
				return "", fmt.Sprintf("part %d (text).content: want a string, got %s", i, build.KindOrMissing(obj, "content"))
			}
			text = append(text, s)
		case "tool_call", "server_tool_call":
			name, ok := obj["name"].(string)
			if !ok || name == "" {
				return "", fmt.Sprintf("part %d (%s).name: want a non-empty string", i, typ)
			}
			c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
			if typ == "tool_call" {
				c.Args, c.ArgsError = build.ParseArgs("arguments", obj["arguments"])
			} else {
				c.Args, c.ArgsError = build.ParseArgs("server_tool_call", obj["server_tool_call"])
			}
			b.m.Request(b.rn, ev, c)
			b.requested[id] = c.Index
		case "tool_call_response", "server_tool_call_response":
			field := "response"
			if typ == "server_tool_call_response" {
				field = typ
			}
			resp, ok := obj[field]
			name := ""
			if typ == "tool_call_response" {
				if r, has := obj["result"]; has && !ok {
					resp, ok = r, true
				} else if has && !reflect.DeepEqual(r, resp) {
					return "", fmt.Sprintf("part %d (%s): response and result differ: tenet cannot tell which is the call's result", i, typ)
				}
				if name, msg = build.OptString(obj, "name"); msg != "" {
					return "", fmt.Sprintf("part %d (%s).%s", i, typ, msg)
				}
			}
			if !ok {
				return "", fmt.Sprintf("part %d (%s): %s missing", i, typ, field)
			}
			if ran, echo := b.ranBySpan[id]; echo {
				// The execute_tool span is this call's result.
				if name != "" && ran != "" && name != ran {
					return "", fmt.Sprintf("part %d (%s): names the tool %q, but the execute_tool span of call %q ran %q", i, typ, build.Clip(name, 100), build.Clip(id, 100), build.Clip(ran, 100))
				}
				if c := b.unrecorded[id]; c != nil {
					// The span did not record the result; this part is
					// the result the model was given.
					c.Result = valueText(resp)
					if c.ResultEvent >= 0 {
						b.rn.Events[c.ResultEvent].Content = c.Result
					}
					delete(b.unrecorded, id)
				}
				continue
			}
			content := valueText(resp)
			// The result's text is the message's content, as a tool
			// message's is.
			text = append(text, content)
			a := build.Result{CallID: id, RanTool: name, Content: content}
			if d := b.deferred[id]; d != "" {
				// No span ran it: the response is a denial, or the result
				// of a run outside the agent (pydantic-ai's external
				// calls); the part does not say which.
				a.Unknown = fmt.Sprintf("the call was deferred (%s %q) and no execute_tool span ran it: its response may be a denial or the result of a run elsewhere, so whether the tool ran is unknown", attrDeferral, build.Clip(d, 100))
			}
			c := b.m.Answer(b.rn, ev.Index, a)
			results++
			if results == 1 {
				ev.CallID, ev.Tool, ev.FailedUnknown = id, c.Tool, a.Unknown
			} else {
				ev.CallID, ev.Tool, ev.FailedUnknown = "", "", ""
			}
		}
	}
	if results > 0 {
		ev.Role = "tool"
	}
	return strings.Join(text, "\n"), ""
}

// valueText is a result's text: a string as is, anything else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	out, _ := json.Marshal(v) // cannot fail: decoded from JSON
	return string(out)
}

// tool reads an execute_tool span: the call that ran, with its result.
func (b *builder) tool(s *span) string {
	name, ok := s.attrs[attrToolName].(string)
	if !ok || name == "" {
		return attrToolName + ": want a non-empty string (execute_tool spans name their tool)"
	}
	id := ""
	if v, ok := s.attrs[attrToolCallID]; ok {
		if id, ok = v.(string); !ok {
			return attrToolCallID + ": want a string, got " + build.Kind(v)
		}
	}
	// Arguments are a JSON string or a structured value: ParseArgs
	// reads both, and records unparsable text as the call's ArgsError.
	rawArgs, hasArgs := s.attrs[attrToolArgs]
	// The result as recorded: a string as is (JSON text or not), a
	// structured value as JSON.
	result := s.attrs[attrToolResult]
	content := valueText(result)
	a := build.Result{CallID: id, RanTool: name, RanID: id, Content: content, Failed: s.failed, Err: s.errText}
	switch {
	case s.notRun():
		note := fmt.Sprintf("deferred (%s %q): the tool did not run", attrDeferral, build.Clip(s.deferred, 100))
		if i, ok := b.requested[id]; ok && id != "" && b.rn.Calls[i].ResultEvent < 0 && b.rn.Calls[i].Tool == name {
			// The requested call stays without a result: not run. A
			// later span (the call approved, in a later trace of the
			// conversation) may still answer it.
			b.rn.Calls[i].Error = note
			b.deferred[id] = s.deferred
			return ""
		}
		// No request of its id and tool waits for it: the span is a
		// result saying so (the matcher notes any disagreement).
		a.Failed, a.Err = true, note
	case s.deferred != "":
		a.Unknown = fmt.Sprintf("the span marks the call deferred (%s %q), but also records a result or a status: whether the tool ran is unknown", attrDeferral, build.Clip(s.deferred, 100))
	}
	// Status unset without a result is read as ran without error: OTel
	// asks instrumentations to leave the status unset unless there is an
	// error, and the result is opt-in content capture, so this is how
	// most instrumentations record a call that succeeded. A call that
	// did not run must say so (the deferral mark above).
	if a.Unknown != "" {
		a.Failed, a.Err = false, ""
	}
	ev := &run.Event{Index: len(b.rn.Events), Role: "tool", Content: content}
	b.rn.Events = append(b.rn.Events, ev)
	if hasArgs {
		a.RanArgs = rawArgs
		if rawArgs == nil {
			a.RanArgs = map[string]any{}
		}
	}
	c := b.m.Answer(b.rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error, ev.FailedUnknown = id, c.Tool, a.Failed, a.Err, a.Unknown
	if _, recorded := s.attrs[attrToolResult]; !recorded && c.ID != "" {
		b.unrecorded[c.ID] = c
	}
	if id == "" && c.ID != "" && !s.notRun() {
		// gen_ai.tool.call.id is only recommended: a span without it
		// answered the requested call of its tool, whose id the later
		// tool_call_response part then carries back; not a second result.
		b.ranBySpan[c.ID] = name
	}
	return ""
}

// notRun: the span marks its call deferred and records no outcome (no
// result, status unset): its tool did not run.
func (s *span) notRun() bool {
	_, hasResult := s.attrs[attrToolResult]
	return s.deferred != "" && !hasResult && s.unset()
}
