package gateway_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// seed is the Authorizer of examples/seed-fixtures, whose grant "host"
// allows only (read, F1).
func seed(t testing.TB) *authorize.Authorizer {
	p := evaltest.Program(t, "../../../examples/seed-fixtures")
	return authorize.New(p.Bundle, p.ID)
}

// syncBuffer is a bytes.Buffer several goroutines write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a gateway running the test server, driven as its client.
type harness struct {
	t      testing.TB
	in     *io.PipeWriter
	out    *bufio.Reader
	stderr *syncBuffer
	log    *syncBuffer
	record string
	done   chan struct{}
	code   int
	err    error
}

// start runs a gateway over the test server in mode; cfg's Command, Env,
// Stdin, Stdout, Stderr, Log and Authorizer are set here.
func start(t testing.TB, mode string, cfg gateway.Config) *harness {
	t.Helper()
	record := filepath.Join(t.TempDir(), "received.jsonl")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), stderr: &syncBuffer{}, log: &syncBuffer{}, record: record, done: make(chan struct{})}
	cfg.Command = []string{exe, "-test.run=^$"}
	cfg.Env = append(os.Environ(), serverEnv+"="+mode, recordEnv+"="+record)
	cfg.Stdin, cfg.Stdout, cfg.Stderr = inR, outW, h.stderr
	if cfg.Authorizer == nil {
		cfg.Authorizer = seed(t)
	}
	if cfg.Grant == "" {
		cfg.Grant = "host"
	}
	if cfg.Session == "" {
		cfg.Session = "s-test"
	}
	if cfg.Log == nil {
		cfg.Log = decisionlog.NewWriter(h.log, func() time.Time { return time.Unix(0, 0) })
	}
	go func() {
		h.code, h.err = gateway.Run(context.Background(), cfg)
		outW.Close()
		close(h.done)
	}()
	t.Cleanup(func() { inW.Close(); <-h.done })
	return h
}

// send writes one line to the gateway.
func (h *harness) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatalf("writing to the gateway: %v", err)
	}
}

// recv reads the gateway's next line to the client.
func (h *harness) recv() string {
	h.t.Helper()
	line, err := h.out.ReadString('\n')
	if err != nil {
		h.t.Fatalf("reading from the gateway: %v (stderr: %s)", err, h.stderr)
	}
	return strings.TrimSuffix(line, "\n")
}

// roundTrip sends a line and returns the one answer.
func (h *harness) roundTrip(line string) string {
	h.t.Helper()
	h.send(line)
	return h.recv()
}

// finish closes the client's side and returns the gateway's exit status.
func (h *harness) finish() int {
	h.t.Helper()
	h.in.Close()
	<-h.done
	if h.err != nil {
		h.t.Fatalf("Run: %v", h.err)
	}
	return h.code
}

// received is every line the server received, in order.
func (h *harness) received() []string {
	h.t.Helper()
	<-h.done
	data, err := os.ReadFile(h.record)
	if err != nil {
		h.t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// logLines is the decision log, one decoded entry a line.
func (h *harness) logLines() []decisionlog.Entry {
	h.t.Helper()
	var out []decisionlog.Entry
	for _, l := range strings.Split(strings.TrimSpace(h.log.String()), "\n") {
		if l == "" {
			continue
		}
		var e decisionlog.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			h.t.Fatalf("log line %s: %v", l, err)
		}
		out = append(out, e)
	}
	return out
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// errorOf decodes an error response: its id (JSON text), code and message.
func errorOf(t *testing.T, line string) (id string, code int, msg string, data json.RawMessage) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error == nil || r.JSONRPC != "2.0" {
		t.Fatalf("not a JSON-RPC error response: %s", line)
	}
	return string(r.ID), r.Error.Code, r.Error.Message, r.Error.Data
}

func TestGatewayEndToEnd(t *testing.T) {
	h := start(t, "normal", gateway.Config{HideUndeclared: true})
	if got, want := h.roundTrip(initialize), `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"test","version":"1"}}}`; got != want {
		t.Fatalf("initialize:\n got %s\nwant %s", got, want)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// The undeclared tool is hidden; the declared ones pass as the server wrote them.
	wantList := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` +
		`{"name":"read_fixture","description":"read","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},` +
		`{"name":"update_fixture","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"},"note":{"type":"string"}},"required":["id","value","note"]}}]}}`
	if got := h.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); got != wantList {
		t.Errorf("tools/list:\n got %s\nwant %s", got, wantList)
	}
	allowed := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`
	if got, want := h.roundTrip(allowed), `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"read_fixture {\"id\":\"F1\"}"}]}}`; got != want {
		t.Errorf("allowed call:\n got %s\nwant %s", got, want)
	}
	refused := []struct {
		line, id string
		msg      string
	}{
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete_everything","arguments":{}}}`, "4",
			`tools/call refused by the contract: unregistered_tool: tool "delete_everything" is not declared`},
		{`{"jsonrpc":"2.0","id":"five","method":"tools/call","params":{"name":"read_fixture","arguments":{"id":7}}}`, `"five"`,
			`tools/call refused by the contract: schema_types: argument id is the number 7, declared string`},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F2"}}}`, "6",
			`tools/call refused by the contract: missing_resource_capability: grant "host" does not allow (read, F2)`},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"update_fixture","arguments":{"id":"F1","value":1}}}`, "7",
			`tools/call refused by the contract: missing_resource_capability: grant "host" does not allow (update, F1)`},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1","then":{"name":"update_fixture","arguments":{"id":"F1","value":2}}}}}`, "8",
			`tools/call refused by the contract: nested call "update_fixture": missing_resource_capability: grant "host" does not allow (update, F1)`},
		// An escaped method name is the same method: decided, not relayed.
		{`{"jsonrpc":"2.0","id":9,"method":"tools\/call","params":{"name":"delete_everything","arguments":{}}}`, "9",
			`tools/call refused by the contract: unregistered_tool: tool "delete_everything" is not declared`},
	}
	for _, r := range refused {
		id, code, msg, data := errorOf(t, h.roundTrip(r.line))
		if id != r.id || code != gateway.CodeRefused || msg != r.msg {
			t.Errorf("%s:\n got id %s code %d %q\nwant id %s code %d %q", r.line, id, code, msg, r.id, gateway.CodeRefused, r.msg)
		}
		var d struct {
			Bundle   string              `json:"bundle"`
			Grant    string              `json:"grant"`
			Decision *authorize.Decision `json:"decision"`
		}
		if err := json.Unmarshal(data, &d); err != nil || d.Decision == nil || d.Decision.Allowed || d.Grant != "host" || !strings.HasPrefix(d.Bundle, "sha256:") {
			t.Errorf("%s: error data %s", r.line, data)
		}
	}
	if got := h.roundTrip(`{"jsonrpc":"2.0","id":"sync","method":"ping"}`); got != `{"jsonrpc":"2.0","id":"sync","result":{}}` {
		t.Errorf("ping: %s", got)
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	// The server saw exactly what was allowed, byte for byte.
	want := []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, allowed, `{"jsonrpc":"2.0","id":"sync","method":"ping"}`}
	if got := h.received(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One log line per decided call, and one for the tools/list check.
	entries := h.logLines()
	var got []string
	for _, e := range entries {
		if e.Origin != decisionlog.FromGateway || e.Session != "s-test" || e.Grant != "host" || e.Condition != "live" || e.Contract != "seed-fixtures" {
			t.Errorf("log entry %+v", e)
		}
		if e.Listed != nil {
			got = append(got, strings.Join([]string{"listed", e.Listed.Request, strings.Join(e.Listed.Undeclared, ","), map[bool]string{true: "hidden", false: "shown"}[e.Listed.Hidden], strings.Join(e.Listed.Drift, " | ")}, " "))
			continue
		}
		got = append(got, strings.Join([]string{"call", itoa(e.Seq), e.Call.ID, e.Call.Tool, boolText(e.Allowed), e.Decision.Decision}, " "))
	}
	wantLog := []string{
		`listed 2 delete_everything hidden tool "update_fixture": param "note" is optional in the contract, required by the server's inputSchema | tool "update_fixture": param "value" is int in the contract, "string" in the server's inputSchema`,
		"call 1 3 read_fixture allowed authorized",
		"call 2 4 delete_everything refused unregistered_tool",
		"call 3 five read_fixture refused schema_types",
		"call 4 6 read_fixture refused missing_resource_capability",
		"call 5 7 update_fixture refused missing_resource_capability",
		"call 6 8 read_fixture refused schema_fields",
		"call 7 9 delete_everything refused unregistered_tool",
	}
	if strings.Join(got, "\n") != strings.Join(wantLog, "\n") {
		t.Errorf("decision log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLog, "\n"))
	}
	// The log reads back as one run, the session's: its audit holds the
	// seven calls and the one nested in call 6.
	read, err := decisionlog.Read(strings.NewReader(h.log.String()), "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decisionlog.Records(read)
	if err != nil || len(recs) != 1 || recs[0].Key.Task != "s-test" || len(recs[0].Audit) != 8 {
		t.Errorf("Records: %+v %v", recs, err)
	}
	stderr := h.stderr.String()
	for _, s := range []string{
		"test server: started\n",
		`tenet gateway: tools/list 2: the server offers 1 tools the contract does not declare: "delete_everything"; hidden from the client` + "\n",
		`tenet gateway: tools/call 4 (tool "delete_everything") refused (-32040): tools/call refused by the contract: unregistered_tool: tool "delete_everything" is not declared` + "\n",
	} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
}

func boolText(b bool) string {
	if b {
		return "allowed"
	}
	return "refused"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Without --hide-undeclared the list passes as the server wrote it, and
// the undeclared tool is reported.
func TestGatewayToolsListReported(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	want := `{"jsonrpc":"2.0","id":2,"result":` + toolsListResult + `}`
	if got := h.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); got != want {
		t.Errorf("tools/list:\n got %s\nwant %s", got, want)
	}
	h.finish()
	if s := `the server offers 1 tools the contract does not declare: "delete_everything"; relayed (hide them with --hide-undeclared)`; !strings.Contains(h.stderr.String(), s) {
		t.Errorf("stderr lacks %q:\n%s", s, h.stderr)
	}
	e := h.logLines()
	if len(e) != 1 || e[0].Listed == nil || e[0].Listed.Hidden || strings.Join(e[0].Listed.Undeclared, ",") != "delete_everything" {
		t.Errorf("log: %+v", e)
	}
}

// Traffic from both directions that is not a client's tools/call passes
// unchanged: a server's request to the client and the client's answer.
func TestGatewayServerRequestsPass(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	if got, want := h.roundTrip(`{"jsonrpc":"2.0","id":20,"method":"test/ask"}`), `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[]}}`; got != want {
		t.Fatalf("server request:\n got %s\nwant %s", got, want)
	}
	if got, want := h.roundTrip(`{"jsonrpc":"2.0","id":"s1","result":{"model":"m","role":"assistant","content":{"type":"text","text":"hi"}}}`),
		`{"jsonrpc":"2.0","id":20,"result":{"client said":{"model":"m","role":"assistant","content":{"type":"text","text":"hi"}}}}`; got != want {
		t.Errorf("answer:\n got %s\nwant %s", got, want)
	}
	if got, want := h.roundTrip(`{"jsonrpc":"2.0","id":21,"method":"resources/list"}`), `{"jsonrpc":"2.0","id":21,"error":{"code":-32601,"message":"method not found"}}`; got != want {
		t.Errorf("other request:\n got %s\nwant %s", got, want)
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestGatewayHostile(t *testing.T) {
	h := start(t, "normal", gateway.Config{MaxMessage: 1 << 20})
	h.roundTrip(initialize)
	big := `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"` + strings.Repeat("F", 10<<20) + `"}}}`
	cases := []struct {
		name, line string
		id         string // the error's id, JSON text
		code       int
		msg        string // a part of the message
	}{
		{"not JSON", `this is not JSON`, "null", gateway.CodeParseError, "parse error: "},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"tools/call"`, "null", gateway.CodeParseError, "parse error: "},
		{"text after", `{"jsonrpc":"2.0","id":30,"method":"ping"} {"x":1}`, "null", gateway.CodeParseError, "parse error: "},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":{\"name\":\"read_fixture\xff\",\"arguments\":{\"id\":\"F1\"}}}", "null", gateway.CodeParseError, "invalid UTF-8"},
		{"duplicate method", `{"jsonrpc":"2.0","id":32,"method":"ping","method":"tools/call","params":{"name":"delete_everything","arguments":{}}}`, "null", gateway.CodeParseError, "duplicate"},
		{"duplicate name in params", `{"jsonrpc":"2.0","id":33,"method":"tools/call","params":{"name":"read_fixture","name":"delete_everything","arguments":{"id":"F1"}}}`, "null", gateway.CodeParseError, "duplicate"},
		{"duplicate argument", `{"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1","id":"F2"}}}`, "null", gateway.CodeParseError, "duplicate"},
		{"batch", `[{"jsonrpc":"2.0","id":35,"method":"ping"}]`, "null", gateway.CodeInvalidRequest, "batch refused"},
		{"empty batch", `[]`, "null", gateway.CodeInvalidRequest, "batch refused"},
		{"number", `42`, "null", gateway.CodeInvalidRequest, "want a JSON object, got a number"},
		{"null", `null`, "null", gateway.CodeInvalidRequest, "want a JSON object, got null"},
		{"string", `"tools/call"`, "null", gateway.CodeInvalidRequest, "want a JSON object, got a string"},
		{"no jsonrpc", `{"id":36,"method":"ping"}`, "36", gateway.CodeInvalidRequest, `jsonrpc: missing`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":37,"method":"ping"}`, "37", gateway.CodeInvalidRequest, `jsonrpc: want "2.0", got "1.0"`},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":38,"method":"ping"}`, "38", gateway.CodeInvalidRequest, `jsonrpc: want "2.0", got 2.0`},
		{"method not a string", `{"jsonrpc":"2.0","id":39,"method":["tools/call"]}`, "39", gateway.CodeInvalidRequest, "method: want a string, got an array"},
		{"neither", `{"jsonrpc":"2.0","id":40}`, "40", gateway.CodeInvalidRequest, "neither a request"},
		{"result and error", `{"jsonrpc":"2.0","id":41,"result":{},"error":{"code":1,"message":"x"}}`, "41", gateway.CodeInvalidRequest, "not both"},
		{"method and result", `{"jsonrpc":"2.0","id":42,"method":"ping","result":{}}`, "42", gateway.CodeInvalidRequest, "no result or error"},
		{"id null on a result", `{"jsonrpc":"2.0","id":null,"result":{}}`, "null", gateway.CodeInvalidRequest, "id: want a string or a number, got null"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`, "null", gateway.CodeInvalidRequest, "id: want a string or a number, got null"},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", gateway.CodeInvalidRequest, "got a boolean"},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", gateway.CodeInvalidRequest, "got an object"},
		{"id array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", gateway.CodeInvalidRequest, "got an array"},
		{"tools/call notification", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`, "null", gateway.CodeInvalidRequest, "without an id"},
		{"params an array", `{"jsonrpc":"2.0","id":43,"method":"tools/call","params":[1]}`, "43", gateway.CodeInvalidParams, "params: want the object {name, arguments}"},
		{"params absent", `{"jsonrpc":"2.0","id":44,"method":"tools/call"}`, "44", gateway.CodeInvalidParams, "params: want the object {name, arguments}"},
		{"name not a string", `{"jsonrpc":"2.0","id":45,"method":"tools/call","params":{"name":7,"arguments":{}}}`, "45", gateway.CodeInvalidParams, "params.name: want the tool's name"},
		{"arguments an array", `{"jsonrpc":"2.0","id":46,"method":"tools/call","params":{"name":"read_fixture","arguments":[1]}}`, "46", gateway.CodeRefused, "schema_fields"},
		{"10 MiB line", big, "null", gateway.CodeInvalidRequest, "over the gateway's limit of 1048576 bytes"},
		// Ids of every valid kind are echoed as they were written.
		{"id string", `{"jsonrpc":"2.0","id":"a\u0062c","method":"tools/call","params":{"name":"nope","arguments":{}}}`, `"a\u0062c"`, gateway.CodeRefused, "unregistered_tool"},
		{"id negative", `{"jsonrpc":"2.0","id":-1,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, "-1", gateway.CodeRefused, "unregistered_tool"},
		{"id fraction", `{"jsonrpc":"2.0","id":1.50,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, "1.50", gateway.CodeRefused, "unregistered_tool"},
		{"id exponent", `{"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, "1e3", gateway.CodeRefused, "unregistered_tool"},
		{"id huge", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, "123456789012345678901234567890", gateway.CodeRefused, "unregistered_tool"},
	}
	for _, c := range cases {
		line := h.roundTrip(c.line)
		id, code, msg, _ := errorOf(t, line)
		if id != c.id || code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: got id %s code %d %q\nwant id %s code %d, a message with %q", c.name, id, code, msg, c.id, c.code, c.msg)
		}
	}
	// Valid ids of every kind pass to the server and back byte for byte.
	var passed []string
	for _, id := range []string{`"x"`, `""`, `0`, `-7`, `2.50`, `1E2`, `98765432109876543210`} {
		line := `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
		if got, want := h.roundTrip(line), `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`; got != want {
			t.Errorf("ping id %s: got %s, want %s", id, got, want)
		}
		passed = append(passed, line)
	}
	// An error answering what could not be read has id null: relayed.
	nullErr := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"client could not parse"}}`
	h.send(nullErr)
	passed = append(passed, nullErr)
	// A request reusing the id of one awaiting its answer is refused.
	h.send(`{"jsonrpc":"2.0","id":50,"method":"test/hold"}`)
	if id, code, msg, _ := errorOf(t, h.roundTrip(`{"jsonrpc":"2.0","id":50.0,"method":"ping"}`)); id != "50.0" || code != gateway.CodeInvalidRequest || !strings.Contains(msg, "already the id of a request awaiting its answer") {
		t.Errorf("reused id: %s %d %q", id, code, msg)
	}
	if got := h.roundTrip(`{"jsonrpc":"2.0","method":"test/release"}`); got != `{"jsonrpc":"2.0","id":50,"result":{"released":true}}` {
		t.Errorf("released: %s", got)
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit %d", code)
	}
	want := append(append([]string{initialize}, passed...), `{"jsonrpc":"2.0","id":50,"method":"test/hold"}`, `{"jsonrpc":"2.0","method":"test/release"}`)
	if got := h.received(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every tools/call decided is logged: the ones read (arguments an
	// array, the five ids) and the ones whose params could not be read;
	// and so is every refused line that may have been a call (one that
	// could not be read, a notification), with error and no decision.
	var calls []string
	for _, e := range h.logLines() {
		calls = append(calls, e.Call.ID+" "+boolText(e.Allowed)+" "+e.Error)
	}
	wantCalls := []string{
		` refused refused before any decision (-32700): parse error: jsontext: invalid character 'h' in literal true (expecting 'r') after offset 1 (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: jsontext: unexpected EOF after offset 46 (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: text after the JSON object (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: jsontext: invalid UTF-8 within "/params/name" after offset 77 (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: jsontext: duplicate object member name "method" (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: jsontext: duplicate object member name "name" within "/params" (the line was not relayed)`,
		` refused refused before any decision (-32700): parse error: jsontext: duplicate object member name "id" within "/params/arguments" (the line was not relayed)`,
		` refused refused before any decision (-32600): batch refused: MCP's stdio transport carries one JSON-RPC message per line (the 2025-06-18 revision removed batching); send each message on its own line`,
		` refused refused before any decision (-32600): batch refused: MCP's stdio transport carries one JSON-RPC message per line (the 2025-06-18 revision removed batching); send each message on its own line`,
		` refused refused before any decision (-32600): not a JSON-RPC message: want a JSON object, got a number`,
		` refused refused before any decision (-32600): not a JSON-RPC message: want a JSON object, got null`,
		` refused refused before any decision (-32600): not a JSON-RPC message: want a JSON object, got a string`,
		`36 refused refused before any decision (-32600): jsonrpc: missing; want "2.0" (only JSON-RPC 2.0 is relayed)`,
		`37 refused refused before any decision (-32600): jsonrpc: want "2.0", got "1.0"`,
		`38 refused refused before any decision (-32600): jsonrpc: want "2.0", got 2.0`,
		`39 refused refused before any decision (-32600): method: want a string, got an array`,
		`40 refused refused before any decision (-32600): neither a request (method) nor a response (result or error)`,
		`41 refused refused before any decision (-32600): a response carries a result or an error, not both`,
		`42 refused refused before any decision (-32600): a request or notification (with a method) carries no result or error`,
		` refused refused before any decision (-32600): id: want a string or a number, got null`,
		` refused refused before any decision (-32600): id: want a string or a number, got null`,
		` refused refused before any decision (-32600): id: want a string or a number, got a boolean`,
		` refused refused before any decision (-32600): id: want a string or a number, got an object`,
		` refused refused before any decision (-32600): id: want a string or a number, got an array`,
		` refused refused before any decision (-32600): a tools/call without an id (a notification) is refused: a call is decided and answered by its id`,
		`43 refused params: want the object {name, arguments} of a tools/call request, got a list`,
		`44 refused params: want the object {name, arguments} of a tools/call request, got nothing (missing)`,
		`45 refused params.name: want the tool's name, a non-empty string, got a number`,
		`46 refused `,
		` refused refused before any decision (-32600): message of 10485863 bytes or more refused: over the gateway's limit of 1048576 bytes (--max-message)`,
		`abc refused `,
		`-1 refused `,
		`1.5 refused `,
		`1000 refused `,
		`1.2345678901234568e+29 refused `,
	}
	if strings.Join(calls, "\n") != strings.Join(wantCalls, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(wantCalls, "\n"))
	}
}

// A server that dies during a call: every request awaiting its answer is
// answered with CodeServerGone, and the gateway exits with the server's
// status.
func TestGatewayServerDiesMidCall(t *testing.T) {
	h := start(t, "die-on-call", gateway.Config{})
	h.roundTrip(initialize)
	h.send(`{"jsonrpc":"2.0","id":"h","method":"test/hold"}`)
	h.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`)
	for _, want := range []string{`"h"`, "3"} {
		id, code, msg, _ := errorOf(t, h.recv())
		if id != want || code != gateway.CodeServerGone || !strings.Contains(msg, "exited before answering") {
			t.Errorf("got id %s code %d %q, want id %s code %d", id, code, msg, want, gateway.CodeServerGone)
		}
	}
	<-h.done
	if h.err != nil || h.code != 3 {
		t.Errorf("Run: %d %v, want exit status 3", h.code, h.err)
	}
}

// A signal is forwarded to the server; a server killed by it gives 128 +
// its number.
func TestGatewayForwardsSignals(t *testing.T) {
	sig := make(chan os.Signal, 1)
	h := start(t, "normal", gateway.Config{Signals: sig})
	h.roundTrip(initialize) // the server is running
	sig <- syscall.SIGTERM
	<-h.done
	if h.err != nil || h.code != 128+int(syscall.SIGTERM) {
		t.Errorf("Run: %d %v, want %d", h.code, h.err, 128+int(syscall.SIGTERM))
	}
}

func TestGatewayUnknownGrant(t *testing.T) {
	_, err := gateway.Run(context.Background(), gateway.Config{Command: []string{"true"}, Authorizer: seed(t), Grant: "guest"})
	if err == nil || err.Error() != `grant "guest" is not declared (the bundle's grants: host)` {
		t.Errorf("err = %v", err)
	}
}

func TestGatewayCommandNotFound(t *testing.T) {
	_, err := gateway.Run(context.Background(), gateway.Config{Command: []string{"/nonexistent/mcp-server"}, Authorizer: seed(t), Grant: "host", Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "starting the MCP server: fork/exec /nonexistent/mcp-server: no such file or directory") {
		t.Errorf("err = %v", err)
	}
}

// What the server writes that cannot be read is dropped, never relayed:
// the client sees only the server's well-formed answer.
func TestGatewayServerJunkDropped(t *testing.T) {
	h := start(t, "normal", gateway.Config{MaxMessage: 1 << 20})
	h.roundTrip(initialize)
	if got, want := h.roundTrip(`{"jsonrpc":"2.0","id":"j","method":"test/junk"}`), `{"jsonrpc":"2.0","id":"j","result":{"after":"junk"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit %d", code)
	}
	var reports []string
	for _, l := range strings.Split(h.stderr.String(), "\n") {
		if strings.HasPrefix(l, "tenet gateway: ") {
			reports = append(reports, l)
		}
	}
	want := []string{
		`tenet gateway: server message dropped, not relayed (-32700): parse error: jsontext: invalid character 'o' in literal null (expecting 'u') after offset 1 (the line was not relayed)`,
		`tenet gateway: server message dropped, not relayed (-32700): parse error: jsontext: duplicate object member name "result" (the line was not relayed)`,
		`tenet gateway: server message dropped, not relayed (-32700): parse error: jsontext: invalid UTF-8 within "/result/x" after offset 41 (the line was not relayed)`,
		"tenet gateway: server message of 2097197 bytes or more dropped: over the limit of 1048576 bytes (--max-message)",
	}
	if strings.Join(reports, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", strings.Join(reports, "\n"), strings.Join(want, "\n"))
	}
}

// sessionDecider stands for a session's invariant check: it wraps the
// grant's decider, refuses a second read of F1 as an invariant violation,
// and records the answers the gateway hands it.
type sessionDecider struct {
	grant   *gateway.GrantDecider
	reads   int
	results []string
}

func (s *sessionDecider) Decide(c authorize.Call) gateway.Verdict {
	v := s.grant.Decide(c)
	if v.Allowed && c.Tool == "read_fixture" {
		if s.reads++; s.reads > 1 {
			v.Allowed = false
			v.Invariants = []decisionlog.Invariant{{Name: "read_once", Severity: "high", Status: "violated"}}
		}
	}
	return v
}

func (s *sessionDecider) Observe(c authorize.Call, response json.RawMessage) {
	s.results = append(s.results, c.Tool+" "+c.ID+" "+strings.TrimSpace(string(response)))
}

// The Decider seam: a session check plugged in refuses by its own
// findings, which the error and the log carry, and sees each result.
func TestGatewayDeciderSeam(t *testing.T) {
	a := seed(t)
	g, err := gateway.NewGrantDecider(a, "host")
	if err != nil {
		t.Fatal(err)
	}
	s := &sessionDecider{grant: g}
	h := start(t, "normal", gateway.Config{Authorizer: a, Decider: s})
	h.roundTrip(initialize)
	first := h.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`)
	id, code, msg, _ := errorOf(t, h.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`))
	if id != "2" || code != gateway.CodeRefused || msg != `tools/call refused by the session check: invariant "read_once" (severity high) violated` {
		t.Errorf("second read: id %s code %d %q", id, code, msg)
	}
	if code := h.finish(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if want := []string{"read_fixture 1 " + first}; strings.Join(s.results, "\n") != strings.Join(want, "\n") {
		t.Errorf("observed %q, want %q", s.results, want)
	}
	e := h.logLines()
	if len(e) != 2 || !e[0].Allowed || e[1].Allowed || !e[1].Decision.Allowed || len(e[1].Invariants) != 1 || e[1].Invariants[0].Name != "read_once" {
		t.Errorf("log: %+v", e)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A gateway that cannot write its decision log forwards no call: each is
// refused with CodeLogFailed.
func TestGatewayLogFailureRefuses(t *testing.T) {
	h := start(t, "normal", gateway.Config{Log: decisionlog.NewWriter(failingWriter{}, nil)})
	h.roundTrip(initialize)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`
	id, code, msg, _ := errorOf(t, h.roundTrip(call))
	if id != "3" || code != gateway.CodeLogFailed || msg != "refused: the gateway cannot write its decision log (decision log: disk full)" {
		t.Errorf("got id %s code %d %q", id, code, msg)
	}
	if status := h.finish(); status != gateway.ExitLogFailed {
		t.Errorf("exit status %d after the log failed, want %d (the server exited 0)", status, gateway.ExitLogFailed)
	}
	if got := h.received(); strings.Join(got, "\n") != initialize {
		t.Errorf("the server received %q", got)
	}
}
