package session_test

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// oneSend forbids a second send: a pending send counted twice — once as
// the history's unanswered call, once appended — would violate it.
var oneSend = map[string][]byte{"c.tenet.hcl": []byte(`
contract "mail" {
  version = "1.0.0"
}
threat_model {}
registry { operations = ["send"] }
tool "send_email" {
  operation = "send"
  resource  = "to"
  params    = { to = string }
}
grant "assistant" {
  allow "send" { resources = ["*"] }
}
invariant "one_send" {
  severity = "high"
  step "a" { call = "send_email" }
  step "b" { call = "send_email" }
  forbid = "a _* b"
}
`)}

func oneSendEngine(t *testing.T) func() *session.Engine {
	e := session.NewEngine(evaltest.ProgramFrom(t, oneSend), session.Closed)
	return func() *session.Engine { return e }
}

const (
	askSend  = `{"role":"user","content":"tell bob"}`
	reqSend1 = `{"role":"assistant","content":null,"tool_calls":[{"id":"s1","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"bob\"}"}}]}`
	send1    = `{"id":"s1","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"bob\"}"}}`
	sent1    = `{"role":"tool","tool_call_id":"s1","content":"sent"}`
	reqSend2 = `{"role":"assistant","content":null,"tool_calls":[{"id":"s2","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"eve\"}"}}]}`
	send2    = `{"id":"s2","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"eve\"}"}}`
)

// TestPendingCallInHistory: a host that sends the whole conversation,
// the assistant message requesting the pending call included, gets the
// call checked once, in place (one send: allowed), not twice (which
// the forbid of a second send would refuse); the next send is then the
// second and is refused, with the witness naming the first and itself.
func TestPendingCallInHistory(t *testing.T) {
	tab := session.NewTable(session.Limits{}, nil)
	eng := oneSendEngine(t)
	out, err := tab.Check("a", eng, session.Request{Offset: intp(0), Messages: msgs(askSend, reqSend1), Call: call(t, send1)})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Allowed || !out.InHistory || len(out.Invariants) != 0 || out.History != 2 {
		t.Fatalf("first send in the history: %+v, want allowed in place, no invariant violated, 2 messages", out)
	}
	out, err = tab.Check("a", eng, session.Request{Offset: intp(2), Messages: msgs(sent1, reqSend2), Call: call(t, send2)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Allowed || out.Refusal != session.ByInvariant || !out.InHistory || len(out.Invariants) != 1 ||
		out.Invariants[0].Witness["a"] != "call:0" || out.Invariants[0].Witness["b"] != "call:1" {
		t.Fatalf("second send: %+v, want refused by one_send with witness a=call:0 b=call:1", out)
	}
	// The same call reported the other way (its request not among the
	// messages) is appended: the same answer.
	out, err = tab.Check("b", eng, session.Request{Offset: intp(0), Messages: msgs(askSend), Call: call(t, send1)})
	if err != nil || !out.Allowed || out.InHistory {
		t.Fatalf("first send appended: %+v %v, want allowed, not in the history", out, err)
	}
}

// TestPendingCallDisagrees: the history's unanswered call of the
// pending call's id must be that call; a call without an id while the
// last message has unanswered calls is refused rather than guessed; and
// nothing of a refused request is kept.
func TestPendingCallDisagrees(t *testing.T) {
	eng := oneSendEngine(t)
	for _, tc := range []struct {
		name, call string
		msgs       [][]byte
		code       session.Code
		msg        string
	}{
		{"other arguments", `{"id":"s1","name":"send_email","arguments":{"to":"eve"}}`, msgs(askSend, reqSend1), session.CallMismatch,
			`call "s1": the history's message 1 requests a call of this id that no result answers yet, which is this pending call, but its arguments differ ({"to":"bob"} there, {"to":"eve"} here)`},
		{"other tool", `{"id":"s1","name":"read_inbox","arguments":{"to":"bob"}}`, msgs(askSend, reqSend1), session.CallMismatch,
			`its tool is "send_email" there and "read_inbox" here`},
		{"no id", `{"name":"send_email","arguments":{"to":"bob"}}`, msgs(askSend, reqSend1), session.CallIDRequired,
			`call "send_email" has no id, and the history's last message (1) requests calls no result answers yet: "send_email" (id "s1")`},
		{"id twice", send1, msgs(askSend, reqSend1, askSend, reqSend1), session.CallMismatch,
			`call "s1": 2 calls of the history have this id and no result yet (messages 1, 3)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := session.NewTable(session.Limits{}, nil)
			_, err := tab.Check("a", eng, session.Request{Offset: intp(0), Messages: tc.msgs, Call: call(t, tc.call)})
			if code(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("got %v (%s), want %s containing %q", err, code(err), tc.code, tc.msg)
			}
			if tab.Len() != 0 {
				t.Errorf("a session whose first request was refused is kept")
			}
		})
	}
	// A call without an id after a message whose calls are all answered
	// is appended, as before.
	tab := session.NewTable(session.Limits{}, nil)
	out, err := tab.Check("a", eng, session.Request{Messages: msgs(askSend, reqSend1, sent1), Call: call(t, `{"name":"send_email","arguments":{"to":"eve"}}`)})
	if err != nil || out.Allowed || out.InHistory || out.Refusal != session.ByInvariant {
		t.Fatalf("an id-less second send after an answered one: %+v %v, want appended and refused by the invariant", out, err)
	}
}
