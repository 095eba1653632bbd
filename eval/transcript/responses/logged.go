package responses

import (
	"fmt"
	"reflect"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// usageMembers are a Response object's counters: "usage" (tokens) and
// "tool_usage" (per built-in tool: {"web_search": {"num_requests": 1},
// "image_gen": {"input_tokens": 0, ...}}), which live responses carry
// though the SDK's type does not list it. Their names are not calls, but
// "tool_usage" names a tool, so build.TopLevelProblem would refuse it as a
// call shape; a member of counters only (counters) is passed over. One
// holding anything else is still searched, so a call hidden there is
// refused, not dropped.
var usageMembers = map[string]bool{"usage": true, "tool_usage": true}

// counters reports whether v is usage counters: an object whose members
// are numbers, nulls or objects of the same kind.
func counters(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, x := range m {
		switch x := x.(type) {
		case nil, float64:
		case map[string]any:
			if !counters(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// requestKeys are the members of a logged request the reader reads; the
// others (model, tools, tool_choice, include, stream, ...) are searched
// for a call out of place (tools and tool_choice as tool declarations).
var requestKeys = map[string]bool{"input": true, "instructions": true, "metadata": true}

// responseKeys are the members of a logged response the reader reads.
var responseKeys = map[string]bool{"output": true, "instructions": true, "metadata": true}

// loggedCall reads {"request": {request}, "response": {Response},
// "metadata": {...}}: a Responses API call as a client logs it (Inspect's
// model calls, HTTP cassettes). Its items are the instructions (the
// request's, else the response's echo of them), the request's input,
// then the response's output. A response that did not complete is
// refused as a Response record is. Meta is the record's metadata, else
// the response's, else the request's.
func loggedCall(rec map[string]any) (items []located, meta map[string]any, skip bool, msg string) {
	req, ok := rec["request"].(map[string]any)
	if !ok {
		return nil, nil, false, "request: want an object (a Responses API request), got " + build.Kind(rec["request"])
	}
	if _, ok := req["messages"]; ok {
		return nil, nil, false, `request.messages: a Chat Completions or Anthropic Messages request (openai-messages or anthropic-messages?); a Responses API request has "input"`
	}
	respV, ok := rec["response"]
	if !ok || respV == nil {
		return nil, nil, false, "response: " + build.KindOrMissing(rec, "response") + ` (a request without its response: log the Response object as "response", with its "output" items)`
	}
	resp, ok := respV.(map[string]any)
	if !ok {
		return nil, nil, false, "response: want an object (a Responses API Response), got " + build.Kind(respV)
	}
	if _, ok := resp["input"]; ok {
		return nil, nil, false, `response.input: a Response has no input; which input the call had is unclear (the request's is "request.input")`
	}
	_, hasIn := req["input"]
	_, hasOut := resp["output"]
	if !hasIn && !hasOut && resp["error"] == nil {
		// A call to another endpoint (creating a conversation or a vector
		// store): no items, so a header line, as the same bodies merged
		// into one object are — unless it holds a transcript or a call.
		if msg := terms.FindTranscript(rec, []string{"request", "response"}); msg != "" {
			return nil, nil, false, msg
		}
		return nil, nil, true, ""
	}
	if msg := unfinished(resp, "response."); msg != "" {
		return nil, nil, false, msg
	}
	if !hasOut {
		if _, ok := resp["choices"]; ok {
			return nil, nil, false, `response.choices: a Chat Completions response (openai-messages?); a Responses API Response has "output" items`
		}
		what := ""
		if obj, ok := resp["object"].(string); ok && obj != "response" {
			what = fmt.Sprintf("; this one's object is %q, not a Response", build.Clip(obj, 100))
		}
		return nil, nil, false, `response.output: missing (a Responses API Response has "output" items` + what + ")"
	}
	if msg := restProblem(rec, map[string]bool{"request": true, "response": true, "metadata": true}, "record member "); msg != "" {
		return nil, nil, false, msg
	}
	if msg := restProblem(req, requestKeys, "request member "); msg != "" {
		return nil, nil, false, msg
	}
	if msg := restProblem(resp, responseKeys, "response member "); msg != "" {
		return nil, nil, false, msg
	}
	for _, src := range []struct {
		v    any
		name string
	}{{rec["metadata"], "metadata"}, {resp["metadata"], "response.metadata"}, {req["metadata"], "request.metadata"}} {
		if meta, msg = metadata(src.v, src.name); msg != "" {
			return nil, nil, false, msg
		}
		if src.v != nil {
			break
		}
	}
	instr, instrName := req["instructions"], "request.instructions"
	if instr == nil {
		instr, instrName = resp["instructions"], "response.instructions"
	}
	items, msg = conversation(instr, instrName, req["input"], "request.input", resp["output"], "response.output")
	return items, meta, false, msg
}

// itemIDs maps the non-empty id of each item of in to the first item
// with it.
func itemIDs(in []located) map[string]located {
	ids := map[string]located{}
	for _, l := range in {
		o, _ := l.v.(map[string]any)
		if id, _ := o["id"].(string); id != "" {
			if _, seen := ids[id]; !seen {
				ids[id] = l
			}
		}
	}
	return ids
}

// replayed reports whether v, an output item, is an input item (ids, by
// itemIDs) logged again: one with the same non-empty id and the same
// content (a harness that appends the response's items to its input list
// before logging the request). The API gives every item its own id, so
// such an item is read once, at its input position; one with an input
// item's id but other content is refused, as which of the two the
// response returned is unclear.
func replayed(ids map[string]located, v any, where string) (bool, string) {
	it, _ := v.(map[string]any)
	id, _ := it["id"].(string)
	l, ok := ids[id]
	if id == "" || !ok {
		return false, ""
	}
	if reflect.DeepEqual(l.v, it) {
		return true, ""
	}
	return false, fmt.Sprintf("%s: id %q is also %s's, with other content: which item the response returned is unclear (the API gives each item its own id)", where, build.Clip(id, 100), l.where())
}
