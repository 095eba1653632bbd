package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Roles of the events. A tools/call request is the agent's request of a
// call (an assistant event, as in the other formats), its response a tool
// event; every other message is a protocol event.
const (
	roleRequest  = "assistant"
	roleResult   = "tool"
	roleProtocol = "mcp"
)

// Unknown outcomes of a call whose response the log does not hold.
const (
	noResponse = "the session log holds no response to this tools/call request: whether the tool ran is unknown"
	cancelled  = "the client cancelled this tools/call request (notifications/cancelled) before a response: whether the tool ran is unknown"
)

// pending is a request awaiting its response.
type pending struct {
	method string
	side   side // who sent it, as its method tells
	event  int
	line   int
	call   *run.Call // the call of a tools/call request, else nil
	task   bool      // params.task: a task-augmented request
	taskID string    // params.taskId of a tasks/get, tasks/result or tasks/cancel request
}

// decoder holds one session's state while its messages are read.
type decoder struct {
	rn   *run.Run
	m    build.Matcher
	msgs []any
	// pending holds the requests awaiting a response, by idKey: at most
	// one, or one from each side when their methods tell the sides apart
	// (ids.go).
	pending map[string][]*pending
	// idText maps a call id's text to its idKey, to refuse a number id and
	// a string id with the same text (JSON-RPC's ids 1 and "1" differ, a
	// run's call ids would not).
	idText map[string]string
	used   map[string]bool // tools/call request ids seen (idKey)
	done   map[string]int  // the line of the last response to each id (idKey)
	cancel map[*run.Call]bool
	// tasks holds every task id the log reports (tasks.go), taskCalls the
	// task of each task-augmented call a CreateTaskResult answered.
	tasks     map[string]*task
	taskCalls map[*run.Call]*task
	meta      map[string]any
	line      int
}

// Decode decodes one session (the whole file, as Frame gives it): it is
// the format's frame.Decoder. A msg about one message names its line
// with frame.AtLine ("line 3: ...", nothing for line 1), a line of the
// file since the record starts at line 1, so the registry reports it at
// file:3; a msg about
// the whole session (no message at all, build.Finish's) is at file:1.
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	d := &decoder{
		rn:      &run.Run{Meta: map[string]any{}},
		pending: map[string][]*pending{},
		idText:  map[string]string{},
		used:    map[string]bool{},
		done:    map[string]int{},
		cancel:  map[*run.Call]bool{},
		meta:    map[string]any{},

		tasks:     map[string]*task{},
		taskCalls: map[*run.Call]*task{},
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		d.line = n + 1
		if msg := d.decodeLine(line); msg != "" {
			return nil, false, frame.AtLine(d.line, msg)
		}
	}
	if len(d.msgs) == 0 {
		return nil, false, "no JSON-RPC message"
	}
	d.rn.Record = map[string]any{"messages": d.msgs}
	d.rn.Meta = d.meta
	d.finishTasks()
	if msg := build.Finish(d.rn); msg != "" {
		return nil, false, msg
	}
	// A request without a response may have run: unknown, never "did not
	// run" (a send whose response the log lost would escape); so may the
	// tool of a task still working, completed with no result in the log,
	// or cancelled.
	for _, c := range d.rn.Calls {
		if t := d.taskCalls[c]; t != nil {
			if why := taskUnknown(c, t); why != "" {
				c.Ok, c.OkUnknown = false, why
			}
			continue
		}
		if c.ResultEvent == -1 && c.Parent == -1 && c.OkUnknown == "" {
			c.Ok, c.OkUnknown = false, noResponse
			if d.cancel[c] {
				c.OkUnknown = cancelled
			}
		}
	}
	return d.rn, false, ""
}

// decodeLine reads one line: a JSON-RPC message, or a batch of them (a
// JSON array, allowed by MCP 2025-03-26 and removed in 2025-06-18).
func (d *decoder) decodeLine(line []byte) string {
	v, msg := build.DecodeJSON(line, true)
	if msg != "" {
		return msg
	}
	if batch, ok := v.([]any); ok {
		if len(batch) == 0 {
			return "an empty JSON-RPC batch"
		}
		for i, m := range batch {
			if msg := d.message(m); msg != "" {
				return fmt.Sprintf("batch[%d]: %s", i, msg)
			}
		}
		return ""
	}
	return d.message(v)
}

// message adds one JSON-RPC message as one event.
func (d *decoder) message(v any) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return "is " + build.Kind(v) + ", want a JSON-RPC message (an object)"
	}
	if msg := notJSONRPC(obj); msg != "" {
		return msg
	}
	ev := &run.Event{Index: len(d.rn.Events), Role: roleProtocol}
	d.rn.Events = append(d.rn.Events, ev)
	d.msgs = append(d.msgs, obj)
	method, hasMethod := obj["method"]
	_, hasResult := obj["result"]
	_, hasError := obj["error"]
	switch {
	case hasMethod:
		name, ok := method.(string)
		if !ok {
			return "method: want a string, got " + build.Kind(method)
		}
		if hasResult || hasError {
			return "a message with a method and a result or an error: neither a request nor a response"
		}
		if _, ok := obj["id"]; ok {
			return d.request(obj, ev, name)
		}
		return d.notification(obj, name)
	case hasResult && hasError:
		return "a response with both a result and an error"
	case hasResult || hasError:
		return d.response(obj, ev)
	}
	return "neither a request, a notification nor a response (no method, result or error)"
}

// notJSONRPC says why obj is not a JSON-RPC 2.0 message, naming the likely
// format when it is another's, or returns "".
func notJSONRPC(obj map[string]any) string {
	if v, ok := obj["jsonrpc"]; ok {
		if v != "2.0" {
			return fmt.Sprintf("jsonrpc: want \"2.0\", got %s", jsonText(v))
		}
		return ""
	}
	if inner, ok := obj["message"].(map[string]any); ok && inner["jsonrpc"] != nil {
		return `a JSON-RPC message wrapped by a logging tool (under "message"): this reader reads the bare messages, one a line (unwrap them, e.g. jq -c .message)`
	}
	if _, ok := obj["messages"]; ok {
		return `not a JSON-RPC 2.0 message (no "jsonrpc": "2.0") but a record with "messages": an openai-messages or anthropic-messages transcript? (--transcript-format)`
	}
	if _, ok := obj["resourceSpans"]; ok {
		return `not a JSON-RPC 2.0 message (no "jsonrpc": "2.0") but OTLP spans: an otel-genai trace? (--transcript-format)`
	}
	return `not a JSON-RPC 2.0 message (no "jsonrpc": "2.0"): an MCP session log holds one JSON-RPC message a line`
}

// idKey is a request id as JSON-RPC compares it: a string or a number,
// never equal to each other; its text is the call's id in the run.
func idKey(v any) (key, text, msg string) {
	switch id := v.(type) {
	case string:
		return "s" + id, id, ""
	case float64:
		t := strconv.FormatFloat(id, 'f', -1, 64)
		return "n" + t, t, ""
	}
	return "", "", "id: want a string or a number, got " + build.Kind(v)
}

// request reads a request: tools/call is a call; any other method is a
// protocol event, awaiting its response.
func (d *decoder) request(obj map[string]any, ev *run.Event, method string) string {
	key, text, msg := idKey(obj["id"])
	if msg != "" {
		return msg
	}
	if other, ok := d.idText[text]; ok && other != key {
		return fmt.Sprintf("id %s: JSON-RPC tells the ids 1 and \"1\" apart, but both forms of %q are in this session, so the run's call ids would be the same", jsonText(obj["id"]), build.Clip(text, 100))
	}
	d.idText[text] = key
	s := sideOf(method)
	for _, p := range d.pending[key] {
		if sameSpace(p.side, s) {
			return fmt.Sprintf("id %s: the %s request of line %d with this id has no response yet, so which request a response answers is unclear", jsonText(obj["id"]), build.Clip(p.method, 100), p.line)
		}
	}
	p := &pending{method: method, side: s, event: ev.Index, line: d.line}
	d.pending[key] = append(d.pending[key], p)
	params, err := paramsOf(obj)
	if err != "" {
		return err
	}
	if _, ok := params["task"].(map[string]any); ok {
		p.task = true // its response may be a CreateTaskResult (fits)
	}
	switch method {
	case "tasks/get", "tasks/result", "tasks/cancel":
		p.taskID, err = taskParam(params)
		return err
	case "tools/call":
		if d.used[key] {
			return fmt.Sprintf("id %s: a tools/call request id used again in the session (MCP forbids it), so which call a response answers is unclear", jsonText(obj["id"]))
		}
		d.used[key] = true
		return d.toolsCall(params, ev, text, p)
	case "initialize":
		if v, ok := params["protocolVersion"]; ok {
			d.meta["protocolVersion"] = v
		}
		if v, ok := params["clientInfo"]; ok {
			d.meta["clientInfo"] = v
		}
	case "sampling/createMessage":
		// The server asks the client's model for a message; a tool use in
		// it (MCP 2025-11-25) would be a call this reader does not read.
		return scanRest(params, nil, "params")
	}
	return ""
}

// paramsOf returns the message's params object (empty when absent).
func paramsOf(obj map[string]any) (map[string]any, string) {
	switch p := obj["params"].(type) {
	case nil:
		return map[string]any{}, ""
	case map[string]any:
		return p, ""
	default:
		return nil, "params: want an object, got " + build.Kind(p)
	}
}

// Keys of tools/call params and of its result that the reader reads;
// build.ScanRest searches the others for a call.
var (
	callKeys   = map[string]bool{"name": true, "arguments": true, "task": true, "_meta": true}
	resultKeys = map[string]bool{"content": true, "structuredContent": true, "isError": true, "_meta": true}
)

// toolsCall reads a tools/call request's params as a call.
func (d *decoder) toolsCall(params map[string]any, ev *run.Event, id string, p *pending) string {
	ev.Role = roleRequest
	name, ok := params["name"].(string)
	if !ok {
		return "params.name: want a string, got " + build.KindOrMissing(params, "name")
	}
	if v, ok := params["task"]; ok && !p.task {
		return "params.task: want an object (TaskMetadata), got " + build.Kind(v)
	}
	if msg := scanRest(params, callKeys, "params"); msg != "" {
		return msg
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = build.ParseArgs("params.arguments", params["arguments"])
	d.m.Request(d.rn, ev, c)
	p.call = c
	return ""
}

// notification reads a notification: a protocol event. A cancellation of
// a pending tools/call is noted on the call.
func (d *decoder) notification(obj map[string]any, method string) string {
	params, err := paramsOf(obj)
	if err != "" {
		return err
	}
	switch method {
	case "notifications/cancelled":
		if rid, ok := params["requestId"]; ok {
			key, _, msg := idKey(rid)
			if msg != "" {
				return "params.requestId: " + strings.TrimPrefix(msg, "id: ")
			}
			// Which request it cancels is clear only when one awaits a
			// response with its id (the notification may come from either
			// side).
			if ps := d.pending[key]; len(ps) == 1 && ps[0].call != nil {
				d.cancel[ps[0].call] = true
			}
		}
	case "notifications/tasks/status":
		_, msg := d.taskStatus(params, len(d.rn.Events)-1, "params")
		return msg
	}
	return ""
}

// response reads a response. One to a tools/call is its call's result. A
// response answers the pending request with its id and no other: one
// whose id answers no pending request is refused, never given to a call
// by its position (a stray response would make a call whose response the
// log lacks read as ok).
func (d *decoder) response(obj map[string]any, ev *run.Event) string {
	idv, hasID := obj["id"]
	var p *pending
	var key, text string
	result, _ := obj["result"].(map[string]any)
	_, hasResult := obj["result"]
	if hasID && idv != nil {
		var msg string
		if key, text, msg = idKey(idv); msg != "" {
			return msg
		}
		if p, msg = d.answered(key, idv, result); msg != "" {
			return msg
		}
		if p == nil {
			return d.noRequest(key, text, idv)
		}
		d.done[key] = d.line
	} else if hasResult {
		// JSON-RPC gives a null id only to an error response (a request
		// whose id could not be read): a result without an id answers
		// nothing.
		return "a response with a result and no id (or a null id) answers no request: JSON-RPC pairs a response with the request of the same id"
	}
	isTool := p != nil && p.call != nil
	var t *task
	if p != nil && result != nil {
		switch {
		case p.call != nil && p.task && result["task"] != nil:
			// A CreateTaskResult: the call's result is to come by
			// tasks/result.
			return d.createTask(p, result, ev)
		case p.method == "tasks/get" || p.method == "tasks/cancel":
			_, msg := d.taskStatus(result, ev.Index, "result")
			return msg
		}
	}
	if p != nil && p.method == "tasks/result" {
		var msg string
		if t, msg = d.taskResult(p, obj); msg != "" {
			return msg
		}
		if t != nil {
			isTool, text = true, t.call.ID
		}
	}
	if p != nil && p.method == "initialize" {
		if r, ok := obj["result"].(map[string]any); ok {
			if v, ok := r["serverInfo"]; ok {
				d.meta["serverInfo"] = v
			}
			if v, ok := r["protocolVersion"]; ok {
				d.meta["protocolVersion"] = v
			}
		}
	}
	if p != nil && p.method == "sampling/createMessage" {
		if r, ok := obj["result"].(map[string]any); ok {
			if msg := scanRest(r, nil, "result"); msg != "" {
				return msg
			}
		}
	}
	if !isTool {
		if e, ok := obj["error"]; ok {
			if _, msg := rpcError(e); msg != "" {
				return msg
			}
		}
		return ""
	}
	ev.Role = roleResult
	a := build.Result{CallID: text}
	if e, ok := obj["error"]; ok {
		text, msg := rpcError(e)
		if msg != "" {
			return msg
		}
		a.Content, a.Failed, a.Err = text, true, text
	} else {
		r, ok := obj["result"].(map[string]any)
		if !ok {
			return "result: want an object (a CallToolResult), got " + build.Kind(obj["result"])
		}
		if msg := toolResult(r, ev, &a); msg != "" {
			return msg
		}
	}
	c := d.m.Answer(d.rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error = a.CallID, c.Tool, a.Failed, a.Err
	return ""
}

// noRequest is the refusal of a response with the id key (text) that no
// pending request holds: a second response to an answered request, a
// response whose request has the id in its other form, or one whose
// request the log does not hold.
func (d *decoder) noRequest(key, text string, idv any) string {
	if other, ok := d.idText[text]; ok && other != key {
		return fmt.Sprintf("id %s answers no request, but a request has the id %q in its other form: JSON-RPC tells the ids 1 and \"1\" apart", jsonText(idv), build.Clip(text, 100))
	}
	if at, ok := d.done[key]; ok {
		return fmt.Sprintf("id %s answers no request: the request with this id was answered at line %d, and JSON-RPC gives a request one response", jsonText(idv), at)
	}
	return fmt.Sprintf("id %s answers no request: no request with this id is in the session before it (a response answers the pending request of the same id; a log that starts after the request is not read)", jsonText(idv))
}

// toolResult reads a CallToolResult into a and the event's content.
func toolResult(r map[string]any, ev *run.Event, a *build.Result) string {
	content, ok := r["content"].([]any)
	if !ok {
		if _, ok := r["task"]; ok {
			return "result.task: a CreateTaskResult (MCP 2025-11-25) answers a tools/call that asked for no task (no params.task), so whether a result is to come is unclear"
		}
		for _, k := range []string{"inputRequests", "requestState"} {
			if _, ok := r[k]; ok {
				return "result." + k + ": a tools/call that asks the client for input before it completes is not read by this reader"
			}
		}
		return "result.content: want a list of content blocks (a CallToolResult), got " + build.KindOrMissing(r, "content")
	}
	items, msg := build.ContentBlocks(content)
	if msg != "" {
		return "result." + msg
	}
	if len(items) > 0 {
		return "result.content: a tool_use or tool_result block in a tool's result is not an MCP content block"
	}
	if msg := scanRest(r, resultKeys, "result"); msg != "" {
		return msg
	}
	ev.Blocks = content
	ev.Content = ResultText(content, r["structuredContent"])
	switch e := r["isError"].(type) {
	case nil:
	case bool:
		a.Failed = e
	default:
		return "result.isError: want a boolean, got " + build.Kind(e)
	}
	a.Content = ev.Content
	if a.Failed {
		a.Err = ev.Content
		if a.Err == "" {
			a.Err = "true"
		}
	}
	return ""
}

// rpcError reads a JSON-RPC error object; text is its message, with its
// code.
func rpcError(v any) (text, msg string) {
	e, ok := v.(map[string]any)
	if !ok {
		return "", "error: want an object {code, message}, got " + build.Kind(v)
	}
	m, ok := e["message"].(string)
	if !ok {
		return "", "error.message: want a string, got " + build.KindOrMissing(e, "message")
	}
	code, ok := e["code"].(float64)
	if !ok {
		return "", "error.code: want a number, got " + build.KindOrMissing(e, "code")
	}
	return fmt.Sprintf("%s (JSON-RPC error %s)", m, strconv.FormatFloat(code, 'f', -1, 64)), ""
}

// terms are this format's words in build's refusals, whose defaults
// speak of openai-messages' shapes.
var terms = build.Terms{
	Wants:   "tools/call requests",
	Convert: "this reader reads calls only as tools/call requests",
}

// scanRest is build.ScanRest in this format's terms.
func scanRest(obj map[string]any, read map[string]bool, prefix string) string {
	return terms.ScanRest(obj, read, prefix)
}

// jsonText is v's JSON text (v was decoded from JSON, so it encodes).
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ResultText is the text of a CallToolResult that criteria and invariants
// read as the call's result: everything in it a model could read, so that
// an instruction planted in any part of it is in the text a check
// searches. It joins, one a line, a text block's text, an embedded
// resource's text, the JSON text of every other block (an image, audio, a
// blob resource, a resource link, a type this reader does not know: what
// it holds is not text the reader can extract, and skipping it would hide
// whatever a model reads from it), and structuredContent's JSON text when
// present and no text block repeats it already. Both the offline reader and the live gateway read results with
// it, so a session audited afterwards reads each result as it was checked.
func ResultText(content []any, structured any) string {
	var parts []string
	for _, raw := range content {
		b, ok := raw.(map[string]any)
		switch {
		case ok && b["type"] == "text":
			if s, ok := b["text"].(string); ok {
				parts = append(parts, s)
				continue
			}
		case ok && b["type"] == "resource":
			if r, ok := b["resource"].(map[string]any); ok {
				if s, ok := r["text"].(string); ok && r["blob"] == nil {
					parts = append(parts, s)
					continue
				}
			}
		}
		parts = append(parts, jsonText(raw))
	}
	if structured != nil && !repeated(content, structured) {
		parts = append(parts, jsonText(structured))
	}
	return strings.Join(parts, "\n")
}

// repeated reports whether a text block of content holds structured as
// JSON text, as MCP asks a server to repeat it: its text is then there
// once already.
func repeated(content []any, structured any) bool {
	want := jsonText(structured) // both sides as encoding/json writes them
	for _, raw := range content {
		b, ok := raw.(map[string]any)
		if !ok || b["type"] != "text" {
			continue
		}
		s, ok := b["text"].(string)
		var v any
		if ok && json.Unmarshal([]byte(s), &v) == nil && jsonText(v) == want {
			return true
		}
	}
	return false
}
