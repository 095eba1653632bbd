package responses

import (
	"testing"
)

// TestDecodeLoneBrace: a lone "{" or "[" that the JSONL framer did not
// refuse (a line of many) is refused with the cause and jq -c.
func TestDecodeLoneBrace(t *testing.T) {
	_, _, msg := Decode([]byte("{"))
	check(t, "Decode of a lone {", msg, `invalid JSON (offset 1): unexpected end of JSON input (a line holding only "{" or "[" starts a JSON document pretty-printed over many lines, which is not JSONL: jq -c makes one line of it)`)
}

// TestSniffedShapesRead: every shape the sniffer claims for this format
// is read by Decode, or refused with a reason naming the place and the
// likely cause — never the chat readers' "messages" hint. Before, a
// logged call {"request": {"input"}, "response"} was claimed and then
// refused as a transcript under "request" or as a tool call (its tools).
func TestSniffedShapesRead(t *testing.T) {
	for _, tc := range []struct{ rec, want string }{
		{`{"object": "response", "status": "completed", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]}`, "run"},
		{`{"object": "response", "id": "resp_1"}`, `output: missing (a Response object ("object": "response") has "output" items)`},
		{`{"object": "response", "id": "resp_1", "status": "queued"}`,
			`status "queued": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again`},
		{`{"input": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}], "output": [{"type": "reasoning", "id": "rs_1", "summary": []}]}`, "run"},
		{`{"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}`, "run"},
		{`{"request": {"input": "hi", "tools": [{"type": "function", "name": "f"}]}, "response": {"output": []}}`, "run"},
		{`{"request": {"input": [{"role": "user", "content": "hi"}]}, "response": {"object": "response", "output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}}`, "run"},
		{`{"request": {"input": [{"type": "function_call_output", "call_id": "c", "output": "x"}]}}`,
			`response: nothing (missing) (a request without its response: log the Response object as "response", with its "output" items)`},
		{`{"request": {"input": "hi"}, "response": {"object": "response.input_tokens", "input_tokens": 3}}`,
			`response.output: missing (a Responses API Response has "output" items; this one's object is "response.input_tokens", not a Response)`},
	} {
		if !Sniff([]byte(tc.rec)) {
			t.Errorf("%s: not sniffed", tc.rec)
			continue
		}
		rn, skip, msg := Decode([]byte(tc.rec))
		got := msg
		switch {
		case rn != nil:
			got = "run"
		case skip:
			got = "skip"
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.rec, got, tc.want)
		}
	}
}
