package gateway_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
)

// rest closes the client's side and returns what the gateway still sent
// the client: read to the end, so that a gateway relaying more than the
// test expects fails it rather than blocking on its output.
func (h *harness) rest() []string {
	h.t.Helper()
	h.in.Close()
	var out []string
	for {
		line, err := h.out.ReadString('\n')
		if line != "" {
			out = append(out, strings.TrimSuffix(line, "\n"))
		}
		if err != nil {
			break
		}
	}
	<-h.done
	if h.err != nil || h.code != 0 {
		h.t.Errorf("Run: %d %v", h.code, h.err)
	}
	return out
}

// reports is the gateway's own lines on standard error.
func reports(h *harness) []string {
	var out []string
	for _, l := range strings.Split(h.stderr.String(), "\n") {
		if strings.HasPrefix(l, "tenet gateway: ") {
			out = append(out, l)
		}
	}
	return out
}

// Answers no request awaits never reach the client: one for a call the
// gateway refused, one for an id never sent, one with id null, a second
// answer to one request. A server's own request reusing such an id (it
// has a method: not an answer) passes, and an answer whose id equals a
// pending one by value (50.0, 50) is that one's.
func TestGatewayDropsUnawaitedAnswers(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	if _, code, _, _ := errorOf(t, h.roundTrip(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete_everything","arguments":{}}}`)); code != gateway.CodeRefused {
		t.Fatalf("call 4: code %d, want %d", code, gateway.CodeRefused)
	}
	h.send(`{"jsonrpc":"2.0","id":50,"method":"test/hold"}`)
	h.send(`{"jsonrpc":"2.0","id":"s","method":"test/stray","params":{"ids":[4,"4",999,50.0]}}`)
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":50.0,"result":{"stray":true}}`,
		`{"jsonrpc":"2.0","id":4,"method":"roots/list"}`,
		`{"jsonrpc":"2.0","id":"s","result":{"once":true}}`,
	} {
		if got := h.recv(); got != want {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
	h.send(`{"jsonrpc":"2.0","method":"test/release"}`) // answers 50 again: answered already
	if got := h.roundTrip(`{"jsonrpc":"2.0","id":"sync","method":"ping"}`); got != `{"jsonrpc":"2.0","id":"sync","result":{}}` {
		t.Errorf("after the strays: %s", got)
	}
	if more := h.rest(); len(more) != 0 {
		t.Errorf("the client also got:\n%s", strings.Join(more, "\n"))
	}
	const why = " dropped, not relayed: no request of the client's with that id awaits an answer (refused by the gateway, answered already, or never sent)"
	want := []string{
		`tenet gateway: tools/call 4 (tool "delete_everything") refused (-32040): tools/call refused by the contract: unregistered_tool: tool "delete_everything" is not declared`,
		`tenet gateway: server result for id 4` + why,
		`tenet gateway: server result for id "4"` + why,
		`tenet gateway: server result for id 999` + why,
		`tenet gateway: server error for id 999` + why,
		`tenet gateway: server error for id null` + why,
		`tenet gateway: server result for id "s"` + why,
		`tenet gateway: server result for id 50` + why,
	}
	if got := reports(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A method that is not tools/call but folds to it (case, white space,
// fullwidth forms, zero-width characters) is refused, never relayed: a
// lenient server would run it unchecked.
func TestGatewayRefusesNearToolsCall(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	params := `"params":{"name":"delete_everything","arguments":{}}`
	for _, c := range []struct{ line, id, method string }{
		{`{"jsonrpc":"2.0","id":1,"method":"Tools/call",` + params + `}`, "1", `"Tools/call"`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call ",` + params + `}`, "2", `"tools/call "`},
		{`{"jsonrpc":"2.0","id":3,"method":"\ttools/call\n",` + params + `}`, "3", `"\ttools/call\n"`},
		{`{"jsonrpc":"2.0","id":4,"method":"TOOLS/CALL",` + params + `}`, "4", `"TOOLS/CALL"`},
		{`{"jsonrpc":"2.0","id":5,"method":"ｔｏｏｌｓ／ｃａｌｌ",` + params + `}`, "5", `"ｔｏｏｌｓ／ｃａｌｌ"`},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/\u200bcall",` + params + `}`, "6", `"tools/\u200bcall"`},
		{`{"jsonrpc":"2.0","id":7,"method":"\ufefftools/caLL\u0000",` + params + `}`, "7", `"\ufefftools/caLL\x00"`},
		{`{"jsonrpc":"2.0","id":8,"method":"tool\u017f/call",` + params + `}`, "8", `"toolſ/call"`}, // LATIN SMALL LETTER LONG S
		{`{"jsonrpc":"2.0","method":"Tools/Call",` + params + `}`, "null", `"Tools/Call"`},          // a notification
	} {
		// A ping after each line: its answer comes second when the line is
		// refused, and first (not a hang) when the line was relayed.
		// (One write: the gateway reads both before it answers either.)
		h.send(c.line + "\n" + `{"jsonrpc":"2.0","id":"sync","method":"ping"}`)
		line := h.recv()
		if line != `{"jsonrpc":"2.0","id":"sync","result":{}}` {
			h.recv()
		}
		id, code, msg, _ := errorOf(t, line)
		if want := "method " + c.method + " is not tools/call but a server may read it as one"; id != c.id || code != gateway.CodeInvalidRequest || msg != want {
			t.Errorf("%s:\n got id %s code %d %q\nwant id %s code %d %q", c.line, id, code, msg, c.id, gateway.CodeInvalidRequest, want)
		}
	}
	// Methods that do not fold to tools/call pass as before.
	if got, want := h.roundTrip(`{"jsonrpc":"2.0","id":9,"method":"tools/callx"}`), `{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"method not found"}}`; got != want {
		t.Errorf("tools/callx:\n got %s\nwant %s", got, want)
	}
	if more := h.rest(); len(more) != 0 {
		t.Errorf("the client also got:\n%s", strings.Join(more, "\n"))
	}
	want := []string{initialize}
	for range 9 {
		want = append(want, `{"jsonrpc":"2.0","id":"sync","method":"ping"}`)
	}
	if got := h.received(); strings.Join(got, "\n") != strings.Join(append(want, `{"jsonrpc":"2.0","id":9,"method":"tools/callx"}`), "\n") {
		t.Errorf("the server received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := reports(h); len(got) != 9 || got[0] != `tenet gateway: client message refused (-32600): method "Tools/call" is not tools/call but a server may read it as one` ||
		got[5] != `tenet gateway: client message refused (-32600): method "tools/\u200bcall" is not tools/call but a server may read it as one` {
		t.Errorf("stderr:\n%s", strings.Join(got, "\n"))
	}
	if got := h.logLines(); len(got) != 9 || got[0].Error != `refused before any decision (-32600): method "Tools/call" is not tools/call but a server may read it as one` {
		t.Errorf("log: %s", h.log)
	}
}

// Every refused client line that was, or may have been, a tools/call is
// a log entry with error and no decision, numbered on with the decided
// calls, and the log reads back (decisionlog.Read).
func TestGatewayLogsUndecidedRefusals(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	params := `"params":{"name":"read_fixture","arguments":{"id":"F9"}}`
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"Tools/call",` + params + `}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","method":"ping",` + params + `}`,
		`{"jsonrpc":"2.0","method":"tools/call",` + params + `}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"call":{}}}`,
	} {
		h.roundTrip(line)
	}
	h.roundTrip(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`)
	h.finish()
	var got []string
	for _, e := range h.logLines() {
		got = append(got, fmt.Sprintf("seq=%d id=%s tool=%s args=%v decided=%v error=%s", e.Seq, e.Call.ID, e.Call.Tool, e.Call.Arguments, e.Decision != nil, e.Error))
	}
	want := []string{
		`seq=1 id=1 tool=read_fixture args=map[id:F9] decided=false error=refused before any decision (-32600): method "Tools/call" is not tools/call but a server may read it as one`,
		`seq=2 id= tool= args=map[] decided=false error=refused before any decision (-32700): parse error: jsontext: duplicate object member name "method" (the line was not relayed)`,
		`seq=3 id= tool=read_fixture args=map[id:F9] decided=false error=refused before any decision (-32600): a tools/call without an id (a notification) is refused: a call is decided and answered by its id`,
		`seq=4 id=4 tool=read_fixture args=map[id:F1] decided=false error=a tools/call request's params holds "call" besides its members (name, arguments, _meta): a tool runtime may read it as part of the call, which this decision would not have seen; send only the call's members`,
		`seq=5 id=5 tool=read_fixture args=map[id:F1] decided=true error=`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	entries, err := decisionlog.Read(strings.NewReader(h.log.String()), "log")
	if err != nil || len(entries) != 5 {
		t.Errorf("decisionlog.Read: %d entries, %v", len(entries), err)
	}
}

// What the gateway writes on standard error of untrusted text is escaped
// and bounded: an argument cannot forge a line of the gateway's, and a
// 6 MB one is not echoed whole.
func TestGatewayStderrEscaped(t *testing.T) {
	h := start(t, "normal", gateway.Config{MaxMessage: 16 << 20})
	h.roundTrip(initialize)
	forged := `F2)\ntenet gateway: tools/call 5 (tool \"read_fixture\") allowed`
	id, code, _, _ := errorOf(t, h.roundTrip(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"`+forged+`"}}}`))
	if id != "5" || code != gateway.CodeRefused {
		t.Errorf("forged: id %s code %d", id, code)
	}
	big := strings.Repeat("F", 6<<20)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"` + big + `"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + big + `","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"` + big + `","method":"tools/call","params":{"name":"read_fixture","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"` + big + `":1}}`,
		`{"jsonrpc":"2.0","id":9,"method":"Tools/call` + big + `"}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call ` + big + `"}`,
	} {
		errorOf(t, h.roundTrip(line))
	}
	if more := h.rest(); len(more) != 0 {
		t.Errorf("the client also got:\n%s", strings.Join(more, "\n"))
	}
	got := reports(h)
	want := `tenet gateway: tools/call 5 (tool "read_fixture") refused (-32040): "tools/call refused by the contract: missing_resource_capability: grant \"host\" does not allow (read, F2)\ntenet gateway: tools/call 5 (tool \"read_fixture\") allowed)"`
	if len(got) == 0 || got[0] != want {
		t.Errorf("stderr's first report:\n got %s\nwant %s", strings.Join(got, "\n"), want)
	}
	for _, l := range got {
		if strings.Contains(l, "allowed") && l != want {
			t.Errorf("a forged line: %s", l)
		}
	}
	if n := len(h.stderr.String()); n > 16<<10 {
		t.Errorf("stderr is %d bytes: untrusted text echoed unbounded", n)
	}
}

// A tools/call's params are name and arguments, decided, and _meta,
// relayed unread; any other member could carry what a server acts on
// undecided (a second call), so the call is refused, never relayed.
func TestGatewayParamsMembers(t *testing.T) {
	h := start(t, "normal", gateway.Config{})
	h.roundTrip(initialize)
	meta := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"_meta":{"progressToken":"p"}}}`
	if got, want := h.roundTrip(meta), `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"read_fixture {\"id\":\"F1\"}"}]}}`; got != want {
		t.Errorf("_meta:\n got %s\nwant %s", got, want)
	}
	second := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"call":{"name":"delete_everything","arguments":{}},"task":{}}}`
	id, code, msg, _ := errorOf(t, h.roundTrip(second))
	if want := `tools/call not decided: a tools/call request's params holds "call", "task" besides its members (name, arguments, _meta): a tool runtime may read it as part of the call, which this decision would not have seen; send only the call's members`; id != "2" || code != gateway.CodeInvalidParams || msg != want {
		t.Errorf("extra members:\n got id %s code %d %q\nwant id 2 code %d %q", id, code, msg, gateway.CodeInvalidParams, want)
	}
	if more := h.rest(); len(more) != 0 {
		t.Errorf("the client also got:\n%s", strings.Join(more, "\n"))
	}
	if got := h.received(); strings.Join(got, "\n") != initialize+"\n"+meta {
		t.Errorf("the server received:\n%s", strings.Join(got, "\n"))
	}
	if e := h.logLines(); len(e) != 2 || !e[0].Allowed || e[1].Allowed || !strings.HasPrefix(e[1].Error, `a tools/call request's params holds "call", "task"`) {
		t.Errorf("log: %+v", e)
	}
}
