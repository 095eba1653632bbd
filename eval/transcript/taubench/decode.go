package taubench

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Decode is the tau-bench format's frame.Decoder. A record is a tau-bench
// trajectory {"task_id", "reward", "info", "traj", "trial"} or, as Frame
// gives it, a tau2 simulation with its file's header {"results":
// {"timestamp", "info"}, "simulation": {...}}. It never skips a record.
// A msg about one message of a record that spans lines (a pretty-printed
// file) names that message's line with frame.AtLine, so the registry
// reports the line the message starts on.
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, false, "record is " + build.Kind(v) + ", want an object (a tau-bench trajectory)"
	}
	var at int
	path := []string{"traj"}
	if sim, ok := rec["simulation"]; ok && len(rec) == 2 {
		if _, ok := rec["results"]; ok {
			path = []string{"simulation", "messages"}
			rn, skip, msg, at = tau2(rec, sim)
		}
	}
	if len(path) == 1 {
		rn, skip, msg, at = tau1(rec)
	}
	if msg != "" && at >= 0 {
		// Only now, for the error: the record's lines are not needed
		// otherwise.
		if n := messageLine(data, path, at); n > 1 {
			msg = frame.AtLine(n, msg)
		}
	}
	return rn, skip, msg
}

// messageLine returns the line of data (from 1) on which element i of
// the list at path (object members from the top) starts, or 0 when data
// has none there. data is valid JSON: Decode has read it.
func messageLine(data []byte, path []string, i int) int {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for _, key := range path {
		if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
			return 0
		}
		for {
			if dec.PeekKind() != '"' {
				return 0
			}
			name, err := dec.ReadToken()
			if err != nil {
				return 0
			}
			if name.String() == key {
				break
			}
			if err := dec.SkipValue(); err != nil {
				return 0
			}
		}
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return 0
	}
	for range i {
		if err := dec.SkipValue(); err != nil {
			return 0
		}
	}
	v, err := dec.ReadValue()
	if err != nil {
		return 0
	}
	start := dec.InputOffset() - int64(len(v))
	return 1 + bytes.Count(data[:start], []byte("\n"))
}

// Keys read in a tau-bench trajectory; the others are kept in meta. at
// is the index of the message a msg is about, or -1.
func tau1(rec map[string]any) (rn *run.Run, skip bool, msg string, at int) {
	raw, ok := rec["traj"]
	if !ok {
		if _, ok := rec["messages"]; ok {
			return nil, false, `no "traj" but "messages": an openai-messages record or a tau2 simulation outside its results file? (a tau-bench result is {"task_id", "reward", "info", "traj", "trial"})`, -1
		}
		return nil, false, `traj: missing (a tau-bench result is {"task_id", "reward", "info", "traj", "trial"})`, -1
	}
	msgs, ok := raw.([]any)
	if !ok {
		return nil, false, "traj: want a list of messages, got " + build.Kind(raw), -1
	}
	meta := map[string]any{}
	for k, v := range rec {
		if k != "traj" {
			meta[k] = v
		}
	}
	rn = &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m build.Matcher
	anyCalls := false
	for i, raw := range msgs {
		if err := tau1Message(&m, rn, i, raw); err != "" {
			return nil, false, fmt.Sprintf("traj message %d: %s", i, err), i
		}
		anyCalls = anyCalls || len(rn.Calls) > 0
	}
	if !anyCalls {
		// One event a message: the event's index is the message's.
		if i := reactAction(rn); i >= 0 {
			return nil, false, fmt.Sprintf("traj message %d: an assistant message writes its call as text (\"Action: {...}\", tau-bench's react and act agents): calls in text are not read, so the run would have no calls", i), i
		}
	}
	return finish(rn)
}

func finish(rn *run.Run) (*run.Run, bool, string, int) {
	if msg := build.Finish(rn); msg != "" {
		return nil, false, msg, -1
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, "", -1
}

// reactAction returns the index of an assistant event whose text holds a
// line starting "Action:", else -1.
func reactAction(rn *run.Run) int {
	for _, ev := range rn.Events {
		if ev.Role != "assistant" {
			continue
		}
		for _, line := range strings.Split(ev.Content, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "Action:") {
				return ev.Index
			}
		}
	}
	return -1
}

var (
	tau1MessageKeys = map[string]bool{"role": true, "content": true, "tool_calls": true,
		"function_call": true, "tool_call_id": true, "name": true}
	tau1CallKeys = map[string]bool{"id": true, "type": true, "function": true}
	tau1FuncKeys = map[string]bool{"name": true, "arguments": true}
)

// tau1Message adds tau-bench message i (OpenAI chat shape, as litellm
// dumps it) to rn.
func tau1Message(m *build.Matcher, rn *run.Run, i int, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object"
	}
	role, ok := msg["role"].(string)
	if !ok {
		return "role: want a string, got " + build.KindOrMissing(msg, "role")
	}
	role = strings.ToLower(role)
	ev := &run.Event{Index: len(rn.Events), Role: role}
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	default:
		return "content: want a string or null, got " + build.Kind(c)
	}
	if msg["function_call"] != nil {
		return "function_call: not null; tau-bench's agents call tools through tool_calls, and the legacy function_call is not read"
	}
	if role != "tool" && msg["tool_call_id"] != nil {
		return fmt.Sprintf("tool_call_id on a message with role %q: only a tool message is a result", role)
	}
	rn.Events = append(rn.Events, ev)
	if role == "tool" {
		id, err := build.OptString(msg, "tool_call_id")
		if err != "" {
			return err
		}
		name, err := build.OptString(msg, "name")
		if err != "" {
			return err
		}
		// tau-bench has no error flag: its environment answers a tool
		// that raised with "Error: <exception>" and an unknown tool with
		// "Unknown action <name>", and its tools return their own errors
		// as "Error: ..." text.
		failed := strings.HasPrefix(ev.Content, "Error: ") || strings.HasPrefix(ev.Content, "Unknown action ")
		errText := ""
		if failed {
			errText = ev.Content
		}
		c := m.Answer(rn, ev.Index, build.Result{CallID: id, RanTool: name, Content: ev.Content, Failed: failed, Err: errText})
		ev.CallID, ev.Tool, ev.Failed, ev.Error = id, c.Tool, failed, errText
	}
	switch tcs := msg["tool_calls"].(type) {
	case nil:
	case []any:
		for j, raw := range tcs {
			at := fmt.Sprintf("tool_calls[%d]", j)
			tc, ok := raw.(map[string]any)
			if !ok {
				return at + ": is " + build.Kind(raw) + ", want an object"
			}
			id, err := build.OptString(tc, "id")
			if err != "" {
				return at + "." + err
			}
			fn, ok := tc["function"].(map[string]any)
			if !ok {
				if _, has := tc["requestor"]; has {
					return at + ": a tau2 tool call {id, name, arguments, requestor} in a tau-bench traj"
				}
				return at + ".function: want an object, got " + build.KindOrMissing(tc, "function")
			}
			name, ok := fn["name"].(string)
			if !ok {
				return at + ".function.name: want a string, got " + build.KindOrMissing(fn, "name")
			}
			if err := build.ScanRest(tc, tau1CallKeys, at); err != "" {
				return err
			}
			if err := build.ScanRest(fn, tau1FuncKeys, at+".function"); err != "" {
				return err
			}
			c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
			c.Args, c.ArgsError = build.ParseArgs("arguments", fn["arguments"])
			m.Request(rn, ev, c)
		}
	default:
		return "tool_calls: want a list or null, got " + build.Kind(tcs)
	}
	return build.ScanRest(msg, tau1MessageKeys, "")
}

// tau2 reads a tau2 simulation with its results file's header. at is
// the index of the message a msg is about, or -1.
func tau2(rec map[string]any, raw any) (rn *run.Run, skip bool, msg string, at int) {
	sim, ok := raw.(map[string]any)
	if !ok {
		return nil, false, "simulation is " + build.Kind(raw) + ", want an object", -1
	}
	rawMsgs, ok := sim["messages"]
	if !ok || rawMsgs == nil {
		if _, ok := sim["ticks"]; ok {
			return nil, false, "messages: missing or null but ticks given: a full-duplex (voice) simulation, which this reader does not read", -1
		}
		return nil, false, "messages: missing or null (a tau2 simulation is {id, task_id, trial, messages, reward_info, ...})", -1
	}
	msgs, ok := rawMsgs.([]any)
	if !ok {
		return nil, false, "messages: want a list, got " + build.Kind(rawMsgs), -1
	}
	meta := map[string]any{}
	for k, v := range sim {
		if k != "messages" {
			meta[k] = v
		}
	}
	meta["results"] = rec["results"]
	// reward as tau-bench has it, so one given label reads both formats.
	meta["reward"] = nil
	switch ri := sim["reward_info"].(type) {
	case nil:
	case map[string]any:
		meta["reward"] = ri["reward"]
	default:
		return nil, false, "reward_info: want an object or null, got " + build.Kind(ri), -1
	}
	rn = &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m build.Matcher
	for i, raw := range msgs {
		if err := tau2Message(&m, rn, raw); err != "" {
			return nil, false, fmt.Sprintf("message %d: %s", i, err), i
		}
	}
	return finish(rn)
}

var (
	// raw_data is the provider's raw response, which repeats the
	// message's calls in the provider's shape: it is kept in record,
	// neither read nor searched.
	tau2MessageKeys = map[string]bool{"role": true, "content": true, "tool_calls": true, "raw_data": true}
	tau2ToolKeys    = map[string]bool{"role": true, "content": true, "id": true, "requestor": true, "error": true}
	tau2CallKeys    = map[string]bool{"id": true, "name": true, "arguments": true, "requestor": true}
)

// tau2Message adds one tau2 message (one event, or one per tool message
// of a MultiToolMessage) to rn.
func tau2Message(m *build.Matcher, rn *run.Run, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object"
	}
	role, ok := msg["role"].(string)
	if !ok {
		return "role: want a string, got " + build.KindOrMissing(msg, "role")
	}
	if role == "tool" {
		if tms, ok := msg["tool_messages"]; ok {
			list, ok := tms.([]any)
			if !ok {
				return "tool_messages: want a list, got " + build.Kind(tms)
			}
			for j, t := range list {
				tm, ok := t.(map[string]any)
				if !ok {
					return fmt.Sprintf("tool_messages[%d]: is %s, want an object", j, build.Kind(t))
				}
				if err := tau2Result(m, rn, tm); err != "" {
					return fmt.Sprintf("tool_messages[%d]: %s", j, err)
				}
			}
			return build.ScanRest(msg, map[string]bool{"role": true, "tool_messages": true}, "")
		}
		return tau2Result(m, rn, msg)
	}
	switch role {
	case "system", "user", "assistant":
	default:
		return fmt.Sprintf("role %q: a tau2 message is system, user, assistant or tool", build.Clip(role, 100))
	}
	ev := &run.Event{Index: len(rn.Events), Role: role}
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	default:
		return "content: want a string or null, got " + build.Kind(c)
	}
	if msg["tool_call_id"] != nil {
		return fmt.Sprintf("tool_call_id on a message with role %q: an OpenAI chat message (openai-messages format?); a tau2 tool message answers a call by its id", role)
	}
	rn.Events = append(rn.Events, ev)
	switch tcs := msg["tool_calls"].(type) {
	case nil:
	case []any:
		if role == "system" {
			return "tool_calls on a system message"
		}
		for j, raw := range tcs {
			at := fmt.Sprintf("tool_calls[%d]", j)
			tc, ok := raw.(map[string]any)
			if !ok {
				return at + ": is " + build.Kind(raw) + ", want an object"
			}
			if _, ok := tc["function"]; ok {
				return at + `: has "function": an OpenAI chat tool call (openai-messages format, or a tau-bench traj?); a tau2 call is {id, name, arguments, requestor}`
			}
			id, err := build.OptString(tc, "id")
			if err != "" {
				return at + "." + err
			}
			name, ok := tc["name"].(string)
			if !ok {
				return at + ".name: want a string, got " + build.KindOrMissing(tc, "name")
			}
			// The requestor is who asked for the call; it must be the
			// message's sender, as the call is read as that event's.
			req, err := build.OptString(tc, "requestor")
			if err != "" {
				return at + "." + err
			}
			if req == "" {
				req = "assistant" // tau2's default
			}
			if req != role {
				return fmt.Sprintf("%s.requestor: %q in a message of role %q: who requested the call is unclear", at, build.Clip(req, 100), role)
			}
			if err := build.ScanRest(tc, tau2CallKeys, at); err != "" {
				return err
			}
			c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
			c.Args, c.ArgsError = build.ParseArgs(at+".arguments", tc["arguments"])
			m.Request(rn, ev, c)
		}
	default:
		return "tool_calls: want a list or null, got " + build.Kind(tcs)
	}
	return build.ScanRest(msg, tau2MessageKeys, "")
}

// tau2Result adds a tau2 ToolMessage {id, role, content, requestor, error}.
func tau2Result(m *build.Matcher, rn *run.Run, msg map[string]any) string {
	if r, _ := msg["role"].(string); r != "tool" {
		return fmt.Sprintf("role: want \"tool\", got %s", build.KindOrMissing(msg, "role"))
	}
	if msg["tool_call_id"] != nil {
		return `tool_call_id: an OpenAI chat tool message (openai-messages format?); a tau2 tool message names its call by "id"`
	}
	id, err := build.OptString(msg, "id")
	if err != "" {
		return err
	}
	ev := &run.Event{Index: len(rn.Events), Role: "tool", CallID: id}
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	default:
		return "content: want a string or null, got " + build.Kind(c)
	}
	switch e := msg["error"].(type) {
	case nil:
	case bool:
		ev.Failed = e
	default:
		return "error: want a boolean, got " + build.Kind(e)
	}
	if ev.Failed {
		ev.Error = ev.Content
		if ev.Error == "" {
			ev.Error = "true"
		}
	}
	if req, err := build.OptString(msg, "requestor"); err != "" {
		return err
	} else if req != "" && req != "user" && req != "assistant" {
		return fmt.Sprintf("requestor: %q, want \"user\" or \"assistant\"", build.Clip(req, 100))
	}
	rn.Events = append(rn.Events, ev)
	c := m.Answer(rn, ev.Index, build.Result{CallID: id, Content: ev.Content, Failed: ev.Failed, Err: ev.Error})
	ev.Tool = c.Tool
	if req, _ := msg["requestor"].(string); req != "" && c.Event >= 0 && c.Event < len(rn.Events) && c.ResultEvent == ev.Index {
		if got := rn.Events[c.Event].Role; got != "tool" && got != req {
			return fmt.Sprintf("requestor %q, but call %q was requested by the %s", req, build.Clip(id, 100), got)
		}
	}
	return build.ScanRest(msg, tau2ToolKeys, "")
}
