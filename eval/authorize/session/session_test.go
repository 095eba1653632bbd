package session_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// contract has two grants, so that a session must name one, and a
// forbid invariant (read then send) a pending send would violate.
var contract = map[string][]byte{"c.tenet.hcl": []byte(`
contract "mail" {
  version = "1.0.0"
}
threat_model {}
registry { operations = ["read", "send"] }
tool "read_inbox" {
  operation = "read"
  params    = {}
}
tool "send_email" {
  operation = "send"
  resource  = "to"
  params    = { to = string }
}
grant "reader" {
  allow "read" { resources = ["*"] }
}
grant "assistant" {
  allow "read" { resources = ["*"] }
  allow "send" { resources = ["bob"] }
}
task "t" {
  utility = "true"
}
invariant "no_send_after_read" {
  severity = "high"
  step "read" { call = "read_inbox" }
  step "send" { call = "send_email" }
  forbid = "read _* send"
}
source "s" {
  format    = "openai-messages"
  task      = "'t'"
  condition = "'c'"
}
`)}

func authorizer(t testing.TB) *authorize.Authorizer {
	p := evaltest.ProgramFrom(t, contract)
	return authorize.New(p.Bundle, p.ID)
}

// fake is a Checker that says, per check, what it is told to, and
// records what it saw.
type fake struct {
	mu     sync.Mutex
	say    func(r *run.Run, pending int) []session.Result
	calls  []string // tool of the pending call, per check
	events []int    // events of each run checked
}

func (f *fake) Check(r *run.Run, pending int) ([]session.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Calls[pending].Tool)
	f.events = append(f.events, len(r.Events))
	if f.say == nil {
		return nil, nil
	}
	return f.say(r, pending), nil
}

// readThenSend says what the forbid invariant says: violated when a
// read_inbox call precedes a pending send_email.
func readThenSend(r *run.Run, pending int) []session.Result {
	res := session.Result{Name: "no_send_after_read", Severity: "high", Status: session.Held}
	if r.Calls[pending].Tool == "send_email" {
		for _, c := range r.Calls[:pending] {
			if c.Tool == "read_inbox" {
				res.Status = session.Violated
				res.Witness = map[string]string{"read": fmt.Sprint(c.Index), "send": fmt.Sprint(pending)}
			}
		}
	}
	return []session.Result{res}
}

func engine(t testing.TB, f *fake, pol session.OnUnknown) func() *session.Engine {
	e := &session.Engine{Auth: authorizer(t), OnUnknown: pol}
	if f != nil {
		e.NewChecker = func(string, string) (session.Checker, error) { return f, nil }
	}
	return func() *session.Engine { return e }
}

func call(t testing.TB, s string) authorize.Call {
	c, _, err := authorize.ReadCall([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func msgs(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i := range s {
		out[i] = []byte(s[i])
	}
	return out
}

const (
	userMsg   = `{"role":"user","content":"summarise my mail"}`
	readCall  = `{"role":"assistant","content":null,"tool_calls":[{"id":"r1","type":"function","function":{"name":"read_inbox","arguments":"{}"}}]}`
	readReply = `{"role":"tool","tool_call_id":"r1","content":"3 mails"}`
	sendBob   = `{"name":"send_email","arguments":{"to":"bob"}}`
)

func intp(i int) *int { return &i }

func TestForbidNewlyViolatedRefuses(t *testing.T) {
	f := &fake{say: readThenSend}
	tab := session.NewTable(session.Limits{}, nil)
	eng := engine(t, f, session.Closed)
	// Before any read, the send is allowed.
	out, err := tab.Check("s1", eng, session.Request{Grant: "assistant", Offset: intp(0), Messages: msgs(userMsg), Call: call(t, sendBob)})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Allowed || out.Refusal != "" || out.Seq != 1 || out.History != 1 || len(out.Invariants) != 0 {
		t.Fatalf("first send: %+v", out)
	}
	// After the read (reported with its result), the same send is refused
	// by the invariant though the grant allows it.
	out, err = tab.Check("s1", eng, session.Request{Offset: intp(1), Messages: msgs(readCall, readReply), Call: call(t, sendBob)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(out.Invariants)
	if out.Allowed || out.Refusal != session.ByInvariant || !out.Decision.Allowed || out.Seq != 2 || out.History != 3 ||
		string(got) != `[{"Name":"no_send_after_read","Severity":"high","Status":"violated","Before":false,"Reason":"","Witness":{"read":"0","send":"1"}}]` {
		t.Fatalf("send after read: %+v %s", out, got)
	}
	if strings.Join(f.calls, ",") != "send_email,send_email" || fmt.Sprint(f.events) != "[2 4]" {
		t.Errorf("checker saw calls %v, events %v", f.calls, f.events)
	}
}

func TestBeforeDoesNotRefuse(t *testing.T) {
	f := &fake{say: func(*run.Run, int) []session.Result {
		return []session.Result{{Name: "x", Severity: "low", Status: session.Violated, Before: true}}
	}}
	out, err := session.NewTable(session.Limits{}, nil).Check("s", engine(t, f, session.Closed), session.Request{Grant: "reader", Call: call(t, `{"name":"read_inbox","arguments":{}}`)})
	if err != nil || !out.Allowed || len(out.Invariants) != 1 {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestOnUnknown(t *testing.T) {
	f := &fake{say: func(*run.Run, int) []session.Result {
		return []session.Result{{Name: "x", Severity: "low", Status: session.Unknown, Reason: "cost limit"}}
	}}
	for _, tc := range []struct {
		pol     session.OnUnknown
		allowed bool
		refusal session.Refusal
	}{{session.Closed, false, session.ByUnknown}, {session.Open, true, ""}} {
		out, err := session.NewTable(session.Limits{}, nil).Check("s", engine(t, f, tc.pol), session.Request{Grant: "reader", Call: call(t, `{"name":"read_inbox","arguments":{}}`)})
		if err != nil || out.Allowed != tc.allowed || out.Refusal != tc.refusal || out.OnUnknown != tc.pol || len(out.Invariants) != 1 {
			t.Errorf("%s: %+v %v", tc.pol, out, err)
		}
	}
	// An authorization refusal is named first whatever the invariants say.
	out, _ := session.NewTable(session.Limits{}, nil).Check("s", engine(t, f, session.Closed), session.Request{Grant: "reader", Call: call(t, sendBob)})
	if out.Allowed || out.Refusal != session.ByAuthorization || out.Decision.Decision != "missing_resource_capability" {
		t.Errorf("%+v", out)
	}
	if p, err := session.ParseOnUnknown("maybe"); err == nil || p != session.Closed {
		t.Errorf("ParseOnUnknown(maybe) = %v, %v", p, err)
	}
}

func code(err error) session.Code {
	var e *session.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestRefusalsKeepNothing(t *testing.T) {
	tab := session.NewTable(session.Limits{MaxMessages: 3, MaxHistoryBytes: 400}, nil)
	eng := engine(t, nil, session.Closed)
	read := call(t, `{"name":"read_inbox","arguments":{}}`)
	_, err := tab.Check("s", eng, session.Request{Call: read})
	if code(err) != session.GrantRequired || err.Error() != "grant: required on a session's first request, the bundle declares 2 grants ([assistant reader])" {
		t.Errorf("no grant: %v", err)
	}
	var ug *authorize.UnknownGrantError
	if _, err := tab.Check("s", eng, session.Request{Grant: "admin", Call: read}); !errors.As(err, &ug) {
		t.Errorf("unknown grant: %v", err)
	}
	if _, err := tab.Check("s", eng, session.Request{Grant: "reader", Offset: intp(2), Call: read}); code(err) != session.Mismatch {
		t.Errorf("offset on a new session: %v", err)
	}
	if tab.Len() != 0 {
		t.Errorf("%d sessions kept after refused first requests", tab.Len())
	}
	if _, err := tab.Check("s", eng, session.Request{Grant: "reader", Messages: msgs(userMsg), Call: read}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		req  session.Request
		code session.Code
		msg  string
	}{
		{session.Request{Grant: "assistant", Call: read}, session.Mismatch, `grant "assistant": the session runs under grant "reader", fixed by its first request (a session is one run: start another for another grant)`},
		{session.Request{Task: "other", Call: read}, session.Mismatch, `task "other": the session runs under task "", fixed by its first request (a session is one run: start another for another task)`},
		{session.Request{Offset: intp(0), Call: read}, session.Mismatch, "offset 0: the session holds 1 messages"},
		{session.Request{Messages: msgs(userMsg, userMsg, userMsg), Call: read}, session.HistoryTooLarge, "the session would hold 4 messages, over the limit of 3 (start a new session)"},
		{session.Request{Messages: msgs(`{"role":"user","content":"` + strings.Repeat("x", 400) + `"}`), Call: read}, session.HistoryTooLarge, "the session's messages would be 473 bytes, over the limit of 400 (start a new session)"},
		{session.Request{Messages: msgs(`{"role":"user","content":1}`), Call: read}, session.BadMessages, ""},
	} {
		// A refusal of reported messages breaks its session (see
		// TestRefusedMessagesBreakTheSession): each gets a session of its own.
		id := "s"
		if len(tc.req.Messages) > 0 {
			id = fmt.Sprintf("m%d", len(tc.req.Messages[0]))
			if _, err := tab.Check(id, eng, session.Request{Grant: "reader", Messages: msgs(userMsg), Call: read}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := tab.Check(id, eng, tc.req)
		if code(err) != tc.code || (tc.msg != "" && err.Error() != tc.msg) {
			t.Errorf("%+v: %v (code %q)", tc.req, err, code(err))
		}
	}
	if _, err := tab.Check("b", eng, session.Request{Grant: "reader", Messages: msgs(userMsg), Call: read}); err != nil {
		t.Fatal(err)
	}
	_, err = tab.Check("b", eng, session.Request{Messages: msgs(`{"role":"user","content":1}`), Call: read})
	if want := "the session's history (messages 0-1; this request's from 1) is not OpenAI chat messages: message 1: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("bad message: %v, want prefix %q", err, want)
	}
	// None of the refused requests left a message behind.
	out, err := tab.Check("s", eng, session.Request{Offset: intp(1), Call: read})
	if err != nil || out.History != 1 || out.Seq != 2 {
		t.Errorf("after refusals: %+v %v", out, err)
	}
}

func TestTableEviction(t *testing.T) {
	now := time.Unix(1000, 0)
	tab := session.NewTable(session.Limits{MaxSessions: 2, IdleTTL: time.Minute}, func() time.Time { return now })
	eng := engine(t, nil, session.Closed)
	read := call(t, `{"name":"read_inbox","arguments":{}}`)
	check := func(id string, off int) error {
		_, err := tab.Check(id, eng, session.Request{Grant: "reader", Offset: intp(off), Messages: msgs(userMsg), Call: read})
		return err
	}
	if check("a", 0) != nil || check("b", 0) != nil {
		t.Fatal("two sessions")
	}
	if err := check("c", 0); code(err) != session.TooManySessions {
		t.Fatalf("third session: %v", err)
	}
	now = now.Add(30 * time.Second)
	if check("a", 1) != nil { // a is used again: not idle
		t.Fatal("a again")
	}
	now = now.Add(45 * time.Second) // b idle 75 s, a 45 s
	if err := check("c", 0); err != nil {
		t.Fatalf("c after b expired: %v", err)
	}
	if tab.Len() != 2 {
		t.Errorf("%d sessions, want a and c", tab.Len())
	}
	if !tab.Delete("a") || tab.Delete("a") {
		t.Error("Delete")
	}
	// b was evicted: a request continuing it is told so.
	if err := check("b", 1); code(err) != session.Mismatch || !strings.Contains(err.Error(), "the session is new") {
		t.Errorf("b after eviction: %v", err)
	}
}

// TestChecksOfOneSessionAreSerial runs many checks of one session at
// once: each sees the history all earlier ones appended (under -race, a
// data race fails it).
func TestChecksOfOneSessionAreSerial(t *testing.T) {
	f := &fake{}
	tab := session.NewTable(session.Limits{}, nil)
	eng := engine(t, f, session.Closed)
	read := call(t, `{"name":"read_inbox","arguments":{}}`)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tab.Check("s", eng, session.Request{Grant: "reader", Messages: msgs(userMsg), Call: read}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i, n := range f.events {
		if n != i+2 { // i+1 messages, and the pending call's
			t.Fatalf("check %d saw %d events: %v", i, n, f.events)
		}
	}
}

// TestUnknownTask: a task the checker refuses refuses the first request,
// and the session is not fixed by it: the next first request may name
// another task.
func TestUnknownTask(t *testing.T) {
	e := &session.Engine{Auth: authorizer(t), NewChecker: func(task, goal string) (session.Checker, error) {
		if task != "t" {
			return nil, fmt.Errorf("task %q is not declared", task)
		}
		return &fake{}, nil
	}}
	eng := func() *session.Engine { return e }
	tab := session.NewTable(session.Limits{}, nil)
	read := call(t, `{"name":"read_inbox","arguments":{}}`)
	_, err := tab.Check("s", eng, session.Request{Grant: "reader", Task: "x", Messages: msgs(userMsg), Call: read})
	if code(err) != session.UnknownTask || err.Error() != `task "x" is not declared` {
		t.Fatalf("task x: %v", err)
	}
	out, err := tab.Check("s", eng, session.Request{Grant: "assistant", Task: "t", Offset: intp(0), Call: read})
	if err != nil || out.Grant != "assistant" || out.History != 0 {
		t.Fatalf("task t: %+v %v", out, err)
	}
}

// TestRefusedMessagesBreakTheSession: once a request's messages are
// refused (here over the history limit, 413), the host holds a message
// the session does not; a later request — even one whose offset agrees
// with the session's count — is refused (session_broken) rather than
// checked on a history with a hole, until the session is deleted.
func TestRefusedMessagesBreakTheSession(t *testing.T) {
	tab := session.NewTable(session.Limits{MaxMessages: 2}, nil)
	eng := engine(t, nil, session.Closed)
	read := call(t, `{"name":"read_inbox","arguments":{}}`)
	if _, err := tab.Check("s", eng, session.Request{Grant: "reader", Offset: intp(0), Messages: msgs(userMsg), Call: read}); err != nil {
		t.Fatal(err)
	}
	_, err := tab.Check("s", eng, session.Request{Offset: intp(1), Messages: msgs(userMsg, userMsg), Call: read})
	if code(err) != session.HistoryTooLarge {
		t.Fatalf("over the limit: %v", err)
	}
	// A request without messages is refused too: no hole goes unnoticed.
	for _, req := range []session.Request{{Offset: intp(1), Call: read}, {Call: read}, {Offset: intp(3), Messages: msgs(userMsg), Call: read}} {
		_, err = tab.Check("s", eng, req)
		want := `session "s" is broken: a request reporting 2 messages was refused, so they were not kept (the session would hold 3 messages, over the limit of 2 (start a new session)); its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/s, and start a new session with the whole history at offset 0)`
		if code(err) != session.Broken || err.Error() != want {
			t.Errorf("after the refusal: %v (code %q)\nwant %s", err, code(err), want)
		}
	}
	// A refused offset does not break a session: the offsets disagree
	// until the host reports what the session lacks (here a retry of the
	// message the session holds).
	rt := session.NewTable(session.Limits{}, nil)
	if _, err := rt.Check("r", eng, session.Request{Grant: "reader", Offset: intp(0), Messages: msgs(userMsg), Call: read}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Check("r", eng, session.Request{Offset: intp(0), Messages: msgs(userMsg), Call: read}); code(err) != session.Mismatch {
		t.Fatalf("a retry: %v", err)
	}
	if out, err := rt.Check("r", eng, session.Request{Offset: intp(1), Call: read}); err != nil || out.History != 1 {
		t.Errorf("after a refused offset: %+v, %v", out, err)
	}
	// Table.Break breaks a session the same way; another instance of its
	// id is not broken by it.
	if !tab.Delete("s") {
		t.Fatal("no session to delete")
	}
	out, err := tab.Check("s", eng, session.Request{Grant: "reader", Offset: intp(0), Messages: msgs(userMsg), Call: read})
	if err != nil || out.Seq != 1 || out.History != 1 || out.Instance != 2 {
		t.Fatalf("a new session after delete: %+v, %v", out, err)
	}
	tab.Break("s", 1, "not this one")
	if _, err := tab.Check("s", eng, session.Request{Offset: intp(1), Call: read}); err != nil {
		t.Errorf("broken by another instance's number: %v", err)
	}
	tab.Break("s", 2, "its decision could not be logged")
	if _, err := tab.Check("s", eng, session.Request{Offset: intp(1), Call: read}); code(err) != session.Broken || !strings.Contains(err.Error(), "is broken: its decision could not be logged; ") {
		t.Errorf("after Break: %v", err)
	}
}
