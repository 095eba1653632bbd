package openai

import "testing"

// TestResponsesItemsNamed: OpenAI Responses API records given to this
// reader are refused naming openai-responses — a list of items (was
// "record is a list, want an object" alone) and a Response object whose
// output holds only built-in tool calls (was skipped as a header line: a
// run dropped).
func TestResponsesItemsNamed(t *testing.T) {
	for _, tc := range []struct{ rec, want string }{
		{`[{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]`,
			`record is a list, want an object (a list of OpenAI Responses API items? use --transcript-format openai-responses)`},
		{`[1, {"type": "reasoning", "summary": []}]`,
			`record is a list, want an object (a list of OpenAI Responses API items? use --transcript-format openai-responses)`},
		{`[1, 2]`, `record is a list, want an object`},
		{`{"id": "resp_1", "object": "response", "output": [{"id": "ws_1", "type": "web_search_call", "status": "completed", "action": {"type": "search", "query": "q"}}]}`,
			`no "messages" member, but output[0] is an item of type "web_search_call" (an OpenAI Responses API item? use --transcript-format openai-responses): a transcript must be under "messages" at the top level; a header line has no messages and no calls`},
	} {
		rn, skip, msg := Decode([]byte(tc.rec))
		if msg != tc.want || rn != nil || skip {
			t.Errorf("Decode(%s):\n got  %q (run %v, skip %v)\n want %q", tc.rec, msg, rn != nil, skip, tc.want)
		}
	}
}
