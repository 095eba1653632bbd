package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
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
	if msg := topLevelProblem(rec); msg != "" {
		return nil, false, msg
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
	sharedIDs(rn)
	if err := addNestedCalls(rn); err != "" {
		return nil, false, err
	}
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
	answered []bool            // by index in Run.Calls
	notes    []string          // by index in Run.Calls: what the request itself records (notes.go)
	byID     map[string]*queue // every requested call, by id
	turn     *turn             // the calls of the latest message that requested calls
	// early holds, by id, the message of a result whose non-empty id no
	// call had yet: a later request with that id may be the call it
	// answered (notes.go).
	early map[string]int
}

// turn is the calls one message requested: the only calls a result
// without an exact, unique id can answer.
type turn struct {
	event  int
	calls  []int
	head   int // every call before head is answered
	byID   map[string]*queue
	byTool map[string]*queue
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

func enqueue(qs map[string]*queue, key string, call int) {
	q := qs[key]
	if q == nil {
		q = &queue{}
		qs[key] = q
	}
	q.calls = append(q.calls, call)
	q.open++
}

// request records an unanswered call of message event, which starts a new
// turn when it is the first call that message requests.
func (m *matcher) request(rn *run.Run, ev *run.Event, c *run.Call) {
	c.Index = len(rn.Calls)
	c.Event = ev.Index
	rn.Calls = append(rn.Calls, c)
	ev.Calls = append(ev.Calls, c.Index)
	m.answered = append(m.answered, false)
	m.notes = append(m.notes, m.requestNotes(c))
	if m.byID == nil {
		m.byID = map[string]*queue{}
	}
	if m.turn == nil || m.turn.event != ev.Index {
		m.turn = &turn{event: ev.Index, byID: map[string]*queue{}, byTool: map[string]*queue{}}
	}
	enqueue(m.byID, c.ID, c.Index)
	enqueue(m.turn.byID, c.ID, c.Index)
	enqueue(m.turn.byTool, c.Tool, c.Index)
	m.turn.calls = append(m.turn.calls, c.Index)
}

// match marks as answered, and returns, the call a result with callID and
// tool answers, or returns nil when no call may take it.
func (m *matcher) match(rn *run.Run, callID, tool string) *run.Call {
	pick := -1
	t := m.turn
	if callID != "" {
		// An exact id held by exactly one unanswered call, of any turn;
		// else by exactly one of the latest turn (ids reused across turns).
		if q := m.byID[callID]; q != nil && q.open == 1 {
			pick = q.front(m.answered)
		} else if q := t.queue(callID); q != nil && q.open == 1 {
			pick = q.front(m.answered)
		}
	}
	if pick < 0 && t != nil && tool != "" {
		if q := t.byTool[tool]; q != nil {
			pick = q.front(m.answered)
		}
	}
	if pick < 0 && t != nil {
		for t.head < len(t.calls) && m.answered[t.calls[t.head]] {
			t.head++
		}
		if t.head < len(t.calls) {
			pick = t.calls[t.head]
		}
	}
	if pick < 0 {
		return nil
	}
	c := rn.Calls[pick]
	m.answered[pick] = true
	m.byID[c.ID].open--
	if t != nil && c.Event == t.event {
		t.byID[c.ID].open--
	}
	return c
}

func (t *turn) queue(id string) *queue {
	if t == nil {
		return nil
	}
	return t.byID[id]
}

// Message keys the reader knows. Another key whose name speaks of a call,
// a tool or a function, holding something that could carry one, is an
// error rather than "no call" (unknownCallKey).
var messageKeys = map[string]bool{
	"role": true, "content": true, "tool_calls": true, "function_call": true,
	"tool_call_id": true, "tool_call": true, "name": true, "error": true,
}

// unknownCallKey returns, in key order, the first key of obj that is not
// one of known, names a call, a tool or a function, and holds a value that
// could carry one (an object, a non-empty list or a non-empty string), or
// "".
func unknownCallKey(obj map[string]any, known map[string]bool) string {
	var found []string
	for k, v := range obj {
		if known[k] || !namesCall(k) {
			continue
		}
		switch v := v.(type) {
		case map[string]any:
		case []any:
			if len(v) == 0 {
				continue
			}
		case string:
			if v == "" {
				continue
			}
		default:
			continue // null, a number or a boolean carries no call
		}
		found = append(found, k)
	}
	if len(found) == 0 {
		return ""
	}
	sort.Strings(found)
	return found[0]
}

// resultRole reports whether a (lower-cased) role is that of a message
// holding one result.
func resultRole(role string) bool { return role == "tool" || role == "function" }

// message adds message i to rn, or says why it is malformed.
func (m *matcher) message(rn *run.Run, i int, raw any) string {
	msg, ok := raw.(map[string]any)
	if !ok {
		return "is " + kind(raw) + ", want an object"
	}
	givenRole, ok := msg["role"].(string)
	if !ok {
		if _, present := msg["role"]; !present {
			return "role: missing"
		}
		return "role: want a string, got " + kind(msg["role"])
	}
	// Harnesses differ in case ("Tool", "ASSISTANT"); a role compared as
	// written would leave such a result unmatched.
	role := strings.ToLower(givenRole)
	if k := unknownCallKey(msg, messageKeys); k != "" {
		return fmt.Sprintf("key %q names a call, a tool or a function, but this reader knows calls only as tool_calls, function_call and tool_use content blocks, and results only as tool and function messages (tool_call_id, tool_call, name) and tool_result content blocks", k)
	}
	if r, ok := msg["recipient"].(string); ok && len(r) >= len(namespacePrefix) && strings.EqualFold(r[:len(namespacePrefix)], namespacePrefix) {
		return fmt.Sprintf("recipient %q: a message addressed to a function is a call in OpenAI's Harmony format, which this reader does not read (convert it to tool_calls and tool messages)", clip(r, 100))
	}
	if !resultRole(role) {
		for _, k := range []string{"tool_call_id", "tool_call"} {
			if msg[k] != nil {
				return fmt.Sprintf("%s on a message with role %q: only a \"tool\" or \"function\" message is a result (is the role wrong?)", k, givenRole)
			}
		}
	}
	ev := &run.Event{Index: i, Role: role}
	var blocks []blockItem
	switch c := msg["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		ev.Content = blockText(c)
		var err string
		if blocks, err = contentBlocks(c); err != "" {
			return err
		}
	default:
		return "content: want a string, null or a list of content blocks, got " + kind(c)
	}
	rn.Events = append(rn.Events, ev)

	// A result message answers earlier calls before this message's own
	// calls are requested.
	if resultRole(role) {
		if err := m.result(rn, ev, msg); err != "" {
			return err
		}
	}
	// Content blocks are taken in order: a tool_use requests a call, a
	// tool_result answers one, so a tool_result after a tool_use in the
	// same message can answer it, and one before it answers an earlier
	// call. (Taking all results first matched such a result to nothing
	// or to another call: a send that ran counted as not run.)
	nResults := 0
	for _, b := range blocks {
		if b.call == nil {
			nResults++
		}
	}
	for _, b := range blocks {
		if b.call != nil {
			m.request(rn, ev, b.call)
			continue
		}
		r := b.result
		c := m.answer(rn, ev.Index, answer{callID: r.CallID, content: r.Content, failed: r.Failed, err: r.Error})
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
	// Text beside the results in that message is then not user text:
	// the cautious reading (it can only make an invariant fire).
	if role == "function" || nResults > 0 {
		ev.Role = "tool"
	}

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
		m.request(rn, ev, c)
	}
	// OpenAI's legacy form: one {"name", "arguments"} call per message.
	switch fc := msg["function_call"].(type) {
	case nil:
	case map[string]any:
		name, ok := fc["name"].(string)
		if !ok {
			return "function_call.name: want a string, got " + kindOrMissing(fc, "name")
		}
		c := &run.Call{Tool: name, ResultEvent: -1, Parent: -1}
		c.Args, c.ArgsError = parseArgs("function_call.arguments", fc["arguments"])
		m.request(rn, ev, c)
		if err := scanRest(fc, callKeys, "function_call"); err != "" {
			return err
		}
	default:
		return "function_call: want an object {name, arguments}, got " + kind(fc)
	}
	return scanMessageRest(msg)
}

// Keys read in the objects of a message; scanRest searches the others.
var (
	callKeys     = map[string]bool{"name": true, "arguments": true}
	toolCallKeys = map[string]bool{"id": true, "type": true, "function": true}
	// placeholder_args are arguments (see the package doc), ignored.
	ranKeys = map[string]bool{"function": true, "args": true, "id": true, "placeholder_args": true}
)

// scanMessageRest searches the message keys the reader does not read for
// a call (unread.go). Keys it reads are left out: role, content (whose
// blocks contentBlocks searches), tool_calls and function_call (searched
// where read), tool_call_id, name and error (a result's data), tool_call
// (searched beside what it reads), and additional_kwargs' tool_calls.
func scanMessageRest(msg map[string]any) string {
	if tc, ok := msg["tool_call"].(map[string]any); ok {
		if err := scanRest(tc, ranKeys, "tool_call"); err != "" {
			return err
		}
	}
	if ak, ok := msg["additional_kwargs"].(map[string]any); ok {
		if err := scanRest(ak, map[string]bool{"tool_calls": true}, "additional_kwargs"); err != "" {
			return err
		}
	}
	read := messageKeys
	if _, ok := msg["additional_kwargs"].(map[string]any); ok {
		read = messageKeysLangChain // searched above
	}
	return scanRest(msg, read, "")
}

// messageKeysLangChain is messageKeys and additional_kwargs.
var messageKeysLangChain = func() map[string]bool {
	m := map[string]bool{"additional_kwargs": true}
	for k := range messageKeys {
		m[k] = true
	}
	return m
}()

// scanRest searches the members of obj whose keys are not in read, in key
// order, for a call; prefix is obj's path in the message ("" for the
// message itself).
func scanRest(obj map[string]any, read map[string]bool, prefix string) string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if !read[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := unreadScan{}
		if prefix != "" {
			s.path = []pathElem{{key: prefix, index: -1}}
		}
		s.push(k, -1)
		s.walk(obj[k])
		if s.err == "" && namesCall(k) && carries(obj[k]) {
			s.fail(fmt.Sprintf("key %q names a call, a tool or a function", k), obj)
		}
		if s.err != "" {
			return s.err
		}
	}
	return ""
}

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
			if err := scanRest(tc, toolCallKeys, at); err != "" {
				return nil, err
			}
			if err := scanRest(fn, callKeys, at+".function"); err != "" {
				return nil, err
			}
			calls = append(calls, c)
		}
		return calls, ""
	default:
		return nil, field + ": want a list, got " + kind(tcs)
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
			diff = append(diff, fmt.Sprintf("id %q, not %q", clip(c.ID, 100), clip(o.ID, 100)))
		}
		if c.Tool != o.Tool {
			diff = append(diff, fmt.Sprintf("tool %q, not %q", clip(c.Tool, 100), clip(o.Tool, 100)))
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

// answer is one result, as a tool or function message or a tool_result
// block gives it.
type answer struct {
	callID  string // the id of the call it answers
	ranTool string // the tool that ran, when the result says
	ranArgs any    // the arguments that ran, when the result says (nil: it does not)
	ranID   string // the id of the call that ran, when the result says
	// ranPrefixed: ranTool was written with the "functions." prefix.
	ranPrefixed bool
	content     string
	failed      bool
	err         string
	unknown     string // why whether the call failed is unknown, or ""
}

// result handles a tool or function message: it fills the event's result
// fields and matches it to a call (see "Matching results to calls" in the
// package doc).
func (m *matcher) result(rn *run.Run, ev *run.Event, msg map[string]any) string {
	callID, err := optString(msg, "tool_call_id")
	if err != "" {
		return err
	}
	a := answer{callID: callID, content: ev.Content}

	// What actually ran, when the message records it.
	switch tc := msg["tool_call"].(type) {
	case nil:
	case map[string]any:
		if a.ranTool, err = optString(tc, "function"); err != "" {
			return "tool_call." + err
		}
		a.ranArgs = tc["args"]
		// tool_call.id is only compared with the call's id and used for a
		// synthesised call; a non-string one is ignored rather than
		// rejected, as it is not used for matching. placeholder_args is
		// ignored (package doc).
		a.ranID, _ = tc["id"].(string)
	default:
		return "tool_call: want an object, got " + kind(tc)
	}
	if a.ranTool == "" {
		// A function message (and some tool messages) names the function
		// whose result it is.
		if a.ranTool, err = optString(msg, "name"); err != "" {
			return err
		}
	}

	if a.failed, a.err, a.unknown, err = resultOutcome(msg, ev.Content); err != "" {
		return err
	}
	c := m.answer(rn, ev.Index, a)
	ev.CallID, ev.Tool, ev.Failed, ev.Error = callID, c.Tool, a.failed, a.err
	ev.FailedUnknown = a.unknown
	return ""
}

// resultError reads a tool or function message's "error". Harnesses write
// "no error" as null, an absent field, "" or false, and an error as a
// message, true, an error object, a list of errors or a non-zero code. An
// empty object or list, the number 0 or a string of white space alone says
// neither: 0 is "success" as an exit status but a code as an error, {} may
// be an error object whose fields were dropped. Such a result is neither a
// failure nor a success: unknown says why, and err is its JSON text, so
// that criteria reading whether the call ran are unknown rather than
// "did not run" (a send that ran would escape) or "ran".
func resultError(v any) (failed bool, err, unknown string) {
	text := func() string {
		b, _ := json.Marshal(v) // cannot fail: v was decoded from JSON
		return string(b)
	}
	ambiguous := func() (bool, string, string) {
		t := text()
		return false, t, fmt.Sprintf("the result's error is %s, which says neither that the call failed nor that it succeeded", clip(t, 100))
	}
	switch e := v.(type) {
	case nil:
	case string:
		if e != "" && strings.TrimSpace(e) == "" {
			return ambiguous()
		}
		// The text of a value that says neither, written as a string
		// by a harness that formats its error field (Python's None).
		switch strings.ToLower(strings.TrimSpace(e)) {
		case "false", "0", "none", "null", "nil":
			return false, e, fmt.Sprintf("the result's error is the string %q, which says neither that the call failed nor that it succeeded", clip(e, 100))
		}
		return e != "", e, ""
	case bool:
		if e {
			return true, "true", ""
		}
	case float64:
		if e == 0 {
			return ambiguous()
		}
		return true, text(), ""
	case map[string]any:
		if len(e) == 0 {
			return ambiguous()
		}
		return true, text(), ""
	case []any:
		if len(e) == 0 {
			return ambiguous()
		}
		return true, text(), ""
	default:
		return true, text(), ""
	}
	return false, "", ""
}

// answer matches a result to a call, synthesising the call when none may
// take it, records on the call what ran and how it disagrees with the
// request, and returns the call.
func (m *matcher) answer(rn *run.Run, event int, a answer) *run.Call {
	a.ranTool, a.ranPrefixed = stripNamespace(a.ranTool)
	if c := m.answeredAgain(rn, event, a); c != nil {
		return c
	}
	c := m.match(rn, a.callID, a.ranTool)
	if c == nil {
		// A result with no request: synthesise the call that ran.
		id := a.callID
		if id == "" {
			id = a.ranID
		}
		c = &run.Call{Index: len(rn.Calls), Event: event, ID: id, Tool: a.ranTool, Args: map[string]any{}, Parent: -1}
		if a.ranArgs != nil {
			c.Args, c.ArgsError = parseArgs("tool_call.args", a.ranArgs)
		}
		rn.Calls = append(rn.Calls, c)
		m.answered = append(m.answered, true)
		m.notes = append(m.notes, "")
		if a.callID != "" {
			m.answeredEarly(a.callID, event)
		}
	} else {
		var why []string
		if n := m.notes[c.Index]; n != "" {
			why = append(why, n)
		}
		// Answered now: a result that came before the request is another
		// call's (the synthesised one), not this one's.
		c.OkUnknown = ""
		if a.ranPrefixed {
			why = append(why, fmt.Sprintf("the result names the tool %q", namespacePrefix+a.ranTool))
		}
		if a.ranTool != "" && a.ranTool != c.Tool {
			why = append(why, fmt.Sprintf("tool %q ran, %q was requested", a.ranTool, c.Tool))
			c.RequestedTool, c.Tool = c.Tool, a.ranTool
		}
		if a.ranArgs != nil {
			args, argsErr := parseArgs("tool_call.args", a.ranArgs)
			if argsErr != c.ArgsError || !reflect.DeepEqual(args, c.Args) {
				w := "other arguments ran than were requested"
				if c.ArgsError != "" {
					w += " (the request's: " + c.ArgsError + ")"
				}
				why = append(why, w)
				c.RequestedArgs = c.Args
			}
			c.Args, c.ArgsError = args, argsErr
		}
		for _, id := range [2]string{a.callID, a.ranID} {
			if id != "" && c.ID != "" && id != c.ID {
				why = append(why, fmt.Sprintf("the result's id %q is not the call's id %q", id, c.ID))
				break
			}
		}
		c.Mismatch = strings.Join(why, "; ")
	}
	c.Ok = !a.failed
	if a.unknown != "" {
		// Ok false means nothing then (see run.Call.OkUnknown).
		c.Ok, c.OkUnknown = false, a.unknown
	}
	c.Result = a.content
	c.Error = a.err
	c.ResultEvent = event
	return c
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
