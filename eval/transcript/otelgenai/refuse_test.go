package otelgenai

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// otlp builds one export line of the given spans (objects as JSON text),
// with a root span (id "r") for each of their traces, so that each trace
// is whole; otlpPart leaves the roots out (for a trace whose root comes on
// another line).
func otlp(spans ...string) string {
	seen := map[string]bool{}
	for _, s := range spans {
		if m := traceIDRe.FindStringSubmatch(s); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			spans = append(spans, `{"traceId":"`+m[1]+`","spanId":"r","name":"root","startTimeUnixNano":"0","endTimeUnixNano":"9"}`)
		}
	}
	return otlpPart(spans...)
}

var traceIDRe = regexp.MustCompile(`"traceId":"([^"]*)"`)

func otlpPart(spans ...string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[` + strings.Join(spans, ",") + `]}]}]}`
}

// sp builds a span of trace tr starting at start (and id "s<start>",
// child of "r") with the given attributes (key, string value pairs) and
// extra members.
func sp(tr string, start int, extra string, kv ...string) string {
	var attrs []string
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := json.Marshal(kv[i+1])
		attrs = append(attrs, `{"key":"`+kv[i]+`","value":{"stringValue":`+string(v)+`}}`)
	}
	s := `{"traceId":"` + tr + `","spanId":"s` + string(rune('0'+start)) + `","parentSpanId":"r","name":"n","startTimeUnixNano":"` + strings.Repeat("0", 1) + string(rune('0'+start)) + `","endTimeUnixNano":"9","attributes":[` + strings.Join(attrs, ",") + `]`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func decodeOne(t *testing.T, line string) string {
	t.Helper()
	_, _, msg := Decode([]byte(line))
	return msg
}

func TestRefusals(t *testing.T) {
	user := `[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`
	other := `[{"role":"user","parts":[{"type":"text","content":"other"}]}]`
	two := `[{"role":"assistant","parts":[],"finish_reason":"stop"},{"role":"assistant","parts":[],"finish_reason":"stop"}]`
	for _, tc := range []struct{ name, line, want string }{
		{"chat record", `{"messages":[]}`, `no resourceSpans: this record has "messages", likely a chat transcript (format openai-messages or anthropic-messages), not an OTLP trace export`},
		{"logs", `{"resourceLogs":[]}`, `an OTLP logs or metrics export, not traces: otel-genai reads spans (resourceSpans)`},
		{"bare span", `{"traceId":"a","spanId":"b"}`, `a bare span: otel-genai reads OTLP/JSON export lines {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}`},
		{"rewritten history", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", user), sp("t", 2, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", other)),
			`span 1 ("n"): gen_ai.input.messages: message 0 is not message 0 of the conversation so far: the input does not continue the earlier chat spans' conversation (rewritten or trimmed history), which tenet does not read`},
		{"choices", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", two)),
			`span 0 ("n"): gen_ai.output.messages: 2 output messages (choices): tenet reads one continuation of the conversation`},
		{"deprecated events", otlp(sp("t", 1, `"events":[{"name":"gen_ai.user.message"}]`, "gen_ai.operation.name", "chat")),
			`resourceSpans[0].scopeSpans[0].spans[0]: events[0]: span event "gen_ai.user.message" is the deprecated event-based GenAI convention, which tenet does not read: record gen_ai.input.messages and gen_ai.output.messages as span attributes`},
		{"status code", otlp(sp("t", 1, `"status":{"code":7}`, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x")),
			`resourceSpans[0].scopeSpans[0].spans[0]: status.code: 7 is not an OTLP status code (0 unset, 1 ok, 2 error)`},
		{"tool without name", otlp(sp("t", 1, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.call.id", "c")),
			`span 0 ("n"): gen_ai.tool.name: want a non-empty string (execute_tool spans name their tool)`},
		{"tool attrs without operation", otlp(sp("t", 1, "", "gen_ai.tool.call.id", "c")),
			`resourceSpans[0].scopeSpans[0].spans[0]: attribute gen_ai.tool.call.id without gen_ai.operation.name: tenet cannot tell what the span is`},
		{"two traces", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat"), sp("u", 2, "", "gen_ai.operation.name", "chat")),
			`spans of 2 traces that no gen_ai.conversation.id joins: one record is one run (read the file with the otel-genai format, which groups a file's spans by trace)`},
		{"unknown part", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_use","id":"x","name":"send","input":{}}],"finish_reason":"stop"}]`)),
			`span 0 ("n"): gen_ai.output.messages: message 0: part 0: type "tool_use" is not a part type tenet reads (text, reasoning, tool_call, tool_call_response, server_tool_call, server_tool_call_response, blob, file, uri)`},
		{"duplicate attribute", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t","attributes":[{"key":"a","value":{}},{"key":"a","value":{}}]}]}]}]}`,
			`resourceSpans[0].scopeSpans[0].spans[0]: attributes[1]: attribute "a" given twice`},
	} {
		if got := decodeOne(t, tc.line); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestBufferBound: the framer's buffer is bounded by MaxRecordBytes; the
// line that crosses it is an error naming the bound, and the file ends
// there (no partial trace is given as a run).
func TestBufferBound(t *testing.T) {
	tool := func(start int) string {
		return sp("t", start, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x")
	}
	line := otlpPart(tool(1))
	data := line + "\n" + otlpPart(tool(2)) + "\n" + otlp(tool(3)) + "\n"
	got := readAll(t, "f.jsonl", data, frame.Options{MaxRecordBytes: 2*len(line) + 10})
	want := "error f.jsonl:2: otel-genai buffers a file's spans until its end to group them by trace, and this line takes them over the limit of " +
		itoa(2*len(line)+10) + " bytes: no run of this file is read (raise --max-record-bytes or split the file by trace)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Under the bound: one run of three tool spans.
	got = readAll(t, "f.jsonl", data, frame.Options{})
	if !strings.HasPrefix(got, "run at line 1\n") || strings.Count(got, "\ncall ") != 3 {
		t.Errorf("unbounded read:\n%s", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestBadLineSkipped: a line that is not an export is an error for that
// line; the other lines' runs are read.
func TestBadLineSkipped(t *testing.T) {
	good := otlp(sp("t", 1, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x"))
	got := readAll(t, "f.jsonl", `{"messages":[]}`+"\n"+good+"\n", frame.Options{})
	want := "error f.jsonl:1: no resourceSpans: this record has \"messages\", likely a chat transcript (format openai-messages or anthropic-messages), not an OTLP trace export\nrun at line 2\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant prefix\n%s", got, want)
	}
}

// TestEchoNotCounted: the canonical transcript's chat inputs carry the
// results of call_1 and call_2 back to the model; the execute_tool spans
// gave them already, so they make no events of their own.
func TestEchoNotCounted(t *testing.T) {
	cid := "call_9"
	req := `[{"role":"assistant","parts":[{"type":"tool_call","id":"` + cid + `","name":"x","arguments":{"a":1}}],"finish_reason":"tool_call"}]`
	in := `[{"role":"assistant","parts":[{"type":"tool_call","id":"` + cid + `","name":"x","arguments":{"a":1}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"` + cid + `","response":"r"}]}]`
	line := otlp(
		sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", req),
		sp("t", 2, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x", "gen_ai.tool.call.id", cid, "gen_ai.tool.call.arguments", `{"a":1}`, "gen_ai.tool.call.result", "r"),
		sp("t", 3, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", in),
	)
	rn, _, msg := Decode([]byte(line))
	if msg != "" {
		t.Fatal(msg)
	}
	got := summary(rn)
	want := `meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "r" calls=[] result(id=call_9 tool=x failed=false err="")
call 0 ev=0 id=call_9 x {"a":1} ok=true result="r" err="" resultEvent=1
output ""
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRanOtherArgs: the execute_tool span records other arguments than
// the chat span's tool_call requested (a structured kvlistValue here):
// the call's args are what ran, the request is kept, and the mismatch is
// said.
func TestRanOtherArgs(t *testing.T) {
	req := `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"send_money","arguments":"{\"to\":\"friend\"}"}],"finish_reason":"tool_call"}]`
	tool := `{"traceId":"t","spanId":"s2","parentSpanId":"r","name":"execute_tool send_money","startTimeUnixNano":"2","endTimeUnixNano":"9","attributes":[` +
		`{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"send_money"}},` +
		`{"key":"gen_ai.tool.call.id","value":{"stringValue":"c1"}},{"key":"gen_ai.tool.call.arguments","value":{"kvlistValue":{"values":[{"key":"to","value":{"stringValue":"attacker"}}]}}},` +
		`{"key":"gen_ai.tool.call.result","value":{"kvlistValue":{"values":[{"key":"sent","value":{"boolValue":true}},{"key":"n","value":{"intValue":"3"}}]}}}]}`
	rn, _, msg := Decode([]byte(otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", req), tool)))
	if msg != "" {
		t.Fatal(msg)
	}
	got := summary(rn)
	want := `meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "{\"n\":3,\"sent\":true}" calls=[] result(id=c1 tool=send_money failed=false err="")
call 0 ev=0 id=c1 send_money {"to":"attacker"} ok=true result="{\"n\":3,\"sent\":true}" err="" resultEvent=1 mismatch="other arguments ran than were requested" argsError="" okUnknown=""
output ""
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestConversationJoinedLate: a trace's gen_ai.conversation.id may come
// only on its root span, on a later line; the framer joins the traces of
// one conversation all the same, and a trace without one is its own run.
func TestConversationJoinedLate(t *testing.T) {
	tool := func(tr string, start int, name string, kv ...string) string {
		// Status OK: the call ran (without a status or a result its
		// outcome would be unknown).
		return sp(tr, start, `"status":{"code":1}`, append([]string{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", name}, kv...)...)
	}
	data := otlp(tool("a", 1, "x"), tool("b", 2, "y"), tool("c", 3, "z")) + "\n" +
		otlpPart(tool("c", 4, "w", "gen_ai.conversation.id", "k")) + "\n" +
		otlpPart(tool("a", 5, "v", "gen_ai.conversation.id", "k")) + "\n"
	got := readAll(t, "f.jsonl", data, frame.Options{})
	var runs []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "run at") || strings.HasPrefix(l, "call ") || strings.HasPrefix(l, "f.jsonl") {
			runs = append(runs, l)
		}
	}
	want := `run at line 1
call 0 ev=0 id= x {} ok=true result="" err="" resultEvent=0
call 1 ev=1 id= z {} ok=true result="" err="" resultEvent=1
call 2 ev=2 id= w {} ok=true result="" err="" resultEvent=2
call 3 ev=3 id= v {} ok=true result="" err="" resultEvent=3
run at line 1
call 0 ev=0 id= y {} ok=true result="" err="" resultEvent=0`
	if g := strings.Join(runs, "\n"); g != want {
		t.Errorf("got\n%s\nwant\n%s", g, want)
	}
}

// TestEchoSpanWithoutID: an execute_tool span without gen_ai.tool.call.id
// answers the requested call of its tool; the response part with that
// call's id in the next input is the same result, not a second one (which
// the matcher would note as a disagreement).
func TestEchoSpanWithoutID(t *testing.T) {
	req := `[{"role":"assistant","parts":[{"type":"tool_call","id":"c9","name":"x","arguments":{}}],"finish_reason":"tool_call"}]`
	in := `[{"role":"assistant","parts":[{"type":"tool_call","id":"c9","name":"x","arguments":{}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"c9","response":"r"}]}]`
	rn, _, msg := Decode([]byte(otlp(
		sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", req),
		sp("t", 2, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x", "gen_ai.tool.call.result", "r"),
		sp("t", 3, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", in),
	)))
	if msg != "" {
		t.Fatal(msg)
	}
	got := summary(rn)
	want := `meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "r" calls=[] result(id= tool=x failed=false err="")
call 0 ev=0 id=c9 x {} ok=true result="r" err="" resultEvent=1
output ""
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
