package anthropic

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Decode decodes one anthropic-messages record: it is the format's
// frame.Decoder. It returns skip for a header line, or a non-empty msg
// saying why the record is malformed.
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		if t := strings.TrimSpace(string(data)); t == "[" || t == "{" {
			// A line of pretty-printed JSON (Frame makes a file that
			// starts so one error).
			msg += fmt.Sprintf(" (%q alone on a line: pretty-printed JSON? this reader wants JSONL, one record a line: %s)", t, jqHint(t))
		}
		return nil, false, msg
	}
	switch rec := v.(type) {
	case []any:
		// A bare list of messages: the record criteria see is
		// {"messages": [...]}, so that record.messages reads it.
		return conversation(map[string]any{"messages": rec}, rec, nil, nil, map[string]any{})
	case map[string]any:
		return record(rec)
	default:
		return nil, false, "record is " + build.Kind(v) + ", want an object or a list of messages"
	}
}

// Members of a request that are read (system, messages, metadata) or
// declare tools (tools, tool_choice, mcp_servers: a declaration is not a
// call, and Anthropic's {"name", "input_schema"} or server tool
// {"type": "web_search_20250305", "name"} would only be searched for
// nothing). The others (model, max_tokens, temperature, thinking, ...) are
// searched for call shapes.
var requestKeys = map[string]bool{
	"messages": true, "system": true, "metadata": true,
	"tools": true, "tool_choice": true, "mcp_servers": true,
}

// Members of a Message (the response) that are read or are data: usage
// counts server tool requests under "server_tool_use", a number, not a
// call.
var responseKeys = map[string]bool{
	"id": true, "type": true, "role": true, "content": true, "model": true,
	"stop_reason": true, "stop_sequence": true, "usage": true, "container": true,
}

// record reads an object record: a logged call {request, response}, a
// request body {messages, ...}, or a header line.
func record(rec map[string]any) (*run.Run, bool, string) {
	if msg := misspelt(rec, ""); msg != "" {
		return nil, false, msg
	}
	meta := map[string]any{}
	switch m := rec["metadata"].(type) {
	case nil:
	case map[string]any:
		meta = m
	default:
		return nil, false, "metadata: want an object, got " + build.Kind(m)
	}
	if reqV, ok := rec["request"]; ok {
		if _, both := rec["messages"]; both {
			return nil, false, `both "request" and "messages": which is the conversation is unclear`
		}
		req, ok := reqV.(map[string]any)
		if !ok {
			return nil, false, "request: want an object (a Messages API request), got " + build.Kind(reqV)
		}
		if msg := misspelt(req, "request: "); msg != "" {
			return nil, false, msg
		}
		response := rec["response"]
		at := "request."
		if _, ok := req["body"]; ok {
			var msg string
			if req, response, msg = httpExchange(req, response); msg != "" {
				return nil, false, msg
			}
			at = "request.body."
		}
		if _, ok := rec["metadata"]; !ok {
			// The request's own metadata ({"user_id"}) when the record has none.
			if m, ok := req["metadata"].(map[string]any); ok {
				meta = m
			}
		}
		if msg := scanRest(rec, map[string]bool{"request": true, "response": true, "metadata": true}, ""); msg != "" {
			return nil, false, "record member " + msg
		}
		msgs, msg := requestMessages(req, at)
		if msg != "" {
			return nil, false, msg
		}
		if msg := scanRest(req, requestKeys, strings.TrimSuffix(at, ".")); msg != "" {
			return nil, false, msg
		}
		return conversation(rec, msgs, req["system"], response, meta)
	}
	if _, ok := rec["messages"]; ok {
		msgs, msg := requestMessages(rec, "")
		if msg != "" {
			return nil, false, msg
		}
		read := map[string]bool{"response": true}
		for k := range requestKeys {
			read[k] = true
		}
		if msg := scanRest(rec, read, ""); msg != "" {
			return nil, false, "record member " + msg
		}
		return conversation(rec, msgs, rec["system"], rec["response"], meta)
	}
	if typ, _ := rec["type"].(string); typ == "message" {
		if _, ok := rec["role"]; ok {
			return nil, false, `a Messages API response (type "message") without its request: log {"request": ..., "response": ...} so that the conversation is there`
		}
	}
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	sort.Strings(names)
	if msg := terms.FindTranscript(rec, names); msg != "" {
		return nil, false, `no "messages" or "request" member, but ` + msg
	}
	return nil, true, ""
}

// misspelt says why obj spells a member this reader reads in another case
// or with white space around it ("Messages", "system "), with the exact
// name absent, or returns "": JSON names are case-sensitive, so the
// member would be passed over — a run read as a header line, without its
// system prompt, response or metadata. Names are looked at in sorted
// order, so the reason does not depend on member order.
func misspelt(obj map[string]any, at string) string {
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, known := range []string{"messages", "metadata", "request", "response", "system"} {
		if _, ok := obj[known]; ok {
			continue
		}
		for _, k := range names {
			if strings.EqualFold(strings.TrimSpace(k), known) {
				return fmt.Sprintf(`%sno %q member, but %s: member names are case-sensitive (a misspelt %q?)`, at, known, build.Clip(fmt.Sprintf("%q", k), 100), known)
			}
		}
	}
	return ""
}

// requestMessages returns the request's messages list.
func requestMessages(req map[string]any, at string) ([]any, string) {
	v, ok := req["messages"]
	if !ok {
		if _, ok := req["input"]; ok {
			return nil, at + `messages: missing, but "input": an OpenAI Responses API request? read it with the format "openai-responses"`
		}
		if _, ok := req["contents"]; ok {
			return nil, at + `messages: missing, but "contents": a Gemini generateContent request? no tenet format reads it`
		}
		return nil, at + "messages: missing"
	}
	msgs, ok := v.([]any)
	if !ok {
		return nil, at + "messages: want a list, got " + build.Kind(v)
	}
	return msgs, ""
}

// conversation builds the run: the system prompt, the messages, then the
// response.
func conversation(rec map[string]any, msgs []any, system, response any, meta map[string]any) (*run.Run, bool, string) {
	rn := &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs)+2)}
	cv := &conv{rn: rn}
	if msg := systemEvent(rn, system); msg != "" {
		return nil, false, msg
	}
	for i, raw := range msgs {
		if msg := cv.message(raw, false); msg != "" {
			return nil, false, fmt.Sprintf("message %d: %s", i, msg)
		}
	}
	if response != nil {
		if _, ok := response.(string); ok {
			return nil, false, "response: a string, not a Message object (a streamed response's server-sent events?): this reader reads the Message, not the stream of events that builds it"
		}
		if r, ok := response.(map[string]any); ok {
			if r["type"] == "error" {
				return nil, false, `response: an API error (type "error"), not a Message: the request got no answer, so there is no final turn to judge`
			}
			if _, ok := r["input_tokens"]; ok && r["role"] == nil && r["type"] == nil {
				return nil, false, `response: {"input_tokens": ...} is not a Message (a count_tokens result?): counting a request's tokens runs no turn, so there is nothing to judge`
			}
		}
		if msg := cv.message(response, true); msg != "" {
			return nil, false, "response: " + msg
		}
	}
	if msg := build.Finish(rn); msg != "" {
		return nil, false, msg
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, ""
}

// systemEvent adds the system prompt, a string or a list of text blocks,
// as an event of role "system"; "" and null add none.
func systemEvent(rn *run.Run, system any) string {
	ev := &run.Event{Index: len(rn.Events), Role: "system"}
	switch s := system.(type) {
	case nil:
		return ""
	case string:
		if s == "" {
			return ""
		}
		ev.Content = s
	case []any:
		for i, raw := range s {
			b, ok := raw.(map[string]any)
			if !ok || b["type"] != "text" {
				return fmt.Sprintf("system[%d]: want a text block, got %s", i, blockKind(raw))
			}
			if _, ok := b["text"].(string); !ok {
				return fmt.Sprintf("system[%d]: text: want a string, got %s", i, build.KindOrMissing(b, "text"))
			}
			if msg := scanRest(b, textKeys, fmt.Sprintf("system[%d]", i)); msg != "" {
				return msg
			}
		}
		ev.Blocks = s
		ev.Content = build.BlockText(s)
	default:
		return "system: want a string or a list of text blocks, got " + build.Kind(s)
	}
	rn.Events = append(rn.Events, ev)
	return ""
}

// blockKind names what a block is, for messages.
func blockKind(v any) string {
	if b, ok := v.(map[string]any); ok {
		if t, ok := b["type"].(string); ok {
			return fmt.Sprintf("a %q block", build.Clip(t, 100))
		}
	}
	return build.Kind(v)
}

// OpenAI chat message keys: on an Anthropic message they say the
// transcript is OpenAI's, whose calls and results this reader would not
// see.
var openAIKeys = []string{"tool_calls", "tool_call_id", "function_call"}

const openAIHint = `an OpenAI chat transcript? read it with the format "openai-messages"`

// conv is the state of one run being built: its calls and results are
// matched by m; servers maps each server_tool_use block's id to the index
// of its call in rn.Calls (-1 when two blocks share the id), so that a
// call a server tool made (a tool_use whose caller names it) is nested
// under it.
type conv struct {
	rn      *run.Run
	m       build.Matcher
	servers map[string]int
}

// message adds one message (or the response, a Message object) to the run.
func (cv *conv) message(raw any, isResponse bool) string {
	rn := cv.rn
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object"
	}
	givenRole, ok := msg["role"].(string)
	if !ok {
		if _, present := msg["role"]; !present {
			if t, ok := msg["type"].(string); ok {
				return fmt.Sprintf("role: missing, and type %q: an OpenAI Responses API item? read it with the format \"openai-responses\" (this reader wants Messages API messages {role, content})", build.Clip(t, 100))
			}
			return "role: missing"
		}
		return "role: want a string, got " + build.Kind(msg["role"])
	}
	role := strings.ToLower(givenRole)
	for _, k := range openAIKeys {
		if _, ok := msg[k]; ok {
			return fmt.Sprintf("key %q: the Messages API has no such member (%s)", k, openAIHint)
		}
	}
	switch role {
	case "user", "assistant":
	case "system":
		if t := toolChange(msg["content"]); t != "" {
			return fmt.Sprintf("role %q with a %q block: a beta mid-conversation system message (it changes the tools offered from here on), which this reader does not read: a system prompt is the request's top-level \"system\"", build.Clip(givenRole, 100), t)
		}
		return fmt.Sprintf("role %q: the Messages API has no system messages, its system prompt is the top-level \"system\" (%s)", build.Clip(givenRole, 100), openAIHint)
	case "tool", "function", "developer":
		return fmt.Sprintf("role %q: Messages API roles are \"user\" and \"assistant\" (%s)", build.Clip(givenRole, 100), openAIHint)
	default:
		return fmt.Sprintf("role %q: want \"user\" or \"assistant\"", build.Clip(givenRole, 100))
	}
	if isResponse {
		if role != "assistant" {
			return fmt.Sprintf("role %q: a response is the assistant's", build.Clip(givenRole, 100))
		}
		if t, ok := msg["type"]; ok && t != "message" {
			return fmt.Sprintf("type: want \"message\", got %s", build.Clip(fmt.Sprint(t), 100))
		}
		if msg := scanRest(msg, responseKeys, ""); msg != "" {
			return msg
		}
	} else if msg := scanRest(msg, map[string]bool{"role": true, "content": true}, ""); msg != "" {
		return msg
	}
	ev := &run.Event{Index: len(rn.Events), Role: role}
	var items []item
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		ev.Content = build.BlockText(c)
		var err string
		if items, err = blocks(c, role); err != "" {
			return err
		}
	default:
		return "content: want a string or a list of content blocks, got " + build.Kind(c)
	}
	if role == "user" {
		if segs := build.SplitResults(ev.Blocks); segs != nil {
			// The user's words beside tool results are the user's turn,
			// the results the tool's: an event each, in content order.
			for _, seg := range segs {
				sub := ev.Blocks[seg.Start:seg.End]
				subItems, msg := blocks(sub, role) // the whole list passed: cannot fail
				if msg != "" {
					return msg
				}
				part := &run.Event{Index: len(rn.Events), Role: role, Blocks: sub, Content: build.BlockText(sub)}
				if msg := cv.add(part, subItems, role); msg != "" {
					return msg
				}
			}
			return ""
		}
	}
	return cv.add(ev, items, role)
}

// add appends ev, the event of a message (or of part of a user message's
// blocks) holding items, to the run, requests its calls and matches its
// results.
func (cv *conv) add(ev *run.Event, items []item, role string) string {
	rn, m := cv.rn, &cv.m
	// A call the model wrote as text (Claude's prompt-based tool use
	// before the API had tool_use, or another template's) would be read as
	// no call (build/textcall.go).
	if role == "assistant" && len(items) == 0 {
		if msg := terms.TextCallProblem(ev.Content); msg != "" {
			return msg
		}
	}
	rn.Events = append(rn.Events, ev)
	clientResults := 0
	for _, it := range items {
		if it.result != nil && it.client {
			clientResults++
		}
	}
	// Blocks in order: a server tool's result follows its request in the
	// same assistant message.
	for _, it := range items {
		if it.call != nil {
			m.Request(rn, ev, it.call)
			if msg := cv.nest(it); msg != "" {
				return msg
			}
			continue
		}
		r := it.result
		c := m.Answer(rn, ev.Index, *r)
		if msg := cv.sameCaller(it, c); msg != "" {
			return msg
		}
		if clientResults == 1 && it.client {
			ev.CallID, ev.Tool, ev.Failed, ev.Error = r.CallID, c.Tool, r.Failed, r.Err
		}
	}
	// A user message carrying tool results is the tool's turn, not the
	// user's (docs/transcripts.md): left "user", "no user message in
	// between" would never hold after a read, and an injected send would
	// escape such an invariant. The user's own words beside the results
	// are an event of their own (build.SplitResults); only blank text
	// stays in the tool's event.
	if clientResults > 0 {
		ev.Role = "tool"
		ev.Content = toolText(ev.Blocks, items)
	}
	return ""
}

// toolText is the content of a message carrying tool results: the text
// of its blocks in order, each tool_result's content in its place, joined
// with "\n". The results' text must be the event's content, as a tool
// message's is in openai-messages: criteria that look for an injection in
// the results (results.exists(r, r.content.contains(...))) would
// otherwise find "" and say the agent was never exposed.
func toolText(list []any, items []item) string {
	var parts []string
	next := 0 // items are list's tool_result and call blocks, in order
	for _, raw := range list {
		b := raw.(map[string]any) // blocks checked every element
		switch t, _ := b["type"].(string); {
		case t == "text":
			parts = append(parts, b["text"].(string))
		case t == "tool_result":
			for items[next].result == nil || !items[next].client {
				next++
			}
			parts = append(parts, items[next].result.Content)
			next++
		}
	}
	return strings.Join(parts, "\n")
}

// item is a call or a result block, in content order.
type item struct {
	call   *run.Call
	result *build.Result
	client bool   // a tool_result block: the client ran the tool
	server bool   // a server_tool_use block: calls may name it as their caller
	caller string // the caller's tool_id: the server tool call that made this call
	// hasCaller: the block says who made the call (a caller that is not
	// null), on a result block to be checked against the call's.
	hasCaller bool
	at        string // the block's place, for messages
}

// Fields read (or kept as data) in the blocks; ScanRest searches the
// others for call shapes.
var (
	textKeys   = map[string]bool{"type": true, "text": true}
	callKeys   = map[string]bool{"type": true, "id": true, "name": true, "input": true, "caller": true}
	resultKeys = map[string]bool{"type": true, "tool_use_id": true, "content": true, "is_error": true}
	// a server tool's result block may carry its call's caller too
	resultCallerKeys = map[string]bool{"type": true, "tool_use_id": true, "content": true, "is_error": true, "caller": true}
	// thinking and redacted_thinking: the model's reasoning, data.
	thinkingKeys = map[string]bool{"type": true, "thinking": true, "signature": true, "data": true}
)

// blocks reads the calls and results among a message's content blocks, in
// order, or says why a block is malformed ("content[N]: ...").
func blocks(list []any, role string) ([]item, string) {
	var items []item
	for i, raw := range list {
		at := fmt.Sprintf("content[%d]", i)
		b, ok := raw.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("%s: want a content block (an object with a type), got %s", at, build.Kind(raw))
		}
		typ, ok := b["type"].(string)
		if !ok {
			return nil, fmt.Sprintf("%s: type: want a string naming the block type, got %s", at, build.KindOrMissing(b, "type"))
		}
		only := func(want string) string {
			if role != want {
				return fmt.Sprintf("%s: a %q block in a message of role %q: only %s messages hold it", at, typ, role, want)
			}
			return ""
		}
		switch {
		case typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use":
			if msg := only("assistant"); msg != "" {
				return nil, msg
			}
			c, msg := callBlock(b)
			if msg != "" {
				return nil, fmt.Sprintf("%s (%s): %s", at, typ, msg)
			}
			read := callKeys
			it := item{call: c, server: typ == "server_tool_use", at: fmt.Sprintf("%s (%s)", at, typ)}
			if typ == "mcp_tool_use" {
				read = map[string]bool{"type": true, "id": true, "name": true, "input": true, "server_name": true}
			} else if it.caller, msg = caller(b, at); msg != "" {
				return nil, msg
			}
			if msg := scanRest(b, read, at); msg != "" {
				return nil, msg
			}
			items = append(items, it)
		case typ == "tool_result":
			if msg := only("user"); msg != "" {
				return nil, msg
			}
			r, msg := resultBlock(b)
			if msg != "" {
				return nil, fmt.Sprintf("%s (%s): %s", at, typ, msg)
			}
			if msg := scanRest(b, resultKeys, at); msg != "" {
				return nil, msg
			}
			items = append(items, item{result: &r, client: true})
		case typ == "mcp_tool_result" || strings.HasSuffix(typ, "_tool_result"):
			if msg := only("assistant"); msg != "" {
				return nil, msg
			}
			r, msg := resultBlock(b)
			if msg != "" {
				return nil, fmt.Sprintf("%s (%s): %s", at, typ, msg)
			}
			it := item{result: &r, at: fmt.Sprintf("%s (%s)", at, typ)}
			read := resultKeys
			if typ != "mcp_tool_result" {
				// A server tool's result says who made its call, as the
				// call's block does (the SDK's web_search_tool_result).
				if it.caller, msg = caller(b, at); msg != "" {
					return nil, msg
				}
				it.hasCaller = b["caller"] != nil
				read = resultCallerKeys
			}
			if msg := scanRest(b, read, at); msg != "" {
				return nil, msg
			}
			items = append(items, it)
		case typ == "text":
			if _, ok := b["text"].(string); !ok {
				return nil, fmt.Sprintf("%s (text): text: want a string, got %s", at, build.KindOrMissing(b, "text"))
			}
			if msg := scanRest(b, textKeys, at); msg != "" {
				return nil, msg
			}
		case typ == "compaction":
			// The API summarised the conversation before this block
			// (context compaction) and reads only the summary from then
			// on: the turns it replaced, and the calls and results they
			// held, need not be in the record — so "did the agent call
			// X" has no answer. openai-responses refuses its compaction
			// item for the same reason.
			return nil, fmt.Sprintf("%s: a \"compaction\" block: the conversation before it was compacted into a summary, so calls made before it may be missing from the record and what the agent did cannot be judged (log the messages from before compaction, or judge a run that was not compacted)", at)
		case typ == "thinking" || typ == "redacted_thinking":
			if msg := scanRest(b, thinkingKeys, at); msg != "" {
				return nil, msg
			}
		case build.NamesCall(typ):
			return nil, fmt.Sprintf("%s: block type %q names a call, a tool or a function, but this reader knows calls only as tool_use, server_tool_use and mcp_tool_use blocks and results only as tool_result, mcp_tool_result and *_tool_result blocks", at, build.Clip(typ, 100))
		default:
			// image, document, search_result, container_upload, ...:
			// kept; nothing of them is read, so a call in them is refused.
			if msg := scanRest(b, map[string]bool{"type": true}, at); msg != "" {
				return nil, msg
			}
		}
	}
	return items, ""
}

// callBlock reads {"type": "tool_use" | "server_tool_use" |
// "mcp_tool_use", "id": string, "name": string, "input": args}.
func callBlock(b map[string]any) (*run.Call, string) {
	id, msg := build.OptString(b, "id")
	if msg != "" {
		return nil, msg
	}
	name, ok := b["name"].(string)
	if !ok {
		if _, present := b["name"]; !present {
			return nil, "name: missing (the block names the tool it calls)"
		}
		return nil, "name: want a string, got " + build.Kind(b["name"])
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = build.ParseArgs("input", b["input"])
	return c, ""
}

// resultBlock reads a result block {"tool_use_id": string, "content":
// string | [block, ...] | object | null, "is_error": bool | null}. A
// server tool's error is its content, an object whose type ends in
// "_error" ({"type": "web_search_tool_result_error", "error_code":
// "max_uses_exceeded"}).
func resultBlock(b map[string]any) (build.Result, string) {
	var r build.Result
	id, msg := build.OptString(b, "tool_use_id")
	if msg != "" {
		return r, msg
	}
	r.CallID = id
	switch c := b["content"].(type) {
	case nil:
	case string:
		r.Content = c
	case []any:
		r.Content = build.BlockText(c)
		if r.Content == "" && len(c) > 0 {
			// Search results, code output: no text blocks, so the
			// content is its JSON text, for criteria to search.
			r.Content = jsonText(c)
		}
	case map[string]any:
		r.Content = jsonText(c)
		if t, _ := c["type"].(string); strings.HasSuffix(t, "_error") {
			r.Failed = true
			if code, ok := c["error_code"].(string); ok && code != "" {
				r.Err = code
			} else {
				r.Err = r.Content
			}
		}
	default:
		return r, "content: want a string, a list of content blocks or an object, got " + build.Kind(c)
	}
	switch e := b["is_error"].(type) {
	case nil:
	case bool:
		if e && !r.Failed {
			r.Failed = true
			r.Err = r.Content
			if r.Err == "" {
				r.Err = "true"
			}
		}
	default:
		return r, "is_error: want a boolean, got " + build.Kind(e)
	}
	return r, ""
}

// terms are this format's words in build's refusals: build's defaults
// name openai-messages' shapes (tool_calls and tool messages), which would
// mislead the reader of an Anthropic transcript.
var terms = build.Terms{
	Wants:         "Anthropic tool_use and tool_result blocks",
	Convert:       "this reader reads calls as tool_use blocks and results as tool_result blocks",
	Response:      `a model response? log it as "response"`,
	ResponsesItem: "an OpenAI Responses API item? this reader wants Anthropic tool_use and tool_result blocks",
	Calls:         "tool_use blocks",
}

// scanRest is build.ScanRest in this format's terms.
func scanRest(obj map[string]any, read map[string]bool, prefix string) string {
	return terms.ScanRest(obj, read, prefix)
}

// jsonText is v's compact JSON text (object members sorted: the same text
// on every run).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "" // unreachable: v was decoded from JSON
	}
	return string(b)
}
