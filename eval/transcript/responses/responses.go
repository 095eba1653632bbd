package responses

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Decode decodes one openai-responses record: it is the format's
// frame.Decoder. It returns skip for an object that holds no items and no
// transcript (a header line), or a non-empty msg saying why the record is
// malformed.
func Decode(line []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(line, true)
	if msg != "" {
		if t := strings.TrimSpace(string(line)); t == "{" || t == "[" {
			// The JSONL framer refuses a file that starts so; here the
			// line is one of many (or framed by another caller).
			msg += ` (a line holding only "{" or "[" starts a JSON document pretty-printed over many lines, which is not JSONL: jq -c makes one line of it)`
		}
		return nil, false, msg
	}
	var items []located
	meta := map[string]any{}
	var rec map[string]any
	switch r := v.(type) {
	case []any:
		// A bare list of items: what a harness keeps as the conversation
		// (the next request's input).
		items = locate("", r)
		rec = map[string]any{"items": r}
	case map[string]any:
		rec = r
		var skip bool
		if items, meta, skip, msg = object(r); msg != "" || skip {
			return nil, skip, msg
		}
	default:
		return nil, false, "record is " + build.Kind(v) + ", want a list of items or an object with \"output\" (an OpenAI Responses API response, or a request logged with its response)"
	}
	rn = &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(items))}
	var m build.Matcher
	for i, it := range items {
		if err := item(&m, rn, i, it.v); err != "" {
			return nil, false, fmt.Sprintf("%s: %s", it.where(), err)
		}
	}
	if err := terms.Finish(rn); err != "" {
		return nil, false, err
	}
	sharedCallIDs(rn)
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, ""
}

// located is an item and where the record holds it, for messages.
type located struct {
	member string // "instructions", "input", "output", or "" for a bare list
	index  int    // position in member; -1 for a string instructions or input
	v      any
}

func (l located) where() string {
	switch {
	case l.member == "":
		return fmt.Sprintf("item %d", l.index)
	case l.index < 0:
		return l.member
	}
	return fmt.Sprintf("%s[%d]", l.member, l.index)
}

func locate(member string, list []any) []located {
	out := make([]located, len(list))
	for i, v := range list {
		out[i] = located{member: member, index: i, v: v}
	}
	return out
}

// recordKeys are the members of an object record the reader reads; the
// others (a Response object's id, model, usage, tools, ...) are searched
// for a call or a message out of place (build.TopLevelProblem), except
// the usage counters (usageMembers).
var recordKeys = map[string]bool{"input": true, "output": true, "instructions": true, "metadata": true}

// object reads an object record: {"instructions", "input", "output",
// "metadata", ...}, a request logged with its response or a Response
// object, or {"request", "response"}, a logged call (loggedCall). Its
// items are, in order, instructions, input, output.
func object(rec map[string]any) (items []located, meta map[string]any, skip bool, msg string) {
	if _, ok := rec["messages"]; ok {
		return nil, nil, false, "messages: a \"messages\" list is a chat transcript (openai-messages or anthropic-messages?); this reader (openai-responses) wants a list of Responses API items, or an object with \"output\" items (and \"input\")"
	}
	_, hasIn := rec["input"]
	_, hasOut := rec["output"]
	if _, ok := rec["request"]; ok && !hasIn && !hasOut {
		return loggedCall(rec)
	}
	if obj, _ := rec["object"].(string); obj == "response" && !hasOut {
		// A Response is a run: skipped as a header line, it would be
		// dropped without a word.
		if msg := unfinished(rec, ""); msg != "" {
			return nil, nil, false, msg
		}
		return nil, nil, false, `output: missing (a Response object ("object": "response") has "output" items)`
	}
	if !hasIn && !hasOut {
		// A header line (a file's description), unless it holds a
		// transcript or a call: then it is a run in a shape this reader
		// does not read, which skipping would drop.
		keys := make([]string, 0, len(rec))
		for k := range rec {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if msg := terms.FindTranscript(rec, keys); msg != "" {
			return nil, nil, false, msg
		}
		return nil, nil, true, ""
	}
	if !hasOut {
		return nil, nil, false, "output: missing (a record with \"input\" is a request: log it with its response's \"output\" items, or write the conversation as a list of items)"
	}
	if msg := unfinished(rec, ""); msg != "" {
		return nil, nil, false, msg
	}
	if meta, msg = metadata(rec["metadata"], "metadata"); msg != "" {
		return nil, nil, false, msg
	}
	if items, msg = conversation(rec["instructions"], "instructions", rec["input"], "input", rec["output"], "output"); msg != "" {
		return nil, nil, false, msg
	}
	if msg := restProblem(rec, recordKeys, "record member "); msg != "" {
		return nil, nil, false, msg
	}
	return items, meta, false, ""
}

// metadata reads a metadata member: an object, or null for none.
func metadata(v any, name string) (map[string]any, string) {
	switch md := v.(type) {
	case nil:
		return map[string]any{}, ""
	case map[string]any:
		return md, ""
	}
	return nil, name + ": want an object, got " + build.Kind(v)
}

// conversation lists the items of instructions, input and output, named
// by the members that hold them (for messages).
func conversation(instr any, instrName string, input any, inputName string, output any, outputName string) ([]located, string) {
	var items []located
	switch in := instr.(type) {
	case nil:
	case string:
		items = append(items, located{member: instrName, index: -1, v: map[string]any{"type": "message", "role": "system", "content": in}})
	case []any:
		// A Response object echoes a prompt template's instructions as
		// input items.
		items = append(items, locate(instrName, in)...)
	default:
		return nil, instrName + ": want a string, null or a list of items, got " + build.Kind(in)
	}
	switch in := input.(type) {
	case nil:
	case string:
		// The API's shorthand for one user message.
		items = append(items, located{member: inputName, index: -1, v: map[string]any{"type": "message", "role": "user", "content": in}})
	case []any:
		items = append(items, locate(inputName, in)...)
	default:
		return nil, inputName + ": want a string, null or a list of items, got " + build.Kind(in)
	}
	out, ok := output.([]any)
	if !ok {
		return nil, outputName + ": want a list of items, got " + build.Kind(output)
	}
	ids := itemIDs(items)
	for i, v := range out {
		dup, msg := replayed(ids, v, fmt.Sprintf("%s[%d]", outputName, i))
		if msg != "" {
			return nil, msg
		}
		if !dup {
			items = append(items, located{member: outputName, index: i, v: v})
		}
	}
	return items, ""
}

// restProblem searches the members of obj other than read for a call or
// a message out of place (build.TopLevelProblem), passing over usage
// counters (usageMembers); prefix names obj in the message ("record
// member ", "request member ").
func restProblem(obj map[string]any, read map[string]bool, prefix string) string {
	rest := map[string]any{}
	for k, v := range obj {
		if !read[k] && !(usageMembers[k] && counters(v)) {
			rest[k] = v
		}
	}
	msg := terms.TopLevelProblem(rest)
	if msg == "" {
		return ""
	}
	return prefix + strings.TrimPrefix(msg, "record member ")
}

// unfinished refuses a Response that did not complete: its output is not
// the agent's whole answer (a server error, a cut at max_output_tokens, a
// cancellation), so judging it would count the platform's failure as the
// agent's — a call cut off mid-arguments would read as a failed call.
func unfinished(rec map[string]any, prefix string) string {
	if msg := unfinishedMsg(rec); msg != "" {
		return prefix + msg
	}
	return ""
}

func unfinishedMsg(rec map[string]any) string {
	if e, ok := rec["error"]; ok && e != nil {
		detail := build.Kind(e)
		if m, ok := e.(map[string]any); ok {
			code, _ := m["code"].(string)
			text, _ := m["message"].(string)
			detail = build.Clip(strings.TrimPrefix(strings.TrimSpace(code+": "+text), ": "), 200)
		}
		return "error: the response failed (" + detail + "): its output is not the agent's answer; leave it out or run it again"
	}
	st, ok := rec["status"]
	if !ok || st == nil {
		return ""
	}
	s, isStr := st.(string)
	if !isStr {
		return "status: want a string, got " + build.Kind(st)
	}
	if s == "completed" {
		return ""
	}
	why := ""
	if d, ok := rec["incomplete_details"].(map[string]any); ok {
		if r, ok := d["reason"].(string); ok {
			why = ", reason " + strconv.Quote(build.Clip(r, 100))
		}
	}
	return "status " + strconv.Quote(build.Clip(s, 100)) + why + ": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again"
}

// terms are this format's words in build's refusals, whose defaults
// speak of openai-messages' "messages".
var terms = build.Terms{
	Transcript:    `"input" and "output"`,
	Header:        "no items",
	TopLevel:      `this reader wants the items in the record's own "input" and "output" (or a list of items)`,
	Wants:         "Responses API function_call and function_call_output items",
	Convert:       "in the Responses API a call is a function_call item and its result a function_call_output item",
	Response:      `a model response logged beside the request? append its items to "output"`,
	ResponsesItem: `a Responses API item out of place? this reader reads items only in "input" and "output", or a list of items`,
	Calls:         "function_call items",
}

// sharedCallIDs makes unknown the ok of every call of a group of calls
// sharing a non-empty call_id when outputs answered some of the group but
// not all. Each call item is its own event here, so build's rule for calls
// of one message sharing an id does not see them: the output would go to
// the latest of them (build's matching by the latest turn), and whether
// the send to the friend or to the attacker ran would be a guess by
// position. The API gives each call a distinct call_id, so such a group
// is the record's fault.
func sharedCallIDs(rn *run.Run) {
	groups := map[string][]*run.Call{}
	var order []string
	for _, c := range rn.Calls {
		if c.Depth != 0 || c.ID == "" {
			continue
		}
		if _, ok := groups[c.ID]; !ok {
			order = append(order, c.ID)
		}
		groups[c.ID] = append(groups[c.ID], c)
	}
	for _, id := range order {
		g := groups[id]
		answered := 0
		for _, c := range g {
			if c.ResultEvent >= 0 {
				answered++
			}
		}
		if len(g) < 2 || answered == 0 || answered == len(g) {
			continue
		}
		why := fmt.Sprintf("%d calls share the call_id %q and outputs answered %d of them: which of them ran is unknown", len(g), build.Clip(id, 100), answered)
		for _, c := range g {
			if c.OkUnknown == "" {
				c.Ok, c.OkUnknown = false, why
			}
		}
	}
}
