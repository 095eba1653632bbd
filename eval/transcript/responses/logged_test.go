package responses

import (
	"testing"
)

// TestMCPErrorObject: the API reports a failed mcp_call's error as an
// object, though the SDK's type says a string: the call failed, with the
// object's message, else its type, else its JSON as the error. Before,
// the object was refused ("error: want a string, got an object").
func TestMCPErrorObject(t *testing.T) {
	item := func(status, errJSON string) string {
		return `[{"type": "mcp_call", "id": "mcp_1", "server_label": "cal", "name": "search_events", "arguments": "{}", "output": null, "status": "` + status + `", "error": ` + errJSON + `}]`
	}
	for _, tc := range []struct{ rec, want string }{
		{item("failed", `{"type": "http_error", "code": 500, "message": "The server answered 500."}`),
			"mcp_1|search_events|map[]|false|||The server answered 500.|0|0|0|"},
		{item("failed", `{"type": "http_error", "code": 500}`), "mcp_1|search_events|map[]|false|||http_error|0|0|0|"},
		{item("failed", `{"code": 500, "message": " "}`), `mcp_1|search_events|map[]|false|||{"code":500,"message":" "}|0|0|0|`},
		// An error object beside status "completed": the error wins, as a
		// string error does.
		{item("completed", `{"message": "timed out"}`), "mcp_1|search_events|map[]|false|||timed out|0|0|0|"},
		{item("failed", `null`), "mcp_1|search_events|map[]|false|||failed|0|0|0|"},
	} {
		_, calls := summary(decodeOK(t, tc.rec))
		check(t, tc.rec, calls, []string{tc.want})
	}
	_, _, msg := Decode([]byte(item("failed", `[1]`)))
	check(t, "list error", msg, "item 0: error: want a string, an object or null, got a list")
}

// TestLoggedCall reads {"request", "response"}, a call as a client logs
// it: instructions and input from the request (a string input is one
// user message; its tools are declarations, not calls), then the
// response's output. Before, it was refused as a transcript under
// "request" or as a tool call (its tools).
func TestLoggedCall(t *testing.T) {
	rn := decodeOK(t, `{"request": {"model": "m", "instructions": "Be brief.", "input": "Pay the landlord 1100.",
		"tools": [{"type": "function", "name": "send_money", "parameters": {"type": "object"}}], "tool_choice": "auto", "stream": false,
		"metadata": {"task": "from_request"}},
	 "response": {"id": "resp_1", "object": "response", "status": "completed", "error": null, "incomplete_details": null,
		"instructions": "Be brief.", "metadata": {"task": "pay_rent"}, "tool_usage": {"web_search": {"num_requests": 0}},
		"tools": [{"type": "function", "name": "send_money", "parameters": {"type": "object"}}],
		"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "send_money", "arguments": "{\"amount\": 1100}", "status": "completed"}]}}`)
	events, calls := summary(rn)
	check(t, "events", events, []string{"system|Be brief.|||false||", "user|Pay the landlord 1100.|||false||", "assistant||||false||"})
	check(t, "calls", calls, []string{"call_1|send_money|map[amount:1100]|false||||-1|2|0|"})
	check(t, "meta (the response's before the request's)", rn.Meta, map[string]any{"task": "pay_rent"})
	check(t, "record", rn.Record["request"].(map[string]any)["model"], "m")

	// The next turn: the request replays the call and carries its
	// output; the record's own metadata comes first; instructions only
	// in the response (its echo) are read.
	rn = decodeOK(t, `{"metadata": {"task": "own"}, "request": {"input": [{"role": "user", "content": "Pay."},
		{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "send_money", "arguments": "{}"},
		{"type": "function_call_output", "call_id": "call_1", "output": "sent"}]},
	 "response": {"status": "completed", "instructions": "Sys.", "output": [{"type": "message", "id": "msg_2", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}]}}`)
	events, calls = summary(rn)
	check(t, "turn 2 events", events, []string{"system|Sys.|||false||", "user|Pay.|||false||", "assistant||||false||", "tool|sent|call_1|send_money|false||", "assistant|Done.|||false||"})
	check(t, "turn 2 calls", calls, []string{"call_1|send_money|map[]|true||sent||3|2|0|"})
	check(t, "turn 2 meta", rn.Meta, map[string]any{"task": "own"})
	check(t, "turn 2 output", rn.Output, "Done.")
	check(t, "item where", rn.Events[4].Blocks[0].(map[string]any)["type"], "output_text")

	// A call to another endpoint (a conversation created): no items, a
	// header line, as its bodies merged into one object are.
	rn, skip, msg := Decode([]byte(`{"request": {"metadata": {"x": "y"}}, "response": {"id": "conv_1", "object": "conversation", "created_at": 1, "metadata": {}}}`))
	check(t, "other endpoint", []any{rn == nil, skip, msg}, []any{true, true, ""})
}

// TestLoggedCallRefused: what the logged-call shape cannot be read as is
// refused naming the place and the likely cause.
func TestLoggedCallRefused(t *testing.T) {
	out := `"output": [{"type": "message", "role": "assistant", "content": "ok"}]`
	for _, tc := range []struct{ rec, want string }{
		{`{"request": [], "response": {` + out + `}}`, `request: want an object (a Responses API request), got a list`},
		{`{"request": {"messages": [{"role": "user", "content": "hi"}]}, "response": {"choices": []}}`,
			`request.messages: a Chat Completions or Anthropic Messages request (openai-messages or anthropic-messages?); a Responses API request has "input"`},
		{`{"request": {"input": "hi"}}`, `response: nothing (missing) (a request without its response: log the Response object as "response", with its "output" items)`},
		{`{"request": {"input": "hi"}, "response": null}`, `response: null (a request without its response: log the Response object as "response", with its "output" items)`},
		{`{"request": {"input": "hi"}, "response": "ok"}`, `response: want an object (a Responses API Response), got a string`},
		{`{"request": {"input": "hi"}, "response": {"input": "hi", ` + out + `}}`,
			`response.input: a Response has no input; which input the call had is unclear (the request's is "request.input")`},
		{`{"request": {"input": "hi"}, "response": {"choices": [{"message": {"role": "assistant", "content": "ok"}}]}}`,
			`response.choices: a Chat Completions response (openai-messages?); a Responses API Response has "output" items`},
		{`{"request": {"input": "hi"}, "response": {"object": "response.input_tokens", "input_tokens": 7}}`,
			`response.output: missing (a Responses API Response has "output" items; this one's object is "response.input_tokens", not a Response)`},
		{`{"request": {"input": "hi"}, "response": {"error": {"message": "Invalid 'temperature'."}}}`,
			`response.error: the response failed (Invalid 'temperature'.): its output is not the agent's answer; leave it out or run it again`},
		{`{"request": {"input": "hi"}, "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, ` + out + `}}`,
			`response.status "incomplete", reason "max_output_tokens": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again`},
		{`{"request": {"input": 5}, "response": {` + out + `}}`, `request.input: want a string, null or a list of items, got a number`},
		{`{"request": {"input": "hi"}, "response": {"output": [{"type": "item_reference", "id": "x"}]}}`,
			`response.output[0]: type "item_reference": an item_reference points at an item the API stored, which the record does not hold (a call or a result could be missing): log the items themselves`},
		{`{"request": {"input": "hi", "extra": {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}}, "response": {` + out + `}}`,
			`request member extra: a tool call in a place this reader does not read (a Responses API item out of place? this reader reads items only in "input" and "output", or a list of items)`},
		{`{"request": {"input": "hi"}, "response": {"tool_usage": {"web_search": {"call": {"name": "f", "arguments": {}}}}, ` + out + `}}`,
			`response member tool_usage.web_search.call: a tool call in a place this reader does not read (this reader reads calls and messages only under "input" and "output")`},
		{`{"request": {"input": "hi"}, "response": {` + out + `}, "metadata": 3}`, `metadata: want an object, got a number`},
		{`{"request": {}, "response": {"id": "x", "data": {"messages": [{"role": "user", "content": "hi"}]}}}`,
			`response.data.messages: a transcript nested under "data": this reader wants "input" and "output" at the top level`},
	} {
		rn, skip, msg := Decode([]byte(tc.rec))
		if rn != nil || skip || msg != tc.want {
			t.Errorf("%s:\n got %v, %v, %q\nwant %q", tc.rec, rn != nil, skip, msg, tc.want)
		}
	}
}

// TestReplayedItems: an output item logged again in the input (the same
// id, the same content: a harness that appended the response's items to
// its input before logging) is read once, at its input position; one
// with an input item's id but other content is refused. Before, the call
// was read twice and its ok made unknown (two calls sharing a call_id,
// one answered).
func TestReplayedItems(t *testing.T) {
	fc := `{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "send_money", "arguments": "{}"}`
	for _, shape := range []string{
		`{"input": [{"role": "user", "content": "Pay."}, ` + fc + `, {"type": "function_call_output", "call_id": "call_1", "output": "sent"}], "output": [` + fc + `]}`,
		`{"request": {"input": [{"role": "user", "content": "Pay."}, ` + fc + `, {"type": "function_call_output", "call_id": "call_1", "output": "sent"}]}, "response": {"output": [` + fc + `]}}`,
	} {
		events, calls := summary(decodeOK(t, shape))
		check(t, "events", events, []string{"user|Pay.|||false||", "assistant||||false||", "tool|sent|call_1|send_money|false||"})
		check(t, "calls", calls, []string{"call_1|send_money|map[]|true||sent||2|1|0|"})
	}
	_, _, msg := Decode([]byte(`{"input": [` + fc + `], "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "send_money", "arguments": "{\"amount\": 5}"}]}`))
	check(t, "other content", msg, `output[0]: id "fc_1" is also input[0]'s, with other content: which item the response returned is unclear (the API gives each item its own id)`)
}
