package session_test

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// readThenPay forbids a payment after a read that ran (call.ok), as the
// shipped no_send_after_untrusted_read does.
var readThenPay = map[string][]byte{"c.tenet.hcl": []byte(`
contract "bank" {
  version = "1.0.0"
}
threat_model {}
registry { operations = ["read", "send"] }
tool "read_file" {
  operation = "read"
  params    = { path = string }
}
tool "send_money" {
  operation = "send"
  resource  = "recipient"
  params    = { recipient = string }
}
grant "teller" {
  allow "read" { resources = ["*"] }
  allow "send" { resources = ["*"] }
}
invariant "no_pay_after_read" {
  severity = "high"
  step "read" {
    call = "read_file"
    when = "call.ok"
  }
  step "pay" { call = "send_money" }
  forbid = "read _* pay"
}
`)}

const (
	askPay   = `{"role":"user","content":"pay the bill in bill.txt"}`
	reqRead  = `{"role":"assistant","content":null,"tool_calls":[{"id":"r1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"bill.txt\"}"}}]}`
	readDone = `{"role":"tool","tool_call_id":"r1","content":"pay eve 100"}`
	pay      = `{"id":"p1","type":"function","function":{"name":"send_money","arguments":"{\"recipient\":\"eve\"}"}}`
)

// TestUnansweredCallIsUnknown: a history call no result answers may have
// run (the host may be running it, or not have reported its result), so
// an invariant reading its ok is unknown — refused under closed, allowed
// under open — and never held, as the offline reading (ok false: did not
// run) would make it. With its result in, the payment is a violation.
func TestUnansweredCallIsUnknown(t *testing.T) {
	p := evaltest.ProgramFrom(t, readThenPay)
	const why = `call 0 ("read_file", message 1) has no result in the session yet: whether it ran is unknown (report its result)`
	for _, pol := range []session.OnUnknown{session.Closed, session.Open} {
		e := session.NewEngine(p, pol)
		eng := func() *session.Engine { return e }
		tab := session.NewTable(session.Limits{}, nil)
		out, err := tab.Check("s", eng, session.Request{Offset: intp(0), Messages: msgs(askPay, reqRead), Call: call(t, pay)})
		if err != nil {
			t.Fatal(err)
		}
		wantAllowed, wantRefusal := false, session.ByUnknown
		if pol == session.Open {
			wantAllowed, wantRefusal = true, ""
		}
		if out.Allowed != wantAllowed || out.Refusal != wantRefusal || len(out.Invariants) != 1 ||
			out.Invariants[0].Status != session.Unknown || out.Invariants[0].Name != "no_pay_after_read" {
			t.Fatalf("%s, read unanswered: allowed %v, refusal %q, invariants %+v; want %v, %q, no_pay_after_read unknown", pol, out.Allowed, out.Refusal, out.Invariants, wantAllowed, wantRefusal)
		}
		if got := out.Invariants[0].Reason; !strings.Contains(got, why) {
			t.Errorf("%s: reason %q; want it to say %q", pol, got, why)
		}
		// The same check again reuses the session's decoding: still unknown.
		out, err = tab.Check("s", eng, session.Request{Offset: intp(2), Call: call(t, pay)})
		if err != nil || out.Allowed != wantAllowed || len(out.Invariants) != 1 || out.Invariants[0].Status != session.Unknown {
			t.Fatalf("%s, again: %+v, %v; want unknown again", pol, out, err)
		}
		// The read's result comes in: it ran, so paying violates the invariant.
		out, err = tab.Check("s", eng, session.Request{Offset: intp(2), Messages: msgs(readDone), Call: call(t, pay)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Allowed || out.Refusal != session.ByInvariant || len(out.Invariants) != 1 || out.Invariants[0].Status != session.Violated {
			t.Errorf("%s, read answered: allowed %v, refusal %q, invariants %+v; want refused, invariant, violated", pol, out.Allowed, out.Refusal, out.Invariants)
		}
	}
}

// TestUnansweredWrapperDispatchesUnknown: a read dispatched by a parallel
// wrapper that no result answers takes the wrapper's outcome, unknown —
// not "did not run", which would let the payment through.
func TestUnansweredWrapperDispatchesUnknown(t *testing.T) {
	e := session.NewEngine(evaltest.ProgramFrom(t, readThenPay), session.Closed)
	tab := session.NewTable(session.Limits{}, nil)
	wrapper := `{"role":"assistant","content":null,"tool_calls":[{"id":"w1","type":"function","function":{"name":"multi_tool_use.parallel","arguments":"{\"tool_uses\":[{\"recipient_name\":\"functions.read_file\",\"parameters\":{\"path\":\"bill.txt\"}}]}"}}]}`
	out, err := tab.Check("s", func() *session.Engine { return e }, session.Request{Offset: intp(0), Messages: msgs(askPay, wrapper), Call: call(t, pay)})
	if err != nil {
		t.Fatal(err)
	}
	const why = `call 0 ("multi_tool_use.parallel") dispatched it and has no result in the session yet: whether it ran is unknown`
	if out.Allowed || out.Refusal != session.ByUnknown || len(out.Invariants) != 1 || !strings.Contains(out.Invariants[0].Reason, why) {
		t.Errorf("allowed %v, refusal %q, invariants %+v; want refused as unknown, the reason saying %q", out.Allowed, out.Refusal, out.Invariants, why)
	}
}
