package openai

import "testing"

// TestAnthropicRecordsRefused: an Anthropic Messages API record read as
// openai-messages is refused with a hint naming anthropic-messages (issue
// 15): its top-level system prompt would be dropped (the run was judged
// without it), and a logged call's response would be passed over. A
// record whose "system" is empty or null, or that has none, reads as
// before.
func TestAnthropicRecordsRefused(t *testing.T) {
	const hint = `: an Anthropic Messages API record? read it with the format "anthropic-messages"`
	msgs := `"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"send","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]`
	resp := `"response":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"}`
	for _, tc := range []struct{ in, want string }{
		{`{"system":"You are a banking assistant.",` + msgs + `}`,
			`record member "system": a system prompt beside "messages", which this reader does not read (it reads system messages)` + hint},
		{`{"system":[{"type":"text","text":"Be brief."}],` + msgs + `}`,
			`record member "system": system prompt blocks beside "messages", which this reader does not read (it reads system messages)` + hint},
		{`{"request":{` + msgs + `},` + resp + `}`,
			`no "messages" member, but "request" holds a Messages API request (with its "response" or "system")` + hint},
		{`{"request":{"system":"s",` + msgs + `}}`,
			`no "messages" member, but "request" holds a Messages API request (with its "response" or "system")` + hint},
		{`{` + msgs + `,` + resp + `}`,
			`record member "response": a Messages API response (type "message") beside the request, which this reader does not read` + hint},
	} {
		rn, skip, msg := Decode([]byte(tc.in))
		if rn != nil || skip || msg != tc.want {
			t.Errorf("%s\n got %v, %v, %q\nwant %q", tc.in, rn, skip, msg, tc.want)
		}
	}
	for _, in := range []string{`{"system":"",` + msgs + `}`, `{"system":null,` + msgs + `}`, `{` + msgs + `}`} {
		rn, skip, msg := Decode([]byte(in))
		if msg != "" || skip || len(rn.Calls) != 1 || !rn.Calls[0].Ok {
			t.Errorf("%s: %v, %v, %q; want a run with its call", in, rn, skip, msg)
		}
	}
}

// TestCompactionBlockRefused: an Anthropic compaction block inside an
// OpenAI message is refused, as anthropic-messages refuses it: the turns
// it summarised, and their calls, are not in the record. It was read as
// a block of no calls.
func TestCompactionBlockRefused(t *testing.T) {
	_, _, msg := Decode([]byte(`{"messages": [{"role": "user", "content": "pay"}, {"role": "assistant", "content": [{"type": "compaction", "content": "paid the friend"}]}]}`))
	want := `message 1: content[0]: a "compaction" block: the conversation before it was compacted into a summary, so calls made before it may be missing from the record and what the agent did cannot be judged`
	if msg != want {
		t.Errorf("got  %s\nwant %s", msg, want)
	}
}
