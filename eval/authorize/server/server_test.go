package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/server"
	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// mail has two grants and a forbid invariant: a send after a read.
var mail = map[string][]byte{"c.tenet.hcl": []byte(`
contract "mail" {
  version = "1.2.0"
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

// readThenSend is a Checker that says what the forbid invariant says:
// violated when a read_inbox call precedes a pending send_email. (The
// incremental engine replaces it in TestForbidWithEngine.)
type readThenSend struct{ unknown bool }

func (f readThenSend) Check(r *run.Run, pending int) ([]session.Result, error) {
	res := session.Result{Name: "no_send_after_read", Severity: "high", Status: session.Held}
	if f.unknown {
		res.Status, res.Reason = session.Unknown, "the cost limit was reached"
	}
	if r.Calls[pending].Tool == "send_email" {
		for _, c := range r.Calls[:pending] {
			if c.Tool == "read_inbox" {
				res.Status = session.Violated
				res.Witness = map[string]string{"read": fmt.Sprint(c.Index), "send": fmt.Sprint(pending)}
			}
		}
	}
	return []session.Result{res}, nil
}

func mailEngine(t testing.TB, c session.Checker, pol session.OnUnknown) *session.Engine {
	p := evaltest.ProgramFrom(t, mail)
	e := &session.Engine{Auth: authorize.New(p.Bundle, p.ID), Bundle: p.Bundle, OnUnknown: pol}
	if c != nil {
		e.NewChecker = func(string, string) (session.Checker, error) { return c, nil }
		e.Invariants = []session.InvariantInfo{{Name: "no_send_after_read", Severity: "high", Incremental: true}}
	}
	return e
}

func seedEngine(t testing.TB) *session.Engine {
	p := evaltest.Program(t, "../../../examples/seed-fixtures")
	return &session.Engine{Auth: authorize.New(p.Bundle, p.ID), Bundle: p.Bundle}
}

// fixedTime stamps log lines.
func fixedTime() time.Time { return time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC) }

type harness struct {
	srv *server.Server
	log *bytes.Buffer
}

func newHarness(t testing.TB, e *session.Engine, cfg server.Config) *harness {
	h := &harness{log: &bytes.Buffer{}}
	cfg.Log = decisionlog.NewWriter(h.log, fixedTime)
	if cfg.Instance == "" {
		cfg.Instance = "t0"
	}
	h.srv = server.New(e, cfg)
	return h
}

// do sends a request to the handler and returns status and body.
func (h *harness) do(method, path, ctype, body string) (int, string) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	h.srv.ServeHTTP(w, r)
	return w.Code, strings.TrimSuffix(w.Body.String(), "\n")
}

func (h *harness) post(path, body string) (int, string) {
	return h.do("POST", path, "application/json", body)
}

type exchange struct {
	method, path, ctype, body string
	status                    int
	want                      string
}

func run1(t *testing.T, h *harness, tcs []exchange) {
	t.Helper()
	for _, tc := range tcs {
		if tc.ctype == "" {
			tc.ctype = "application/json"
		}
		status, body := h.do(tc.method, tc.path, tc.ctype, tc.body)
		if status != tc.status || body != tc.want {
			t.Errorf("%s %s %s\n got %d %s\nwant %d %s", tc.method, tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
}

func TestAuthorizeEndpoint(t *testing.T) {
	e := seedEngine(t)
	h := newHarness(t, e, server.Config{})
	id := e.Auth.Bundle()
	run1(t, h, []exchange{
		{"POST", "/v1/authorize", "", `{"call":{"name":"read_fixture","arguments":{"id":"F1"}},"session":"run-7"}`, 200,
			`{"allowed":true,"bundle":"` + id + `","grant":"host","shape":"openai-function","decision":{"allowed":true,"tool":"read_fixture","decision":"authorized","required":{"operation":"read","param":"id","resource":"F1"}}}`},
		{"POST", "/v1/authorize", "application/json; charset=utf-8", `{"grant":"host","call":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"update_fixture","arguments":{"id":"F1","value":2}}}}`, 200,
			`{"allowed":false,"bundle":"` + id + `","grant":"host","shape":"mcp-tools-call","decision":{"allowed":false,"tool":"update_fixture","id":"3","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (update, F1)","required":{"operation":"update","param":"id","resource":"F1"}}}`},
	})
	want := `{"log":"tenet-decisions/1","time":"2026-12-02T15:00:00Z","origin":"serve","bundle":"` + id + `","contract":"seed-fixtures","condition":"live","grant":"host","session":"run-7","instance":"t0","seq":1,"call":{"tool":"read_fixture","arguments":{"id":"F1"}},"allowed":true,"decision":{"allowed":true,"tool":"read_fixture","decision":"authorized","required":{"operation":"read","param":"id","resource":"F1"}}}
{"log":"tenet-decisions/1","time":"2026-12-02T15:00:00Z","origin":"serve","bundle":"` + id + `","contract":"seed-fixtures","condition":"live","grant":"host","seq":1,"call":{"id":"3","tool":"update_fixture","arguments":{"id":"F1","value":2}},"allowed":false,"decision":{"allowed":false,"tool":"update_fixture","id":"3","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (update, F1)","required":{"operation":"update","param":"id","resource":"F1"}}}
`
	if h.log.String() != want {
		t.Errorf("decision log:\n%s\nwant\n%s", h.log, want)
	}
}

// TestErrorStatuses: every error, its status, code and words.
func TestErrorStatuses(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{MaxBody: 200})
	read := `{"name":"read_inbox","arguments":{}}`
	run1(t, h, []exchange{
		{"POST", "/v1/authorize", "", `{"call":`, 400, `{"error":"request body: unexpected EOF within \"/call\" after offset 8","code":"bad_json"}`},
		{"POST", "/v1/authorize", "", `{"grant":"reader","cal":{}}`, 400, `{"error":"request body: unknown member /cal (the members: grant, call, session)","code":"bad_json"}`},
		{"POST", "/v1/authorize", "", `{"grant":1}`, 400, `{"error":"request body: member /grant: got a number, the wrong type (docs/authorize.schema.json)","code":"bad_json"}`},
		{"POST", "/v1/authorize", "", `[]`, 400, `{"error":"request body: want a JSON object, got a list","code":"bad_json"}`},
		{"POST", "/v1/authorize", "", `{"grant":"a","grant":"b"}`, 400, `{"error":"request body: duplicate object member name \"grant\"","code":"bad_json"}`},
		{"POST", "/v1/authorize", "", `{"grant":"reader"}`, 400, `{"error":"call: required, the tool call about to run","code":"bad_call"}`},
		{"POST", "/v1/authorize", "", `{"grant":"reader","call":[1]}`, 400, `{"error":"call: a call is a JSON object, got a list; want an OpenAI tool call {\"type\": \"function\", \"function\": {\"name\", \"arguments\"}}, a function call {\"name\", \"arguments\"}, an MCP tools/call request {\"method\": \"tools/call\", \"params\": {\"name\", \"arguments\"}} or an Anthropic tool_use block {\"type\": \"tool_use\", \"name\", \"input\"}","code":"bad_call"}`},
		{"POST", "/v1/authorize", "", `{"call":` + read + `}`, 400, `{"error":"grant: required, the bundle declares 2 grants [assistant reader]","code":"grant_required"}`},
		{"POST", "/v1/authorize", "", `{"grant":"admin","call":` + read + `}`, 422, `{"error":"grant \"admin\" is not declared (the bundle's grants: assistant, reader)","code":"unknown_grant"}`},
		{"POST", "/v1/authorize", "text/plain", `{}`, 415, `{"error":"Content-Type \"text/plain\": the body must be application/json","code":"unsupported_media_type"}`},
		{"POST", "/v1/authorize", "", `{"grant":"reader","call":` + read + `,"session":"` + strings.Repeat("x", 200) + `"}`, 413, `{"error":"the body is over 200 bytes, this server's limit (report a session's messages in smaller requests)","code":"too_large"}`},
		{"GET", "/v1/authorize", "", ``, 405, `{"error":"GET /v1/authorize: this endpoint takes POST","code":"method_not_allowed"}`},
		{"PUT", "/v1/sessions/a", "", ``, 405, `{"error":"PUT /v1/sessions/a: this endpoint takes DELETE","code":"method_not_allowed"}`},
		{"POST", "/health", "", ``, 405, `{"error":"POST /health: this endpoint takes GET, HEAD","code":"method_not_allowed"}`},
		{"GET", "/v2/x", "", ``, 404, `{"error":"no endpoint /v2/x (the endpoints: POST /v1/authorize, POST /v1/sessions/{id}/calls, DELETE /v1/sessions/{id}, GET /v1/bundle, GET /health)","code":"not_found"}`},
		{"DELETE", "/v1/sessions/nope", "", ``, 404, `{"error":"no session \"nope\" (never started, already deleted, or evicted after its idle time)","code":"unknown_session"}`},
		{"POST", "/v1/sessions/a%20b/calls", "", `{}`, 400, `{"error":"session id \"a b\": want 1 to 128 letters, digits or . _ : ~ -","code":"bad_session_id"}`},
		{"POST", "/v1/sessions/s/calls", "", `{"grant":"admin","call":` + read + `}`, 422, `{"error":"grant \"admin\" is not declared (the bundle's grants: assistant, reader)","code":"unknown_grant"}`},
		{"POST", "/v1/sessions/s/calls", "", `{"call":` + read + `}`, 400, `{"error":"grant: required on a session's first request, the bundle declares 2 grants ([assistant reader])","code":"grant_required"}`},
		{"POST", "/v1/sessions/s/calls", "", `{"grant":"reader","offset":3,"call":` + read + `}`, 409, `{"error":"offset 3: the session is new (never seen, deleted, evicted after its idle time, or the server restarted): send the whole history with offset 0","code":"session_mismatch"}`},
		{"POST", "/v1/sessions/s/calls", "", `{"grant":"reader","messages":[{"role":"user","content":7}],"call":` + read + `}`, 400, `{"error":"the session's history (messages 0-0; this request's from 0) is not OpenAI chat messages: message 0: content: want a string, null or a list of content blocks, got a number","code":"bad_messages"}`},
	})
	if h.log.Len() != 0 {
		t.Errorf("errors logged as decisions:\n%s", h.log)
	}
}

func TestPinnedGrant(t *testing.T) {
	h := newHarness(t, mailEngine(t, nil, session.Closed), server.Config{Grant: "reader"})
	read := `{"name":"read_inbox","arguments":{}}`
	id := h.srv.Engine().Auth.Bundle()
	run1(t, h, []exchange{
		{"POST", "/v1/authorize", "", `{"call":` + read + `}`, 200, `{"allowed":true,"bundle":"` + id + `","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}}}`},
		{"POST", "/v1/authorize", "", `{"grant":"assistant","call":` + read + `}`, 422, `{"error":"grant \"assistant\": this server decides under grant \"reader\" only (tenet serve --grant)","code":"unknown_grant"}`},
		{"POST", "/v1/sessions/p/calls", "", `{"grant":"assistant","call":` + read + `}`, 422, `{"error":"grant \"assistant\": this server decides under grant \"reader\" only (tenet serve --grant)","code":"unknown_grant"}`},
		{"POST", "/v1/sessions/p/calls", "", `{"call":` + read + `}`, 200, `{"allowed":true,"session":"p","seq":1,"history":0,"bundle":"` + id + `","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[],"on_unknown":"closed"}`},
	})
}

func TestHistoryTooLargeAndTooManySessions(t *testing.T) {
	h := newHarness(t, mailEngine(t, nil, session.Closed), server.Config{Limits: session.Limits{MaxSessions: 1, MaxMessages: 1}})
	read := `{"name":"read_inbox","arguments":{}}`
	user := `{"role":"user","content":"hi"}`
	run1(t, h, []exchange{
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","messages":[` + user + `,` + user + `],"call":` + read + `}`, 413, `{"error":"the session would hold 2 messages, over the limit of 1 (start a new session)","code":"history_too_large"}`},
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","messages":[` + user + `],"call":` + read + `}`, 200, `{"allowed":true,"session":"a","seq":1,"history":1,"bundle":"` + h.srv.Engine().Auth.Bundle() + `","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[],"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/b/calls", "", `{"grant":"reader","call":` + read + `}`, 429, `{"error":"1 sessions are open, the most this server holds (end finished ones with DELETE; idle ones are evicted after 30m0s)","code":"too_many_sessions"}`},
		{"DELETE", "/v1/sessions/a", "", ``, 204, ``},
		{"POST", "/v1/sessions/b/calls", "", `{"grant":"reader","call":` + read + `}`, 200, `{"allowed":true,"session":"b","seq":1,"history":0,"bundle":"` + h.srv.Engine().Auth.Bundle() + `","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[],"on_unknown":"closed"}`},
	})
}

const (
	userMsg   = `{"role":"user","content":"summarise my mail"}`
	readCall  = `{"role":"assistant","content":null,"tool_calls":[{"id":"r1","type":"function","function":{"name":"read_inbox","arguments":"{}"}}]}`
	readReply = `{"role":"tool","tool_call_id":"r1","content":"3 mails"}`
	sendBob   = `{"id":"s1","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"bob\"}"}}`
)

// TestSessionForbid: the send the grant allows is refused once a read is
// in the history, because the forbid invariant would be newly violated.
func TestSessionForbid(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{Condition: "canary"})
	id := h.srv.Engine().Auth.Bundle()
	allowedSend := `"decision":{"allowed":true,"tool":"send_email","id":"s1","decision":"authorized","required":{"operation":"send","param":"to","resource":"bob"}}`
	run1(t, h, []exchange{
		{"POST", "/v1/sessions/run-1/calls", "", `{"grant":"assistant","task":"t","offset":0,"messages":[` + userMsg + `],"call":` + sendBob + `}`, 200,
			`{"allowed":true,"session":"run-1","seq":1,"history":1,"bundle":"` + id + `","grant":"assistant","shape":"openai-tool-call",` + allowedSend + `,"invariants":[],"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/run-1/calls", "", `{"offset":1,"messages":[` + readCall + `,` + readReply + `],"call":` + sendBob + `}`, 200,
			`{"allowed":false,"refusal":"invariant","session":"run-1","seq":2,"history":3,"bundle":"` + id + `","grant":"assistant","shape":"openai-tool-call",` + allowedSend + `,"invariants":[{"name":"no_send_after_read","severity":"high","status":"violated","witness":{"read":"0","send":"1"}}],"on_unknown":"closed"}`},
		{"POST", "/v1/sessions/run-1/calls", "", `{"grant":"reader","call":` + sendBob + `}`, 409,
			`{"error":"grant \"reader\": the session runs under grant \"assistant\", fixed by its first request (a session is one run: start another for another grant)","code":"session_mismatch"}`},
	})
	lines := strings.Split(strings.TrimSpace(h.log.String()), "\n")
	want := `{"log":"tenet-decisions/1","time":"2026-12-02T15:00:00Z","origin":"serve","bundle":"` + id + `","contract":"mail","condition":"canary","grant":"assistant","session":"run-1","instance":"t0/1","seq":2,"call":{"id":"s1","tool":"send_email","arguments":{"to":"bob"}},"allowed":false,` + allowedSend + `,"invariants":[{"name":"no_send_after_read","severity":"high","status":"violated","witness":{"read":"0","send":"1"}}],"on_unknown":"closed"}`
	if len(lines) != 2 || lines[1] != want {
		t.Errorf("decision log:\n%s\nwant second line\n%s", h.log, want)
	}
}

func TestSessionOnUnknown(t *testing.T) {
	read := `{"name":"read_inbox","arguments":{}}`
	for _, tc := range []struct {
		pol  session.OnUnknown
		want string
	}{
		{session.Closed, `{"allowed":false,"refusal":"unknown_invariant",`},
		{session.Open, `{"allowed":true,`},
	} {
		h := newHarness(t, mailEngine(t, readThenSend{unknown: true}, tc.pol), server.Config{})
		status, body := h.post("/v1/sessions/x/calls", `{"grant":"reader","call":`+read+`}`)
		want := tc.want + `"session":"x","seq":1,"history":0,"bundle":"` + h.srv.Engine().Auth.Bundle() + `","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[{"name":"no_send_after_read","severity":"high","status":"unknown","reason":"the cost limit was reached"}],"on_unknown":"` + tc.pol.String() + `"}`
		if status != 200 || body != want {
			t.Errorf("%s:\n got %d %s\nwant %s", tc.pol, status, body, want)
		}
	}
}

func TestHealthAndBundle(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{})
	id := h.srv.Engine().Auth.Bundle()
	run1(t, h, []exchange{
		{"GET", "/health", "", ``, 200, `{"status":"ok","bundle":"` + id + `","sessions":0}`},
		{"GET", "/v1/bundle", "", ``, 200, `{"bundle":"` + id + `","contract":"mail","version":"1.2.0","grants":["assistant","reader"],"tools":[{"name":"read_inbox","operation":"read"},{"name":"send_email","operation":"send","resource":"to"}],"invariants":[{"name":"no_send_after_read","severity":"high","incremental":true}],"invariants_checked":true,"on_unknown":"closed"}`},
	})
}

// TestReload: a failed load keeps the bundle in use; a good one applies
// to new sessions while a running session keeps its own.
func TestReload(t *testing.T) {
	var events bytes.Buffer
	h := newHarness(t, seedEngine(t), server.Config{Events: slog.New(slog.NewTextHandler(&events, &slog.HandlerOptions{ReplaceAttr: dropTime}))})
	old := h.srv.Engine().Auth.Bundle()
	call := `{"name":"read_fixture","arguments":{"id":"F1"}}`
	if status, _ := h.post("/v1/sessions/old/calls", `{"call":`+call+`}`); status != 200 {
		t.Fatal(status)
	}
	err := h.srv.Reload(func() (*session.Engine, error) { return nil, errors.New("x.tnb: bundle sha256:ab is not signed") })
	if err == nil || h.srv.Engine().Auth.Bundle() != old {
		t.Fatalf("failed reload: %v, bundle %s", err, h.srv.Engine().Auth.Bundle())
	}
	wantEvent := `level=ERROR msg="reload refused; the bundle in use is kept" bundle=` + old + ` error="x.tnb: bundle sha256:ab is not signed"` + "\n"
	if events.String() != wantEvent {
		t.Errorf("events:\n%s\nwant\n%s", events.String(), wantEvent)
	}
	if err := h.srv.Reload(func() (*session.Engine, error) { return mailEngine(t, nil, session.Closed), nil }); err != nil {
		t.Fatal(err)
	}
	nu := h.srv.Engine().Auth.Bundle()
	if nu == old {
		t.Fatal("not swapped")
	}
	// The running session still decides with the seed bundle; a new one
	// with the mail bundle, which does not declare read_fixture.
	_, body := h.post("/v1/sessions/old/calls", `{"call":`+call+`}`)
	if !strings.Contains(body, `"bundle":"`+old+`"`) || !strings.Contains(body, `"allowed":true`) {
		t.Errorf("old session: %s", body)
	}
	_, body = h.post("/v1/sessions/new/calls", `{"grant":"reader","call":`+call+`}`)
	if !strings.Contains(body, `"bundle":"`+nu+`"`) || !strings.Contains(body, `"decision":"unregistered_tool"`) {
		t.Errorf("new session: %s", body)
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		return slog.Attr{}
	}
	return a
}

// blocking is a Checker that waits until released: a request in flight.
type blocking struct {
	entered chan struct{}
	release chan struct{}
}

func (b *blocking) Check(*run.Run, int) ([]session.Result, error) {
	close(b.entered)
	<-b.release
	return nil, nil
}

// TestShutdownFinishesInFlight: a request running when shutdown starts
// gets its answer; one arriving after gets 503; Serve returns nil.
func TestShutdownFinishesInFlight(t *testing.T) {
	b := &blocking{entered: make(chan struct{}), release: make(chan struct{})}
	h := newHarness(t, mailEngine(t, b, session.Closed), server.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(ctx, ln, server.Limits{Shutdown: 20 * time.Second}) }()
	url := "http://" + ln.Addr().String()

	type result struct {
		status int
		body   string
		err    error
	}
	inflight := make(chan result, 1)
	go func() {
		resp, err := http.Post(url+"/v1/sessions/s/calls", "application/json", strings.NewReader(`{"grant":"reader","call":{"name":"read_inbox","arguments":{}}}`))
		if err != nil {
			inflight <- result{err: err}
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		inflight <- result{resp.StatusCode, string(body), err}
	}()
	<-b.entered
	cancel()
	// Shutdown has begun once the handler refuses new requests.
	var status int
	var body string
	for i := 0; i < 1000; i++ {
		if status, body = h.do("GET", "/health", "", ""); status == 503 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if want := `{"error":"the server is shutting down: retry on another instance or after it restarts","code":"shutting_down"}`; status != 503 || body != want {
		t.Errorf("during shutdown: %d %s", status, body)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(b.release)
	r := <-inflight
	if r.err != nil || r.status != 200 || !strings.HasPrefix(r.body, `{"allowed":true,"session":"s","seq":1,`) {
		t.Errorf("in-flight request: %+v", r)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if n := strings.Count(h.log.String(), "\n"); n != 1 {
		t.Errorf("%d decision lines, want the in-flight one", n)
	}
}

// failingWriter fails every write: a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestLogFailureWithholdsTheDecision(t *testing.T) {
	srv := server.New(seedEngine(t), server.Config{Log: decisionlog.NewWriter(failingWriter{}, fixedTime)})
	r := httptest.NewRequest("POST", "/v1/authorize", strings.NewReader(`{"call":{"name":"read_fixture","arguments":{"id":"F1"}}}`))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	want := `{"error":"decision log: no space left on device (the decision is withheld: a decision point that cannot log refuses)","code":"log_failed"}` + "\n"
	if w.Code != 500 || w.Body.String() != want {
		t.Errorf("%d %s", w.Code, w.Body)
	}
}

// TestLogFailureFailsHealth: once the decision log has failed, every
// decision is withheld, and /health says so (503 failing) rather than ok.
// A session whose reported messages were kept for a decision that was
// then withheld is broken: the host was told its request failed.
func TestLogFailureFailsHealth(t *testing.T) {
	e := mailEngine(t, nil, session.Closed)
	srv := server.New(e, server.Config{Log: decisionlog.NewWriter(failingWriter{}, fixedTime), Instance: "t0"})
	h := &harness{srv: srv}
	id := e.Auth.Bundle()
	read := `{"name":"read_inbox","arguments":{}}`
	run1(t, h, []exchange{
		{"GET", "/health", "", ``, 200, `{"status":"ok","bundle":"` + id + `","sessions":0}`},
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 500,
			`{"error":"decision log: no space left on device (the decision is withheld: a decision point that cannot log refuses)","code":"log_failed"}`},
		{"GET", "/health", "", ``, 503, `{"status":"failing","reason":"decision log: no space left on device: every decision is withheld (log_failed) until the server is restarted with a log it can write","bundle":"` + id + `","sessions":1}`},
		{"POST", "/v1/sessions/a/calls", "", `{"offset":1,"call":` + read + `}`, 409,
			`{"error":"session \"a\" is broken: the decision of its call 1 was withheld, its log line unwritten, after its 1 messages were kept (the host was told the request failed); its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/a, and start a new session with the whole history at offset 0)","code":"session_broken"}`},
	})
}

// TestHistoryTooLargeBreaksTheSession: after a request's messages are
// refused (413), the session is refused (409 session_broken) — even a
// request whose offset agrees with what it holds — until DELETE.
func TestHistoryTooLargeBreaksTheSession(t *testing.T) {
	h := newHarness(t, mailEngine(t, nil, session.Closed), server.Config{Limits: session.Limits{MaxMessages: 2}})
	id := h.srv.Engine().Auth.Bundle()
	read := `{"name":"read_inbox","arguments":{}}`
	ok := func(seq, history int) string {
		return fmt.Sprintf(`{"allowed":true,"session":"a","seq":%d,"history":%d,"bundle":"%s","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[],"on_unknown":"closed"}`, seq, history, id)
	}
	run1(t, h, []exchange{
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ok(1, 1)},
		{"POST", "/v1/sessions/a/calls", "", `{"offset":1,"messages":[` + userMsg + `,` + userMsg + `],"call":` + read + `}`, 413,
			`{"error":"the session would hold 3 messages, over the limit of 2 (start a new session)","code":"history_too_large"}`},
		{"POST", "/v1/sessions/a/calls", "", `{"offset":1,"call":` + read + `}`, 409,
			`{"error":"session \"a\" is broken: a request reporting 2 messages was refused, so they were not kept (the session would hold 3 messages, over the limit of 2 (start a new session)); its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/a, and start a new session with the whole history at offset 0)","code":"session_broken"}`},
		{"DELETE", "/v1/sessions/a", "", ``, 204, ``},
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ok(1, 1)},
	})
}

// TestBodyTooLargeBreaksTheSession: a request to a session whose body is
// over --max-body (413 too_large) may have reported messages the session
// never holds, so the session is broken: a later request without offset
// is not checked on a history with a hole. Another session is untouched.
func TestBodyTooLargeBreaksTheSession(t *testing.T) {
	h := newHarness(t, mailEngine(t, nil, session.Closed), server.Config{MaxBody: 400})
	id := h.srv.Engine().Auth.Bundle()
	read := `{"name":"read_inbox","arguments":{}}`
	ok := func(s string, seq, history int) string {
		return fmt.Sprintf(`{"allowed":true,"session":"%s","seq":%d,"history":%d,"bundle":"%s","grant":"reader","shape":"openai-function","decision":{"allowed":true,"tool":"read_inbox","decision":"authorized","required":{"operation":"read"}},"invariants":[],"on_unknown":"closed"}`, s, seq, history, id)
	}
	big := `{"messages":[` + strings.Repeat(userMsg+`,`, 10) + userMsg + `],"call":` + read + `}`
	run1(t, h, []exchange{
		{"POST", "/v1/sessions/a/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ok("a", 1, 1)},
		{"POST", "/v1/sessions/b/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ok("b", 1, 1)},
		{"POST", "/v1/sessions/a/calls", "", big, 413,
			`{"error":"the body is over 400 bytes, this server's limit (report a session's messages in smaller requests)","code":"too_large"}`},
		{"POST", "/v1/sessions/a/calls", "", `{"call":` + read + `}`, 409,
			`{"error":"session \"a\" is broken: a request's body was over 400 bytes (413 too_large): messages it may have reported are not in the session; its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/a, and start a new session with the whole history at offset 0)","code":"session_broken"}`},
		{"POST", "/v1/sessions/b/calls", "", `{"call":` + read + `}`, 200, ok("b", 2, 1)},
		// A too-large body for a session that does not exist starts none.
		{"POST", "/v1/sessions/c/calls", "", big, 413,
			`{"error":"the body is over 400 bytes, this server's limit (report a session's messages in smaller requests)","code":"too_large"}`},
		{"POST", "/v1/sessions/c/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ok("c", 1, 1)},
	})
}

// TestConcurrentSessions drives sessions in parallel (under -race).
func TestConcurrentSessions(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				status, body := h.post(fmt.Sprintf("/v1/sessions/s%d/calls", i), fmt.Sprintf(`{"grant":"assistant","offset":%d,"messages":[%s],"call":%s}`, j, userMsg, sendBob))
				if status != 200 || !strings.Contains(body, fmt.Sprintf(`"seq":%d,`, j+1)) {
					t.Errorf("%d %s", status, body)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestLogReadsBack: the server's decision log is a log tenet report
// reads (decisionlog.Read, Records): a session's calls are one run in seq
// order, and stateless calls sharing a label get distinct seqs.
func TestLogReadsBack(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{})
	read := `{"name":"read_inbox","arguments":{}}`
	for _, req := range []struct{ path, body string }{
		{"/v1/authorize", `{"grant":"reader","call":` + read + `,"session":"batch"}`},
		{"/v1/sessions/run-1/calls", `{"grant":"assistant","messages":[` + userMsg + `],"call":` + read + `}`},
		{"/v1/authorize", `{"grant":"reader","call":` + sendBob + `,"session":"batch"}`},
		{"/v1/sessions/run-1/calls", `{"messages":[` + readCall + `,` + readReply + `],"call":` + sendBob + `}`},
		{"/v1/authorize", `{"grant":"reader","call":{"name":"read_inbox","arguments":{"x":{"type":"tool_use","input":{}}}},"session":"batch"}`},
	} {
		if status, body := h.post(req.path, req.body); status != 200 && status != 400 {
			t.Fatalf("%s: %d %s", req.path, status, body)
		}
	}
	entries, err := decisionlog.Read(strings.NewReader(h.log.String()), "decisions.jsonl")
	if err != nil {
		t.Fatalf("%v\n%s", err, h.log)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		var calls []string
		for _, a := range r.Audit {
			calls = append(calls, a.Tool+":"+a.Decision)
		}
		got = append(got, fmt.Sprintf("%s %s %v", r.Key.Task, r.Grant, calls))
	}
	want := "[batch reader [read_inbox:authorized send_email:missing_resource_capability] run-1 assistant [read_inbox:authorized send_email:authorized]]"
	if fmt.Sprint(got) != want {
		t.Errorf("runs %v\nwant %s", got, want)
	}
	var seqs []int
	for _, e := range entries {
		seqs = append(seqs, e.Seq)
	}
	if fmt.Sprint(seqs) != "[1 1 2 2 3]" {
		t.Errorf("seqs %v", seqs)
	}
}

// TestSessionIDReusedAndUnreadCalls: a session id used again after
// DELETE is another instance, so the log reads back (the first run
// keeps the id, the next is id#2) instead of being refused for two
// sessions of one name; a call that cannot be read, or that disagrees
// with the history's call of its id, is answered 400 — the first logged
// with its error under a seq of its own, the second not (nothing was
// decided). The second reported a message the session did not keep, so
// the session is broken (409) until deleted: the next request, offset
// and all, would be checked on a history missing it.
func TestSessionIDReusedAndUnreadCalls(t *testing.T) {
	h := newHarness(t, mailEngine(t, readThenSend{}, session.Closed), server.Config{})
	read := `{"name":"read_inbox","arguments":{}}`
	for _, tc := range []exchange{
		{"POST", "/v1/sessions/s/calls", "", `{"grant":"reader","messages":[` + userMsg + `],"call":` + read + `}`, 200, ``},
		{"POST", "/v1/sessions/s/calls", "", `{"call":{"tool":"x"}}`, 400, ``},
		{"POST", "/v1/sessions/s/calls", "", `{"messages":[` + readCall + `],"call":{"id":"r1","name":"read_inbox","arguments":{"all":true}}}`, 400,
			`{"error":"call \"r1\": the history's message 1 requests a call of this id that no result answers yet, which is this pending call, but its arguments differ ({} there, {\"all\":true} here) (send the call the message requests, or give a new call a new id)","code":"call_mismatch"}`},
		{"POST", "/v1/sessions/s/calls", "", `{"offset":1,"call":` + read + `}`, 409,
			`{"error":"session \"s\" is broken: a request reporting 1 messages was refused, so they were not kept (call \"r1\": the history's message 1 requests a call of this id that no result answers yet, which is this pending call, but its arguments differ ({} there, {\"all\":true} here) (send the call the message requests, or give a new call a new id)); its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/s, and start a new session with the whole history at offset 0)","code":"session_broken"}`},
		{"DELETE", "/v1/sessions/s", "", ``, 204, ``},
		{"POST", "/v1/sessions/s/calls", "", `{"grant":"reader","offset":0,"messages":[` + userMsg + `],"call":` + read + `}`, 200, ``},
	} {
		status, body := h.do(tc.method, tc.path, "application/json", tc.body)
		if status != tc.status || tc.want != "" && body != tc.want {
			t.Errorf("%s %s %s\n got %d %s\nwant %d %s", tc.method, tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(h.log.String()), "\n") {
		var e decisionlog.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %d %q", e.Session, e.Instance, e.Seq, e.Error))
	}
	want := `[s t0/1 1 "" s t0/1 2 "call: not a call: want an OpenAI tool call {\"type\": \"function\", \"function\": {\"name\", \"arguments\"}}, a function call {\"name\", \"arguments\"}, an MCP tools/call request {\"method\": \"tools/call\", \"params\": {\"name\", \"arguments\"}} or an Anthropic tool_use block {\"type\": \"tool_use\", \"name\", \"input\"}" s t0/2 1 ""]`
	if fmt.Sprint(got) != want {
		t.Errorf("log entries\n%v\nwant\n%s", got, want)
	}
	entries, err := decisionlog.Read(strings.NewReader(h.log.String()), "decisions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatalf("the log of a reused session id is refused: %v", err)
	}
	var runs []string
	for _, r := range recs {
		runs = append(runs, fmt.Sprintf("%s:%d", r.Key.Task, len(r.Audit)))
	}
	if fmt.Sprint(runs) != "[s:1 s#2:1]" {
		t.Errorf("runs %v, want [s:1 s#2:1]", runs)
	}
}

// TestStatelessLabels: a stateless call's session label is held to the
// session id rule (400 bad_session_id, nothing logged), and each label's
// calls are numbered on their own (1, 2, 3), so that the log reads back
// as one run per label with every call in it.
func TestStatelessLabels(t *testing.T) {
	h := newHarness(t, seedEngine(t), server.Config{})
	call := `{"name":"read_fixture","arguments":{"id":"F1"}}`
	for _, tc := range []struct {
		label  string
		status int
		want   string
	}{
		{`"bad/id"`, 400, `{"error":"session \"bad/id\": want 1 to 128 letters, digits or . _ : ~ -","code":"bad_session_id"}`},
		{`""`, 400, `{"error":"session \"\": want 1 to 128 letters, digits or . _ : ~ -","code":"bad_session_id"}`},
		{`"L1"`, 200, ``}, {`"L1"`, 200, ``}, {`"L2"`, 200, ``}, {`"L1"`, 200, ``},
	} {
		status, body := h.post("/v1/authorize", `{"call":`+call+`,"session":`+tc.label+`}`)
		if status != tc.status || tc.want != "" && body != tc.want {
			t.Errorf("label %s: %d %s, want %d %s", tc.label, status, body, tc.status, tc.want)
		}
	}
	entries, err := decisionlog.Read(strings.NewReader(h.log.String()), "decisions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%s:%d", e.Session, e.Seq))
	}
	if fmt.Sprint(got) != "[L1:1 L1:2 L2:1 L1:3]" {
		t.Errorf("seqs %v, want [L1:1 L1:2 L2:1 L1:3]", got)
	}
	recs, err := decisionlog.Records(entries)
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, r := range recs {
		runs = append(runs, fmt.Sprintf("%s:%d", r.Key.Task, len(r.Audit)))
	}
	if fmt.Sprint(runs) != "[L1:3 L2:1]" {
		t.Errorf("runs %v, want [L1:3 L2:1]", runs)
	}
}
