package server_test

import (
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/server"
	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestForbidWithEngine is TestSessionForbid with the contract's own
// invariant checked by eval's live check (session.NewEngine): the send
// the grant allows is refused once a read is in the history, with the
// forbid pattern's witness.
func TestForbidWithEngine(t *testing.T) {
	p := evaltest.ProgramFrom(t, mail)
	h := newHarness(t, session.NewEngine(p, session.Closed), server.Config{})
	id := p.ID
	allowedSend := `"decision":{"allowed":true,"tool":"send_email","id":"s1","decision":"authorized","required":{"operation":"send","param":"to","resource":"bob"}}`
	run1(t, h, []exchange{
		{"GET", "/v1/bundle", "", ``, 200, `{"bundle":"` + id + `","contract":"mail","version":"1.2.0","grants":["assistant","reader"],"tools":[{"name":"read_inbox","operation":"read"},{"name":"send_email","operation":"send","resource":"to"}],"invariants":[{"name":"no_send_after_read","severity":"high","incremental":true}],"invariants_checked":true,"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/run-1/calls", "", `{"grant":"assistant","task":"t","offset":0,"messages":[` + userMsg + `],"call":` + sendBob + `}`, 200,
			`{"allowed":true,"session":"run-1","seq":1,"history":1,"bundle":"` + id + `","grant":"assistant","shape":"openai-tool-call",` + allowedSend + `,"invariants":[],"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/run-1/calls", "", `{"offset":1,"messages":[` + readCall + `,` + readReply + `],"call":` + sendBob + `}`, 200,
			`{"allowed":false,"refusal":"invariant","session":"run-1","seq":2,"history":3,"bundle":"` + id + `","grant":"assistant","shape":"openai-tool-call",` + allowedSend + `,"invariants":[{"name":"no_send_after_read","severity":"high","status":"violated","witness":{"read":"call:0","send":"call:1"}}],"on_unknown":"closed"}`},
		// Once the send has run anyway (the host reports it), the history
		// violates the invariant: a later read is not refused for it.
		{"POST", "/v1/sessions/run-1/calls", "", `{"offset":3,"messages":[{"role":"assistant","content":null,"tool_calls":[` + sendBob + `]},{"role":"tool","tool_call_id":"s1","content":"sent"}],"call":{"name":"read_inbox","arguments":{}}}`, 200,
			`{"allowed":true,"session":"run-1","seq":3,"history":5,"bundle":"` + id + `","grant":"assistant","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[{"name":"no_send_after_read","severity":"high","status":"violated","before":true,"witness":{"read":"call:0","send":"call:1"}}],"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/run-2/calls", "", `{"grant":"assistant","task":"nope","call":` + sendBob + `}`, 422, `{"error":"task \"nope\", goal \"\": task not in contract","code":"unknown_task"}`},
	})
}
