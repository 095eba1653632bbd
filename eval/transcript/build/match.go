package build

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

// DecodeJSON decodes a JSON text into generic values (objects as
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
func DecodeJSON(data []byte, record bool) (v any, msg string) {
	err := jsonv2.Unmarshal(data, &v)
	if err == nil {
		return v, ""
	}
	var old any
	if err1 := json.Unmarshal(data, &old); err1 != nil {
		var se *json.SyntaxError
		if record && errors.As(err1, &se) {
			if strings.HasSuffix(se.Error(), "exceeded max depth") {
				// Both decoders stop at decoderMaxDepth, which a lower
				// --max-depth only meets earlier (frame's scan): name the
				// limit and the flag, as that scan does.
				return nil, fmt.Sprintf("record nested deeper than the limit of %d levels at offset %d (the JSON decoder's own: --max-depth can lower it, not raise it)", decoderMaxDepth, se.Offset)
			}
			return nil, fmt.Sprintf("invalid JSON (offset %d): %v", se.Offset, se)
		}
		return nil, "invalid JSON: " + err1.Error()
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return nil, fmt.Sprintf("invalid JSON (offset %d): %v at %q", se.ByteOffset, se.Err, Clip(string(se.JSONPointer), maxPointer))
	}
	return nil, "invalid JSON: " + err.Error()
}

// decoderMaxDepth is the nesting limit of encoding/json and of
// go-json-experiment/json (frame.DefaultMaxDepth; build does not import
// frame).
const decoderMaxDepth = 10_000

// maxPointer bounds the JSON pointer quoted in a message: member names
// are the record's, and may be megabytes long.
const maxPointer = 200

// Clip shortens s to at most n bytes, on a UTF-8 boundary, marking the cut
// with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Matcher builds a run's calls and matches results to them (the rules are
// "Matching results to calls" in eval/transcript/openai's package doc:
// by id, else within the latest turn by tool, else in order, else a call
// synthesised from the result), in time linear in the number of calls:
// answered calls are marked and skipped lazily. The zero Matcher is ready;
// use one per run. A reader appends each event to Run.Events itself, then
// calls Request for each call the event requests and Answer for each
// result it carries, in transcript order, and Finish once at the end.
type Matcher struct {
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
// without an exact, unique id can answer. A turn of up to smallTurn calls
// (nearly every one) is searched call by call; a larger one is indexed by
// id and tool, so that matching stays linear in the number of calls.
type turn struct {
	event  int
	calls  []int
	head   int               // every call before head is answered
	byID   map[string]*queue // nil while the turn is small
	byTool map[string]*queue
}

// smallTurn is the most calls a turn searches without its maps: two maps
// and their queues per turn were a tenth of a transcript's allocations.
const smallTurn = 8

// add adds call i to the turn, indexing the turn once it outgrows
// smallTurn.
func (t *turn) add(calls []*run.Call, answered []bool, i int) {
	t.calls = append(t.calls, i)
	switch {
	case t.byID != nil:
		enqueue(t.byID, calls[i].ID, i)
		enqueue(t.byTool, calls[i].Tool, i)
	case len(t.calls) > smallTurn:
		t.byID, t.byTool = map[string]*queue{}, map[string]*queue{}
		for _, j := range t.calls {
			enqueue(t.byID, calls[j].ID, j)
			enqueue(t.byTool, calls[j].Tool, j)
			if answered[j] {
				t.byID[calls[j].ID].open--
			}
		}
	}
}

// onlyOpen returns the one unanswered call of the turn with id, or -1 when
// there is none or more than one.
func (t *turn) onlyOpen(calls []*run.Call, answered []bool, id string) int {
	if t == nil {
		return -1
	}
	if t.byID != nil {
		if q := t.byID[id]; q != nil && q.open == 1 {
			return q.front(answered)
		}
		return -1
	}
	pick := -1
	for _, j := range t.calls[t.head:] {
		if !answered[j] && calls[j].ID == id {
			if pick >= 0 {
				return -1
			}
			pick = j
		}
	}
	return pick
}

// firstOpen returns the turn's first unanswered call of tool, or -1.
func (t *turn) firstOpen(calls []*run.Call, answered []bool, tool string) int {
	if t.byTool != nil {
		if q := t.byTool[tool]; q != nil {
			return q.front(answered)
		}
		return -1
	}
	for _, j := range t.calls[t.head:] {
		if !answered[j] && calls[j].Tool == tool {
			return j
		}
	}
	return -1
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

// Request records an unanswered call of message event, which starts a new
// turn when it is the first call that message requests.
func (m *Matcher) Request(rn *run.Run, ev *run.Event, c *run.Call) {
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
		m.turn = &turn{event: ev.Index}
	}
	enqueue(m.byID, c.ID, c.Index)
	m.turn.add(rn.Calls, m.answered, c.Index)
}

// match marks as answered, and returns, the call a result with callID and
// tool answers, or returns nil when no call may take it.
func (m *Matcher) match(rn *run.Run, callID, tool string) *run.Call {
	pick := -1
	t := m.turn
	if callID != "" {
		// An exact id held by exactly one unanswered call, of any turn;
		// else by exactly one of the latest turn (ids reused across turns).
		if q := m.byID[callID]; q != nil && q.open == 1 {
			pick = q.front(m.answered)
		} else {
			pick = t.onlyOpen(rn.Calls, m.answered, callID)
		}
	}
	if pick < 0 && t != nil && tool != "" {
		pick = t.firstOpen(rn.Calls, m.answered, tool)
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
	if t != nil && c.Event == t.event && t.byID != nil {
		t.byID[c.ID].open--
	}
	return c
}

// UnknownCallKey returns, in key order, the first key of obj that is not
// one of known, names a call, a tool or a function, and holds a value that
// could carry one (an object, a non-empty list or a non-empty string), or
// "".
func UnknownCallKey(obj map[string]any, known map[string]bool) string {
	var found []string
	for k, v := range obj {
		if known[k] || !NamesCall(k) {
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

// ScanRest searches the members of obj whose keys are not in read, in key
// order, for a call; prefix is obj's path in the message ("" for the
// message itself).
func ScanRest(obj map[string]any, read map[string]bool, prefix string) string {
	return scanRest(&OpenAI, obj, read, prefix)
}

func scanRest(t *Terms, obj map[string]any, read map[string]bool, prefix string) string {
	n := 0 // most objects have only keys the reader read: no slice then
	for k := range obj {
		if !read[k] {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	keys := make([]string, 0, n)
	for k := range obj {
		if !read[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := unreadScan{t: t}
		if prefix != "" {
			s.path = []pathElem{{key: prefix, index: -1}}
		}
		s.push(k, -1)
		s.walk(obj[k])
		if s.err == "" && NamesCall(k) && carries(obj[k]) {
			s.fail(fmt.Sprintf("key %q names a call, a tool or a function", k), obj)
		}
		if s.err != "" {
			return s.err
		}
	}
	return ""
}

// BlockText joins the "text" of the content blocks that have one.
func BlockText(blocks []any) string {
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

// Result is one result, as a tool or function message or a tool_result
// block gives it.
type Result struct {
	CallID  string // the id of the call it answers
	RanTool string // the tool that ran, when the result says
	RanArgs any    // the arguments that ran, when the result says (nil: it does not)
	RanID   string // the id of the call that ran, when the result says
	// ranPrefixed: RanTool was written with the "functions." prefix (set
	// by Answer).
	ranPrefixed bool
	Content     string
	Failed      bool
	Err         string
	Unknown     string // why whether the call failed is unknown, or ""
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
		return false, t, fmt.Sprintf("the result's error is %s, which says neither that the call failed nor that it succeeded", Clip(t, 100))
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
			return false, e, fmt.Sprintf("the result's error is the string %q, which says neither that the call failed nor that it succeeded", Clip(e, 100))
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

// Answer matches a result to a call, synthesising the call when none may
// take it, records on the call what ran and how it disagrees with the
// request, and returns the call: a result always answers one call.
func (m *Matcher) Answer(rn *run.Run, event int, a Result) *run.Call {
	a.RanTool, a.ranPrefixed = stripNamespace(a.RanTool)
	if c := m.answeredAgain(rn, event, a); c != nil {
		return c
	}
	c := m.match(rn, a.CallID, a.RanTool)
	synthesised := c == nil
	if c == nil {
		// A result with no request: synthesise the call that ran.
		id := a.CallID
		if id == "" {
			id = a.RanID
		}
		c = &run.Call{Index: len(rn.Calls), Event: event, ID: id, Tool: a.RanTool, Args: map[string]any{}, Parent: -1}
		if a.RanArgs != nil {
			c.Args, c.ArgsError = ParseArgs("tool_call.args", a.RanArgs)
		}
		rn.Calls = append(rn.Calls, c)
		m.answered = append(m.answered, true)
		m.notes = append(m.notes, "")
		if a.CallID != "" {
			m.answeredEarly(a.CallID, event)
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
			why = append(why, fmt.Sprintf("the result names the tool %q", NamespacePrefix+a.RanTool))
		}
		if a.RanTool != "" && a.RanTool != c.Tool {
			why = append(why, fmt.Sprintf("tool %q ran, %q was requested", a.RanTool, c.Tool))
			c.RequestedTool, c.Tool = c.Tool, a.RanTool
		}
		if a.RanArgs != nil {
			args, argsErr := ParseArgs("tool_call.args", a.RanArgs)
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
		for _, id := range [2]string{a.CallID, a.RanID} {
			if id != "" && c.ID != "" && id != c.ID {
				why = append(why, fmt.Sprintf("the result's id %q is not the call's id %q", id, c.ID))
				break
			}
		}
		c.Mismatch = strings.Join(why, "; ")
	}
	c.Ok = !a.Failed
	if a.Unknown != "" {
		// Ok false means nothing then (see run.Call.OkUnknown).
		c.Ok, c.OkUnknown = false, a.Unknown
	} else if c.Ok && synthesised && c.Tool == "" {
		// A result that answers no call and names no tool proves that
		// something ran, not what: read as a call to "" that succeeded, a
		// send whose request the log lost would pass for no send at all
		// and the audit would see an ok call. Its ok is unknown instead
		// (docs/transcripts.md, "Matching results to calls", rule 5).
		c.Ok, c.OkUnknown = false, fmt.Sprintf(namelessResult+" at message %d answers no call requested before it and names no tool: what ran, and whether it succeeded, is unknown", event)
	}
	c.Result = a.Content
	c.Error = a.Err
	c.ResultEvent = event
	return c
}

// namelessResult starts the OkUnknown of a call synthesised from a result
// that named no tool (Answer), so that ToolNamed can tell it.
const namelessResult = "the result"

// ToolNamed gives tool to a call Answer synthesised from a result that
// named none, when the reader learns it elsewhere (Inspect's tool event):
// what ran is then known, and its ok is the result's again.
func ToolNamed(c *run.Call, tool string) {
	c.Tool = tool
	if tool != "" && strings.HasPrefix(c.OkUnknown, namelessResult+" at message ") && c.Error == "" {
		c.Ok, c.OkUnknown = true, ""
	}
}

// ParseArgs reads call arguments: an object, a JSON string holding an
// object, or null (no arguments). Anything else gives an empty map and the
// reason, prefixed with field.
func ParseArgs(field string, v any) (map[string]any, string) {
	switch a := v.(type) {
	case nil:
		return map[string]any{}, ""
	case map[string]any:
		return a, ""
	case string:
		parsed, msg := DecodeJSON([]byte(a), false)
		if msg != "" {
			return map[string]any{}, field + ": " + msg
		}
		if obj, ok := parsed.(map[string]any); ok {
			return obj, ""
		}
		return map[string]any{}, field + ": JSON string holds " + Kind(parsed) + ", want an object"
	default:
		return map[string]any{}, field + ": want an object or a JSON string holding one, got " + Kind(a)
	}
}

// OptString reads an optional string field: absent or null is "".
func OptString(obj map[string]any, key string) (string, string) {
	switch s := obj[key].(type) {
	case nil:
		return "", ""
	case string:
		return s, ""
	default:
		return "", key + ": want a string, got " + Kind(s)
	}
}

// Kind names the JSON type of a decoded value, for messages.
func Kind(v any) string {
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
