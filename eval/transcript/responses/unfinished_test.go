package responses

import "testing"

// TestUnfinishedResponseRefused: a Response that failed, was cut short or
// is still running is refused, not judged as if the agent had stopped
// there (its output is the platform's failure, and a call cut off
// mid-arguments would read as a failed call); a completed one is read.
func TestUnfinishedResponseRefused(t *testing.T) {
	for _, tc := range []struct{ rec, want string }{
		{`{"status":"failed","error":{"code":"server_error","message":"The model failed to generate a response."},"input":[],"output":[]}`,
			`error: the response failed (server_error: The model failed to generate a response.): its output is not the agent's answer; leave it out or run it again`},
		{`{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"error":null,"input":"pay","output":[{"type":"function_call","call_id":"c1","name":"send_money","arguments":"{\"recipient\":\"landl"}]}`,
			`status "incomplete", reason "max_output_tokens": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again`},
		{`{"status":"in_progress","input":"pay","output":[]}`,
			`status "in_progress": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again`},
		{`{"status":7,"input":"pay","output":[]}`, `status: want a string, got a number`},
	} {
		rn, skip, msg := Decode([]byte(tc.rec))
		if rn != nil || skip || msg != tc.want {
			t.Errorf("%s:\n got %v, %v, %q\nwant %q", tc.rec, rn != nil, skip, msg, tc.want)
		}
	}
	rn, _, msg := Decode([]byte(`{"status":"completed","error":null,"input":"pay","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}]}`))
	if msg != "" || rn == nil || rn.Output != "done" {
		t.Errorf("completed response: %q, %+v", msg, rn)
	}
}
