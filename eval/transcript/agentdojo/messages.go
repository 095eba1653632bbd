package agentdojo

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Keys read in a message; build.UnknownCallKey refuses another key that
// names a call, and build.ScanRest searches the others for one.
var (
	messageKeys = map[string]bool{"role": true, "content": true, "tool_calls": true,
		"tool_call_id": true, "tool_call": true, "error": true}
	// placeholder_args are the templates of an injection task's ground
	// truth ("$content"), null in agent runs: not what was sent or ran.
	functionCallKeys = map[string]bool{"function": true, "args": true, "id": true, "placeholder_args": true}
	blockKeys        = map[string]bool{"type": true, "content": true, "id": true}
)

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
		return fmt.Sprintf("role %q: AgentDojo's messages are system, user, assistant and tool", build.Clip(role, 100))
	}
	if k := build.UnknownCallKey(msg, messageKeys); k != "" {
		return fmt.Sprintf("key %q names a call, a tool or a function, but AgentDojo's messages carry calls only in an assistant's tool_calls and results only in tool messages (tool_call_id, tool_call, error)", k)
	}
	if role != "tool" {
		for _, k := range []string{"tool_call_id", "tool_call", "error"} {
			if msg[k] != nil {
				return fmt.Sprintf("%s on a message with role %q: only a tool message carries a result", k, role)
			}
		}
	}
	if role != "assistant" && msg["tool_calls"] != nil {
		return fmt.Sprintf("tool_calls on a message with role %q: only an assistant message requests calls", role)
	}
	ev := &run.Event{Index: i, Role: role}
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		text, err := blocks(c)
		if err != "" {
			return err
		}
		ev.Blocks, ev.Content = c, text
	default:
		return "content: want a string, null or a list of content blocks, got " + build.Kind(c)
	}
	rn.Events = append(rn.Events, ev)
	if role == "tool" {
		if err := result(m, rn, ev, msg); err != "" {
			return err
		}
	}
	if tcs, present := msg["tool_calls"]; present && tcs != nil {
		list, ok := tcs.([]any)
		if !ok {
			return "tool_calls: want a list of FunctionCalls or null, got " + build.Kind(tcs)
		}
		for j, raw := range list {
			at := fmt.Sprintf("tool_calls[%d]", j)
			c, err := functionCall(at, raw)
			if err != "" {
				return err
			}
			m.Request(rn, ev, c)
		}
	}
	return terms.ScanRest(msg, messageKeys, "")
}

// blocks reads a list of AgentDojo content blocks (package ≥ 0.1.30):
// {"type": "text" | "thinking" | "redacted_thinking", "content": string}
// (a thinking block also has "id", Anthropic's signature). It returns the
// text blocks' content joined with "\n": thinking is not what the model
// said (AgentDojo's own model_output joins every block, thinking too).
func blocks(list []any) (string, string) {
	var sb strings.Builder
	first := true
	for j, raw := range list {
		b, ok := raw.(map[string]any)
		if !ok {
			return "", fmt.Sprintf("content[%d]: is %s, want a content block {type, content}", j, build.Kind(raw))
		}
		typ, ok := b["type"].(string)
		if !ok {
			return "", fmt.Sprintf("content[%d].type: want a string, got %s", j, build.KindOrMissing(b, "type"))
		}
		switch typ {
		case "text", "thinking", "redacted_thinking":
		default:
			return "", fmt.Sprintf("content[%d]: block type %q: AgentDojo's content blocks are text, thinking and redacted_thinking", j, build.Clip(typ, 100))
		}
		text, ok := b["content"].(string)
		if !ok {
			if _, isText := b["text"]; isText && typ == "text" {
				return "", fmt.Sprintf(`content[%d]: a text block with "text", not "content": AgentDojo's blocks are {"type": "text", "content": ...} (an OpenAI or Anthropic block? its format is openai-messages or anthropic-messages)`, j)
			}
			return "", fmt.Sprintf("content[%d].content: want a string, got %s", j, build.KindOrMissing(b, "content"))
		}
		if id := b["id"]; id != nil {
			if _, ok := id.(string); !ok || typ != "thinking" {
				return "", fmt.Sprintf("content[%d].id: want a string on a thinking block, got %s", j, build.Kind(id))
			}
		}
		if err := terms.ScanRest(b, blockKeys, fmt.Sprintf("content[%d]", j)); err != "" {
			return "", err
		}
		if typ != "text" {
			continue
		}
		if !first {
			sb.WriteByte('\n')
		}
		first = false
		sb.WriteString(text)
	}
	return sb.String(), ""
}

// functionCall reads an AgentDojo FunctionCall {function, args, id,
// placeholder_args} at field as a requested call.
func functionCall(field string, raw any) (*run.Call, string) {
	fc, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("%s: is %s, want a FunctionCall {function, args, id}", field, build.Kind(raw))
	}
	name, ok := fc["function"].(string)
	if !ok {
		if f, isObj := fc["function"].(map[string]any); isObj && f["name"] != nil {
			return nil, fmt.Sprintf(`%s.function: an object {name, arguments}: an OpenAI tool call? its format is openai-messages; AgentDojo's FunctionCall is {"function": NAME, "args": {...}}`, field)
		}
		return nil, fmt.Sprintf("%s.function: want a string, got %s", field, build.KindOrMissing(fc, "function"))
	}
	id, err := build.OptString(fc, "id")
	if err != "" {
		return nil, field + "." + err
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1, Args: map[string]any{}}
	switch a := fc["args"].(type) {
	case map[string]any:
		c.Args = a
	default:
		// Not a record error: the call is reported as malformed, never
		// read as a call without arguments.
		c.ArgsError = fmt.Sprintf("%s.args: want an object, got %s", field, build.KindOrMissing(fc, "args"))
	}
	if err := terms.ScanRest(fc, functionCallKeys, field); err != "" {
		return nil, err
	}
	return c, ""
}

// result reads a tool message: the call it answers (tool_call_id), what
// ran (tool_call, a FunctionCall) and its error.
func result(m *build.Matcher, rn *run.Run, ev *run.Event, msg map[string]any) string {
	callID, err := build.OptString(msg, "tool_call_id")
	if err != "" {
		return err
	}
	a := build.Result{CallID: callID, Content: ev.Content}
	if tc := msg["tool_call"]; tc != nil {
		ran, err := functionCall("tool_call", tc)
		if err != "" {
			return err
		}
		if ran.ArgsError != "" {
			return ran.ArgsError
		}
		a.RanTool, a.RanArgs, a.RanID = ran.Tool, ran.Args, ran.ID
	}
	e := msg["error"]
	if _, ok := e.(string); e != nil && !ok {
		return "error: want a string or null, got " + build.Kind(e)
	}
	// build's reading of an error string: "" is none; white space or
	// "None" says neither (unknown).
	if a.Failed, a.Err, a.Unknown, err = build.ResultOutcome(map[string]any{"error": e}, ev.Content); err != "" {
		return err
	}
	c := m.Answer(rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error, ev.FailedUnknown = callID, c.Tool, a.Failed, a.Err, a.Unknown
	return ""
}
