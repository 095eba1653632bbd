package responses

import "testing"

// TestTextCallRefused: an assistant message item whose text writes a call
// in a chat template's form (review 15) was read as no call; it is
// refused naming the template. A user's text is not looked at.
func TestTextCallRefused(t *testing.T) {
	rec := `[{"role": "user", "content": "email bob"}, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "<tool_call>{\"name\": \"send_email\", \"arguments\": {}}</tool_call>"}]}]`
	want := `item 1: the assistant's text writes a tool call as text (Hermes/Qwen "<tool_call>" calling "send_email"), but this reader reads only structured calls (function_call items), so the run would have no such call: convert the calls to function_call items`
	if rn, skip, msg := Decode([]byte(rec)); rn != nil || skip || msg != want {
		t.Errorf("got %v %v %q\nwant %q", rn != nil, skip, msg, want)
	}
	rn, _, msg := Decode([]byte(`[{"role": "user", "content": "<tool_call>{\"name\": \"x\"}</tool_call>"}]`))
	if msg != "" || rn == nil || len(rn.Calls) != 0 {
		t.Errorf("user text: %v %q", rn, msg)
	}
}
