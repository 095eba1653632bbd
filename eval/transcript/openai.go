package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
)

// decodeJSON decodes a JSON text into generic values (objects as
// map[string]any, arrays as []any, numbers as float64) with
// github.com/go-json-experiment/json (the encoding/json/v2 prototype,
// about twice as fast as encoding/json here). Its defaults are stricter
// than encoding/json's, deliberately: a duplicate object member name and
// invalid UTF-8 (including an escaped lone surrogate) are errors, not
// "the last one wins" and U+FFFD, so that no two readers of a transcript
// can take it to say different things. On error, msg is encoding/json's
// message when encoding/json rejects the text too (so messages stay as
// they were), else the stricter rule's. record selects the message form of
// a whole record ("invalid JSON (offset N): ..."), else that of a JSON
// string inside one ("invalid JSON: ...").
func decodeJSON(data []byte, record bool) (v any, msg string) {
	err := jsonv2.Unmarshal(data, &v)
	if err == nil {
		return v, ""
	}
	var old any
	if err1 := json.Unmarshal(data, &old); err1 != nil {
		var se *json.SyntaxError
		if record && errors.As(err1, &se) {
			return nil, fmt.Sprintf("invalid JSON (offset %d): %v", se.Offset, se)
		}
		return nil, "invalid JSON: " + err1.Error()
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return nil, fmt.Sprintf("invalid JSON (offset %d): %v at %q", se.ByteOffset, se.Err, clip(string(se.JSONPointer), maxPointer))
	}
	return nil, "invalid JSON: " + err.Error()
}

// maxPointer bounds the JSON pointer quoted in a message: member names
// are the record's, and may be megabytes long.
const maxPointer = 200

// clip shortens s to at most n bytes, on a UTF-8 boundary, marking the cut
// with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// decodeOpenAIMessages decodes one record. It returns skip for a record with
// no "messages", or a non-empty msg saying why the record is malformed.
func decodeOpenAIMessages(line []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := decodeJSON(line, true)
	if msg != "" {
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, false, "record is " + kind(v) + ", want an object"
	}
	if msg := recordProblem(rec); msg != "" {
		return nil, false, msg
	}
	rawMsgs, ok := rec["messages"]
	if !ok {
		return nil, true, ""
	}
	msgs, ok := rawMsgs.([]any)
	if !ok {
		return nil, false, "messages: want a list, got " + kind(rawMsgs)
	}
	meta := map[string]any{}
	switch m := rec["metadata"].(type) {
	case nil:
	case map[string]any:
		meta = m
	default:
		return nil, false, "metadata: want an object, got " + kind(m)
	}
	rn = &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m matcher
	for i, raw := range msgs {
		if err := m.message(rn, i, raw); err != "" {
			return nil, false, fmt.Sprintf("message %d: %s", i, err)
		}
	}
	addNestedCalls(rn)
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, ""
}

// matcher builds a run's events and calls, matching results to calls (see
// "Matching results to calls" in the package doc) in time linear in the
// number of calls: answered calls are marked and skipped lazily.
type matcher struct {
	answered []bool // by index in Run.Calls
	first    int    // every call before first is answered
	open     int    // number of unanswered calls
	byID     map[string]*queue
	byTool   map[string]*queue
}

// queue lists calls in request order; calls before head are answered.
type queue struct {
	calls []int
	head  int
	open  int // unanswered calls in the queue
}

// front returns the first unanswered call of q, or -1.
func (q *queue) front(answered []bool) int {
	for q.head < len(q.calls) && answered[q.calls[q.head]] {
		q.head++
	}
	if q.head == len(q.calls) {
		return -1
	}
	return q.calls[q.head]
}

// request records an unanswered call.
func (m *matcher) request(c *run.Call) {
	m.answered = append(m.answered, false)
	m.open++
	if m.byID == nil {
		m.byID, m.byTool = map[string]*queue{}, map[string]*queue{}
	}
	for _, kv := range [2]struct {
		q   map[string]*queue
		key string
	}{{m.byID, c.ID}, {m.byTool, c.Tool}} {
		q := kv.q[kv.key]
		if q == nil {
			q = &queue{}
			kv.q[kv.key] = q
		}
		q.calls = append(q.calls, c.Index)
		q.open++
	}
}

// match marks as answered, and returns, the call a result with callID and
// tool answers, or returns nil when no call is unanswered.
func (m *matcher) match(rn *run.Run, callID, tool string) *run.Call {
	if m.open == 0 {
		return nil
	}
	pick := -1
	if q := m.byID[callID]; callID != "" && q != nil && q.open == 1 {
		pick = q.front(m.answered)
	}
	if q := m.byTool[tool]; pick < 0 && tool != "" && q != nil {
		pick = q.front(m.answered)
	}
	if pick < 0 {
		for m.answered[m.first] {
			m.first++
		}
		pick = m.first
	}
	c := rn.Calls[pick]
	m.answered[pick] = true
	m.open--
	m.byID[c.ID].open--
	m.byTool[c.Tool].open--
	return c
}

// message adds message i to rn, or says why it is malformed.
func (m *matcher) message(rn *run.Run, i int, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + kind(raw) + ", want an object"
	}
	role, ok := msg["role"].(string)
	if !ok {
		if _, present := msg["role"]; !present {
			return "role: missing"
		}
		return "role: want a string, got " + kind(msg["role"])
	}
	ev := &run.Event{Index: i, Role: role}
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		ev.Content = blockText(c)
	default:
		return "content: want a string, null or a list of content blocks, got " + kind(c)
	}
	rn.Events = append(rn.Events, ev)

	if role == "tool" {
		if err := m.result(rn, ev, msg); err != "" {
			return err
		}
	}
	switch tcs := msg["tool_calls"].(type) {
	case nil:
	case []any:
		for j, raw := range tcs {
			c, err := requestedCall(raw)
			if err != "" {
				return fmt.Sprintf("tool_calls[%d]: %s", j, err)
			}
			c.Index = len(rn.Calls)
			c.Event = i
			rn.Calls = append(rn.Calls, c)
			ev.Calls = append(ev.Calls, c.Index)
			m.request(c)
		}
	default:
		return "tool_calls: want a list, got " + kind(tcs)
	}
	return ""
}

// blockText joins the "text" of the content blocks that have one.
func blockText(blocks []any) string {
	var sb strings.Builder
	first := true
	for _, b := range blocks {
		obj, ok := b.(map[string]any)
		if !ok {
			continue
		}
		text, ok := obj["text"].(string)
		if !ok {
			continue
		}
		if !first {
			sb.WriteByte('\n')
		}
		first = false
		sb.WriteString(text)
	}
	return sb.String()
}

// requestedCall reads one element of an assistant message's tool_calls.
func requestedCall(raw any) (*run.Call, string) {
	tc, ok := raw.(map[string]any)
	if !ok {
		return nil, "is " + kind(raw) + ", want an object"
	}
	id, err := optString(tc, "id")
	if err != "" {
		return nil, err
	}
	fn, ok := tc["function"].(map[string]any)
	if !ok {
		if _, present := tc["function"]; !present {
			return nil, "function: missing"
		}
		return nil, "function: want an object, got " + kind(tc["function"])
	}
	name, ok := fn["name"].(string)
	if !ok {
		if _, present := fn["name"]; !present {
			return nil, "function.name: missing"
		}
		return nil, "function.name: want a string, got " + kind(fn["name"])
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = parseArgs("arguments", fn["arguments"])
	return c, ""
}

// result handles a tool message: it fills the event's result fields and
// matches it to a call (see "Matching results to calls" in the package doc).
func (m *matcher) result(rn *run.Run, ev *run.Event, msg map[string]any) string {
	callID, err := optString(msg, "tool_call_id")
	if err != "" {
		return err
	}
	ev.CallID = callID

	// What actually ran, when the message records it.
	var (
		ran     map[string]any
		ranTool string
		ranID   string
	)
	switch tc := msg["tool_call"].(type) {
	case nil:
	case map[string]any:
		ran = tc
		if ranTool, err = optString(tc, "function"); err != "" {
			return "tool_call." + err
		}
		// tool_call.id is only a fallback id for a synthesised call; a
		// non-string one is ignored rather than rejected, as it is not used
		// for matching. placeholder_args is ignored (package doc).
		ranID, _ = tc["id"].(string)
	default:
		return "tool_call: want an object, got " + kind(tc)
	}

	// Harnesses write "no error" as null, an absent field, "" or false.
	switch e := msg["error"].(type) {
	case nil:
	case string:
		ev.Failed, ev.Error = e != "", e
	case bool:
		if e {
			ev.Failed, ev.Error = true, "true"
		}
	default:
		b, _ := json.Marshal(e) // cannot fail: e was decoded from JSON
		ev.Failed, ev.Error = true, string(b)
	}

	c := m.match(rn, callID, ranTool)
	if c == nil {
		// A result with no request: synthesise the call that ran.
		id := callID
		if id == "" {
			id = ranID
		}
		c = &run.Call{Index: len(rn.Calls), Event: ev.Index, ID: id, Args: map[string]any{}, Parent: -1}
		rn.Calls = append(rn.Calls, c)
		m.answered = append(m.answered, true)
	}
	if ranTool != "" {
		c.Tool = ranTool
	}
	if ran != nil && ran["args"] != nil {
		c.Args, c.ArgsError = parseArgs("tool_call.args", ran["args"])
	}
	c.Ok = !ev.Failed
	c.Result = ev.Content
	c.Error = ev.Error
	c.ResultEvent = ev.Index
	ev.Tool = c.Tool
	return ""
}

// parseArgs reads call arguments: an object, a JSON string holding an
// object, or null (no arguments). Anything else gives an empty map and the
// reason, prefixed with field.
func parseArgs(field string, v any) (map[string]any, string) {
	switch a := v.(type) {
	case nil:
		return map[string]any{}, ""
	case map[string]any:
		return a, ""
	case string:
		parsed, msg := decodeJSON([]byte(a), false)
		if msg != "" {
			return map[string]any{}, field + ": " + msg
		}
		if obj, ok := parsed.(map[string]any); ok {
			return obj, ""
		}
		return map[string]any{}, field + ": JSON string holds " + kind(parsed) + ", want an object"
	default:
		return map[string]any{}, field + ": want an object or a JSON string holding one, got " + kind(a)
	}
}

// optString reads an optional string field: absent or null is "".
func optString(obj map[string]any, key string) (string, string) {
	switch s := obj[key].(type) {
	case nil:
		return "", ""
	case string:
		return s, ""
	default:
		return "", key + ": want a string, got " + kind(s)
	}
}

// kind names the JSON type of a decoded value, for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
