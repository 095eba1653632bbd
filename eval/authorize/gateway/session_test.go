package gateway_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// sessionContract is the seed fixtures' tools under a grant that reads F1
// and F2 and updates anything, with two invariants: no update after a
// read, and an assert that cannot be decided on an update without a note
// (args['note'] is then a missing key: an error at run time).
const sessionContract = `
contract "gw-session" { version = "1.0.0" }
threat_model {}
registry { operations = ["read", "update"] }
tool "read_fixture" {
  operation = "read"
  resource  = "id"
  params    = { id = string }
}
tool "update_fixture" {
  operation = "update"
  resource  = "id"
  params = {
    id    = string
    value = int
    note  = optional(string)
  }
}
grant "host" {
  allow "read" { resources = ["F1", "F2"] }
  allow "update" { resources = ["*"] }
}
task "inspect" { utility = "output != ''" }
invariant "no_update_after_read" {
  severity = "high"
  step "read" { call = "read_fixture" }
  step "send" { call = "update_fixture" }
  forbid = "read _* send"
}
%s
`

// noteAssert is the invariant that is unknown on an update without a note.
const noteAssert = `
invariant "noted_updates" {
  severity = "low"
  assert   = "calls.all(c, c.tool != 'update_fixture' || c.args['note'] == 'ok')"
}
`

// sessionGateway starts a gateway whose decider checks the invariants of
// the contract (with extra invariants) under policy.
func sessionGateway(t *testing.T, extra string, policy gateway.OnUnknown) (*harness, string) {
	t.Helper()
	p := evaltest.ProgramFrom(t, map[string][]byte{"c.tenet.hcl": []byte(fmt.Sprintf(sessionContract, extra))})
	a := authorize.New(p.Bundle, p.ID)
	g, err := gateway.NewGrantDecider(a, "host")
	if err != nil {
		t.Fatal(err)
	}
	live, err := p.NewLive(eval.LiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := gateway.NewSessionDecider(g, live, policy)
	if err != nil {
		t.Fatal(err)
	}
	return start(t, "normal", gateway.Config{Authorizer: a, Decider: d}), p.ID
}

func call(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func answer(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}]}}`, id, text)
}

// logHead is the start of every log line of the test sessions.
func logHead(bundle string, seq int) string {
	return fmt.Sprintf(`{"log":"tenet-decisions/1","time":"1970-01-01T00:00:00Z","origin":"gateway","bundle":%q,"contract":"gw-session","condition":"live","grant":"host","session":"s-test","seq":%d,`, bundle, seq)
}

func TestSessionRefusesANewViolation(t *testing.T) {
	h, bundle := sessionGateway(t, "", gateway.UnknownClosed)
	// A read the grant refuses never ran: the update after it is allowed.
	_, code, _, _ := errorOf(t, h.roundTrip(call(1, "read_fixture", `{"id":"F9"}`)))
	if code != gateway.CodeRefused {
		t.Fatalf("read F9: code %d, want %d", code, gateway.CodeRefused)
	}
	if got, want := h.roundTrip(call(2, "update_fixture", `{"id":"F1","value":1}`)), answer(2, `update_fixture {"id":"F1","value":1}`); got != want {
		t.Fatalf("update before any read:\n got %s\nwant %s", got, want)
	}
	if got, want := h.roundTrip(call(3, "read_fixture", `{"id":"F1"}`)), answer(3, `read_fixture {"id":"F1"}`); got != want {
		t.Fatalf("read:\n got %s\nwant %s", got, want)
	}
	// An update after the read is refused, with the witness: the read is
	// call:1 of the session (the update call:0), the pending update call:2.
	// Refused, it does not enter the session: the next update is refused
	// as a new violation again (not "before"), with the same witness.
	for _, id := range []int{4, 5} {
		gotID, code, msg, data := errorOf(t, h.roundTrip(call(id, "update_fixture", `{"id":"F2","value":2}`)))
		if gotID != fmt.Sprint(id) || code != gateway.CodeRefused {
			t.Fatalf("update %d: id %s code %d", id, gotID, code)
		}
		if want := `tools/call refused by the session check: invariant "no_update_after_read" (severity high) violated, witness read=call:1 (read_fixture, request id 3), send=call:2 (update_fixture, this call)`; msg != want {
			t.Errorf("update %d: message\n got %s\nwant %s", id, msg, want)
		}
		if want := `"invariants":[{"name":"no_update_after_read","severity":"high","status":"violated","witness":{"read":"call:1","send":"call:2"}}]`; !strings.Contains(string(data), want) {
			t.Errorf("update %d: data %s\nlacks %s", id, data, want)
		}
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit status %d", code)
	}
	var calls []string
	for _, l := range h.received() {
		calls = append(calls, l)
	}
	if want := []string{call(2, "update_fixture", `{"id":"F1","value":1}`), call(3, "read_fixture", `{"id":"F1"}`)}; strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server received:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	upd := func(id int, res string) string {
		return fmt.Sprintf(`"call":{"id":"%d","tool":"update_fixture","arguments":{"id":"%s","value":%d}}`, id, res, map[string]int{"F1": 1, "F2": 2}[res])
	}
	updDecision := func(id int, res string) string {
		return fmt.Sprintf(`"decision":{"allowed":true,"tool":"update_fixture","id":"%d","decision":"authorized","required":{"operation":"update","param":"id","resource":"%s"}}`, id, res)
	}
	violated := `"invariants":[{"name":"no_update_after_read","severity":"high","status":"violated","witness":{"read":"call:1","send":"call:2"}}],"on_unknown":"closed"}`
	want := []string{
		logHead(bundle, 1) + `"call":{"id":"1","tool":"read_fixture","arguments":{"id":"F9"}},"allowed":false,"decision":{"allowed":false,"tool":"read_fixture","id":"1","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (read, F9)","required":{"operation":"read","param":"id","resource":"F9"}}}`,
		logHead(bundle, 2) + upd(2, "F1") + `,"allowed":true,` + updDecision(2, "F1") + `,"on_unknown":"closed"}`,
		logHead(bundle, 3) + `"call":{"id":"3","tool":"read_fixture","arguments":{"id":"F1"}},"allowed":true,"decision":{"allowed":true,"tool":"read_fixture","id":"3","decision":"authorized","required":{"operation":"read","param":"id","resource":"F1"}},"on_unknown":"closed"}`,
		logHead(bundle, 4) + upd(4, "F2") + `,"allowed":false,` + updDecision(4, "F2") + `,` + violated,
		logHead(bundle, 5) + upd(5, "F2") + `,"allowed":false,` + updDecision(5, "F2") + `,` + violated,
	}
	if got := strings.TrimSuffix(h.log.String(), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestSessionUnknownByPolicy(t *testing.T) {
	for _, policy := range []gateway.OnUnknown{gateway.UnknownClosed, gateway.UnknownOpen} {
		t.Run(string(policy), func(t *testing.T) {
			h, bundle := sessionGateway(t, noteAssert, policy)
			line := h.roundTrip(call(1, "update_fixture", `{"id":"F1","value":1}`))
			reason := `assert of invariant noted_updates (c.tenet.hcl:33:14): no such key: note`
			if policy == gateway.UnknownClosed {
				_, code, msg, _ := errorOf(t, line)
				if code != gateway.CodeRefused || msg != `tools/call refused by the session check: invariant "noted_updates" (severity low) unknown (--on-unknown closed): `+reason {
					t.Fatalf("closed: code %d message %s", code, msg)
				}
			} else if want := answer(1, `update_fixture {"id":"F1","value":1}`); line != want {
				t.Fatalf("open:\n got %s\nwant %s", line, want)
			}
			// A noted update holds the assert: allowed under either policy.
			if got, want := h.roundTrip(call(2, "update_fixture", `{"id":"F2","value":2,"note":"ok"}`)), answer(2, `update_fixture {"id":"F2","value":2,"note":"ok"}`); got != want {
				t.Fatalf("noted update:\n got %s\nwant %s", got, want)
			}
			h.finish()
			entries := h.logLines()
			if len(entries) != 2 {
				t.Fatalf("%d log lines, want 2:\n%s", len(entries), h.log)
			}
			e := entries[0]
			if e.Allowed != (policy == gateway.UnknownOpen) || e.OnUnknown != string(policy) || len(e.Invariants) != 1 {
				t.Fatalf("log line 1: allowed %v on_unknown %q invariants %+v", e.Allowed, e.OnUnknown, e.Invariants)
			}
			inv := e.Invariants[0]
			if inv.Name != "noted_updates" || inv.Severity != "low" || inv.Status != "unknown" || inv.Before || inv.Reason != reason {
				t.Errorf("log line 1: invariant %+v, want noted_updates low unknown with reason %q", inv, reason)
			}
			first := strings.SplitN(h.log.String(), "\n", 2)[0]
			wantFirst := logHead(bundle, 1) + `"call":{"id":"1","tool":"update_fixture","arguments":{"id":"F1","value":1}},"allowed":` + fmt.Sprint(policy == gateway.UnknownOpen) +
				`,"decision":{"allowed":true,"tool":"update_fixture","id":"1","decision":"authorized","required":{"operation":"update","param":"id","resource":"F1"}},"invariants":[{"name":"noted_updates","severity":"low","status":"unknown","reason":` + fmt.Sprintf("%q", inv.Reason) + `}],"on_unknown":"` + string(policy) + `"}`
			if first != wantFirst {
				t.Errorf("log line 1:\n got %s\nwant %s", first, wantFirst)
			}
			// Under open the unknown update ran: the history holds it, and the
			// noted update is unknown on it again (not before: unknown is not
			// a violation), allowed.
			e = entries[1]
			if policy == gateway.UnknownOpen && (!e.Allowed || len(e.Invariants) != 1 || e.Invariants[0].Status != "unknown") {
				t.Errorf("open, log line 2: allowed %v invariants %+v", e.Allowed, e.Invariants)
			}
			if policy == gateway.UnknownClosed && (!e.Allowed || len(e.Invariants) != 0) {
				t.Errorf("closed, log line 2: allowed %v invariants %+v", e.Allowed, e.Invariants)
			}
		})
	}
}
