package inspect

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// attachmentPrefix marks a string Inspect moved into the sample's
// attachments map (a long content, a base64 image): the rest is its key.
const attachmentPrefix = "attachment://"

// Decode is the inspect format's frame.Decoder: it reads one framed
// record, {"eval": <eval spec>, "sample": <sample>}, into a run, or says
// why it is malformed. It never skips.
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, false, "record is " + build.Kind(v) + ", want an object"
	}
	for _, k := range sortedKeys(rec) {
		if k != "eval" && k != "sample" {
			return nil, false, fmt.Sprintf("record member %q: an inspect record is {\"eval\", \"sample\"} as the framer builds it", build.Clip(k, 100))
		}
	}
	spec, ok := rec["eval"].(map[string]any)
	if !ok && rec["eval"] != nil {
		return nil, false, "eval: want an object, got " + build.Kind(rec["eval"])
	}
	sample, ok := rec["sample"].(map[string]any)
	if !ok {
		return nil, false, "sample: want an object, got " + build.KindOrMissing(rec, "sample")
	}
	if _, ok := sample["messages"]; !ok {
		if _, ok := sample["role"]; ok {
			return nil, false, "sample: a message, not a sample (an Inspect sample has \"messages\")"
		}
		return nil, false, `sample: no "messages" member (is this an Inspect EvalSample?)`
	}
	att, msg := attachments(sample["attachments"])
	if msg != "" {
		return nil, false, msg
	}
	res := resolver{att: att}
	msgs, ok := sample["messages"].([]any)
	if !ok {
		return nil, false, "messages: want a list, got " + build.Kind(sample["messages"])
	}
	meta, msg := sampleMeta(spec, sample, &res)
	if msg != "" {
		return nil, false, msg
	}
	rn = &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m build.Matcher
	for i, raw := range msgs {
		if raw = res.resolve(raw); res.err != "" {
			return nil, false, fmt.Sprintf("message %d: %s", i, res.err)
		}
		if err := message(&m, rn, i, raw); err != "" {
			return nil, false, fmt.Sprintf("message %d: %s", i, err)
		}
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	// A log written without events (or with them dropped) still reads,
	// from its messages alone; meta says so.
	meta["calls_from"] = callsFromMessages
	if evs, ok := sample["events"].([]any); sample["events"] != nil && (!ok || len(evs) > 0) {
		if err := addEventCalls(rn, sample["events"], &res); err != "" {
			return nil, false, err
		}
		meta["calls_from"] = callsFromEvents
	}
	if err := build.Finish(rn); err != "" {
		return nil, false, err
	}
	return rn, false, ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// attachments reads the sample's "attachments": an object of strings.
func attachments(v any) (map[string]any, string) {
	switch a := v.(type) {
	case nil:
		return nil, ""
	case map[string]any:
		for _, k := range sortedKeys(a) {
			if _, ok := a[k].(string); !ok {
				return nil, fmt.Sprintf("attachments[%q]: want a string, got %s", build.Clip(k, 100), build.Kind(a[k]))
			}
		}
		return a, ""
	default:
		return nil, "attachments: want an object, got " + build.Kind(a)
	}
}

// resolver replaces "attachment://<key>" strings with the attachment.
type resolver struct {
	att map[string]any
	err string
}

// resolve returns v with every string that is a whole attachment
// reference replaced by the attachment's text (Go strings share their
// bytes, so a reference used many times costs no copy). A reference to no
// attachment is an error: the text it stands for is lost, and a criterion
// reading it would see the reference instead.
func (r *resolver) resolve(v any) any {
	if r.err != "" {
		return v
	}
	switch x := v.(type) {
	case string:
		if key, ok := strings.CutPrefix(x, attachmentPrefix); ok {
			text, ok := r.att[key]
			if !ok {
				r.err = fmt.Sprintf("%q: no such attachment in the sample's attachments", build.Clip(x, 120))
				return v
			}
			return text
		}
	case map[string]any:
		for k, e := range x {
			x[k] = r.resolve(e)
		}
	case []any:
		for i, e := range x {
			x[i] = r.resolve(e)
		}
	}
	return v
}

// sampleMeta builds the run's meta (the package doc lists its members).
func sampleMeta(spec, sample map[string]any, res *resolver) (map[string]any, string) {
	meta := map[string]any{}
	switch id := sample["id"].(type) {
	case string, float64:
		meta["id"] = id
	case nil:
		meta["id"] = nil
	default:
		return nil, "sample.id: want a string or a number, got " + build.Kind(id)
	}
	epoch := 1.0
	switch e := sample["epoch"].(type) {
	case nil:
	case float64:
		if e < 1 || e != math.Trunc(e) || e > 1<<31 {
			return nil, fmt.Sprintf("sample.epoch: want a whole number from 1, got %v", e)
		}
		epoch = e
	default:
		return nil, "sample.epoch: want a number, got " + build.Kind(e)
	}
	meta["epoch"] = epoch
	for _, k := range []string{"metadata", "scores"} {
		switch x := sample[k].(type) {
		case nil:
			meta[k] = map[string]any{}
		case map[string]any:
			meta[k] = res.resolve(x)
			if res.err != "" {
				return nil, "sample." + k + ": " + res.err
			}
		default:
			return nil, "sample." + k + ": want an object, got " + build.Kind(x)
		}
	}
	meta["target"] = res.resolve(sample["target"])
	if res.err != "" {
		return nil, "sample.target: " + res.err
	}
	meta["error"] = nil
	switch e := sample["error"].(type) {
	case nil:
	case map[string]any:
		meta["error"], _ = e["message"].(string)
	case string:
		meta["error"] = e
	default:
		return nil, "sample.error: want an object {message, traceback}, got " + build.Kind(e)
	}
	for _, k := range []string{"task", "task_id", "run_id", "eval_id", "model"} {
		meta[k] = ""
		if spec == nil {
			continue
		}
		switch s := spec[k].(type) {
		case nil:
		case string:
			meta[k] = s
		default:
			return nil, "eval." + k + ": want a string, got " + build.Kind(s)
		}
	}
	return meta, ""
}

// messageKeys are the members of Inspect's ChatMessage classes the reader
// knows ("tool_error" and "reasoning" are older logs' forms).
var messageKeys = map[string]bool{
	"id": true, "content": true, "source": true, "metadata": true, "role": true,
	"tool_calls": true, "model": true, "tool_call_id": true, "function": true,
	"error": true, "tool_error": true, "reasoning": true, "internal": true,
}

// message adds message i to rn, or says why it is malformed.
func message(m *build.Matcher, rn *run.Run, i int, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object"
	}
	role, ok := msg["role"].(string)
	if !ok {
		return "role: want a string, got " + build.KindOrMissing(msg, "role")
	}
	switch role {
	case "system", "user", "assistant", "tool":
	default:
		return fmt.Sprintf("role %q: an Inspect message is system, user, assistant or tool", build.Clip(role, 100))
	}
	if k := build.UnknownCallKey(msg, messageKeys); k != "" {
		return fmt.Sprintf("key %q names a call, a tool or a function, but Inspect messages carry calls only in tool_calls and results only in tool messages (tool_call_id, function, error)", build.Clip(k, 100))
	}
	ev := &run.Event{Index: i, Role: role}
	var blockCalls []blockCall
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		ev.Content = build.BlockText(c)
		var err string
		if blockCalls, err = contentBlocks(c); err != "" {
			return err
		}
	default:
		return "content: want a string or a list of content objects, got " + build.Kind(c)
	}
	if role != "tool" {
		if _, ok := msg["function"]; ok && msg["function"] != nil {
			return fmt.Sprintf("function on a %s message: only a tool message names the function that ran (is the role wrong?)", role)
		}
		if msg["error"] != nil || msg["tool_error"] != nil {
			return fmt.Sprintf("error on a %s message: only a tool message carries a call's error (is the role wrong?)", role)
		}
	}
	if role != "assistant" && msg["tool_calls"] != nil {
		return fmt.Sprintf("tool_calls on a %s message: only an assistant requests calls", role)
	}
	rn.Events = append(rn.Events, ev)

	switch role {
	case "tool":
		if err := result(m, rn, ev, msg); err != "" {
			return err
		}
	case "user":
		// ChatMessageUser.tool_call_id lists the calls whose payload
		// (an image a computer tool took) the message carries: data, not
		// a result, as the tool message already answered them.
		switch ids := msg["tool_call_id"].(type) {
		case nil:
		case []any:
			for j, id := range ids {
				if _, ok := id.(string); !ok {
					return fmt.Sprintf("tool_call_id[%d]: want a string, got %s", j, build.Kind(id))
				}
			}
		default:
			return "tool_call_id: on a user message want a list of strings, got " + build.Kind(ids)
		}
	default:
		if msg["tool_call_id"] != nil {
			return fmt.Sprintf("tool_call_id on a %s message: only a tool message answers a call (is the role wrong?)", role)
		}
	}
	// Calls the provider ran itself (ContentToolUse blocks) are requested
	// and answered where they stand, before the message's own tool_calls.
	for _, bc := range blockCalls {
		m.Request(rn, ev, bc.call)
		m.Answer(rn, ev.Index, bc.result)
	}
	switch tcs := msg["tool_calls"].(type) {
	case nil:
	case []any:
		for j, raw := range tcs {
			c, err := toolCall(raw)
			if err != "" {
				return fmt.Sprintf("tool_calls[%d]: %s", j, err)
			}
			m.Request(rn, ev, c)
		}
	default:
		return "tool_calls: want a list, got " + build.Kind(tcs)
	}
	if md, ok := msg["metadata"].(map[string]any); ok {
		if err := build.ScanRest(md, nil, "metadata"); err != "" {
			return err
		}
	}
	return build.ScanRest(msg, messageKeys, "")
}

// toolCallKeys are the members of Inspect's ToolCall the reader knows.
var toolCallKeys = map[string]bool{
	"id": true, "function": true, "arguments": true, "parse_error": true,
	"view": true, "type": true, "internal": true, "internal_name": true,
}

// toolCall reads one ToolCall {id, function, arguments, parse_error}.
func toolCall(raw any) (*run.Call, string) {
	tc, ok := raw.(map[string]any)
	if !ok {
		return nil, "is " + build.Kind(raw) + ", want an object {id, function, arguments}"
	}
	id, err := build.OptString(tc, "id")
	if err != "" {
		return nil, err
	}
	name, ok := tc["function"].(string)
	if !ok {
		if fn, isObj := tc["function"].(map[string]any); isObj && fn["name"] != nil {
			return nil, "function: an object {name, arguments} is OpenAI's tool call shape (openai-messages?); an Inspect ToolCall's function is the tool's name"
		}
		return nil, "function: want a string (the tool's name), got " + build.KindOrMissing(tc, "function")
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = build.ParseArgs("arguments", tc["arguments"])
	// Inspect keeps the raw text of arguments that did not parse in
	// parse_error, with arguments {}: the call is malformed, never a
	// call without arguments.
	pe, err := build.OptString(tc, "parse_error")
	if err != "" {
		return nil, err
	}
	if pe != "" && c.ArgsError == "" {
		c.ArgsError = "arguments did not parse: " + build.Clip(pe, 200)
	}
	if err := build.ScanRest(tc, toolCallKeys, "tool_call"); err != "" {
		return nil, err
	}
	return c, ""
}

// result reads a ChatMessageTool: tool_call_id, function and error
// {type, message} (older logs: tool_error, a string).
func result(m *build.Matcher, rn *run.Run, ev *run.Event, msg map[string]any) string {
	callID, err := build.OptString(msg, "tool_call_id")
	if err != "" {
		return err
	}
	fn, err := build.OptString(msg, "function")
	if err != "" {
		return err
	}
	a := build.Result{CallID: callID, RanTool: fn, Content: ev.Content}
	switch e := msg["error"].(type) {
	case nil:
		te, err := build.OptString(msg, "tool_error")
		if err != "" {
			return err
		}
		if te != "" {
			a.Failed, a.Err = true, te
		}
	case map[string]any:
		typ, _ := e["type"].(string)
		text, _ := e["message"].(string)
		switch {
		case text != "":
			a.Err = text
		case typ != "":
			a.Err = typ
		default:
			return "error: want {type, message} with a string type or message, got " + build.Clip(fmt.Sprint(e), 100)
		}
		a.Failed = true
	default:
		return "error: want an object {type, message} or null, got " + build.Kind(e)
	}
	c := m.Answer(rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error = callID, c.Tool, a.Failed, a.Err
	return ""
}

// blockCall is a call a ContentToolUse block records with its result.
type blockCall struct {
	call   *run.Call
	result build.Result
}

// Inspect's content types that carry no call.
var plainBlocks = map[string]bool{
	"text": true, "reasoning": true, "image": true, "audio": true,
	"video": true, "data": true, "document": true,
}

// contentBlocks checks a content list and reads its tool_use blocks
// (ContentToolUse: a call the model provider ran itself, such as a web
// search, with its result): any other block whose type names a call is
// refused, never read as text.
func contentBlocks(blocks []any) ([]blockCall, string) {
	var calls []blockCall
	for j, raw := range blocks {
		b, ok := raw.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("content[%d]: want an object, got %s", j, build.Kind(raw))
		}
		typ, ok := b["type"].(string)
		if !ok {
			return nil, fmt.Sprintf("content[%d].type: want a string, got %s", j, build.KindOrMissing(b, "type"))
		}
		at := fmt.Sprintf("content[%d]", j)
		switch {
		case plainBlocks[typ]:
			continue
		case typ == "tool_use":
			name, ok := b["name"].(string)
			if !ok {
				return nil, at + ".name: want a string, got " + build.KindOrMissing(b, "name")
			}
			if _, ok := b["input"]; ok {
				return nil, at + `: a tool_use block with "input" is Anthropic's shape (anthropic-messages?); Inspect's has "arguments"`
			}
			id, err := build.OptString(b, "id")
			if err != "" {
				return nil, at + "." + err
			}
			c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
			c.Args, c.ArgsError = build.ParseArgs("arguments", b["arguments"])
			res := build.Result{CallID: id, Content: fmt.Sprint(b["result"])}
			if s, ok := b["result"].(string); ok || b["result"] == nil {
				res.Content = s
			}
			switch e := b["error"].(type) {
			case nil:
			case string:
				res.Failed, res.Err = e != "", e
			default:
				return nil, at + ".error: want a string or null, got " + build.Kind(e)
			}
			calls = append(calls, blockCall{call: c, result: res})
		case build.NamesCall(typ):
			return nil, fmt.Sprintf("%s: content of type %q, which this reader does not read as a call: Inspect's calls are tool_calls and tool_use content", at, build.Clip(typ, 100))
		default:
			if err := build.ScanRest(b, map[string]bool{"type": true}, at); err != "" {
				return nil, err
			}
		}
	}
	return calls, ""
}
