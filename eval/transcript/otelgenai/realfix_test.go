package otelgenai

import (
	"strings"
	"testing"
)

// Tests for what real producers' output showed (issue 15's real-log
// review): pydantic-ai's parts, its deferred calls, errors without a
// status description, and spans of other conventions.

// decodeSummary decodes one record and summarises it, or gives the
// refusal.
func decodeSummary(t *testing.T, line string) string {
	t.Helper()
	rn, _, msg := Decode([]byte(line))
	if msg != "" {
		return "refused: " + msg
	}
	var sb strings.Builder
	sb.WriteString(summary(rn))
	for _, ev := range rn.Events {
		if ev.FailedUnknown != "" {
			sb.WriteString("event " + ev.Role + " failedUnknown=" + ev.FailedUnknown + "\n")
		}
	}
	return sb.String()
}

const (
	askTwo = `[{"role":"assistant","parts":[{"type":"tool_call","id":"p1","name":"delete_file","arguments":{"path":"a.txt"}},{"type":"tool_call","id":"p2","name":"add","arguments":{"x":1}}],"finish_reason":"tool_call"}]`
	askOne = `[{"role":"assistant","parts":[{"type":"tool_call","id":"p1","name":"delete_file","arguments":{"path":"a.txt"}}],"finish_reason":"tool_call"}]`
)

// chatIn is a chat span's input: askOne's message, then a tool message of
// the given parts.
func chatIn(start int, parts string) string {
	in := `[{"role":"assistant","parts":[{"type":"tool_call","id":"p1","name":"delete_file","arguments":{"path":"a.txt"}}]},{"role":"tool","parts":[` + parts + `]}]`
	return sp("t", start, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", in)
}

// TestPartMembers (D7): pydantic-ai writes a tool_call_response as {type,
// id, name, result}; the conventions' schemas allow members beyond
// theirs. result is response; name is the tool that ran; other members
// are kept in blocks unless they name a call.
func TestPartMembers(t *testing.T) {
	out := sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", askOne)
	for _, tc := range []struct{ name, line, want string }{
		{"result and name", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","name":"delete_file","result":"deleted","builtin":false}`)),
			`meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "deleted" calls=[] result(id=p1 tool=delete_file failed=false err="")
call 0 ev=0 id=p1 delete_file {"path":"a.txt"} ok=true result="deleted" err="" resultEvent=1
output ""
`},
		{"result equal to response", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","response":{"n":1},"result":{"n":1}}`)),
			`meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "{\"n\":1}" calls=[] result(id=p1 tool=delete_file failed=false err="")
call 0 ev=0 id=p1 delete_file {"path":"a.txt"} ok=true result="{\"n\":1}" err="" resultEvent=1
output ""
`},
		{"name of another tool", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","name":"wipe_disk","result":"done"}`)),
			`meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 assistant "" calls=[0]
event 1 tool "done" calls=[] result(id=p1 tool=wipe_disk failed=false err="")
call 0 ev=0 id=p1 wipe_disk {"path":"a.txt"} ok=true result="done" err="" resultEvent=1 mismatch="tool \"wipe_disk\" ran, \"delete_file\" was requested" argsError="" okUnknown=""
output ""
`},
		{"response and result differ", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","response":"a","result":"b"}`)),
			`refused: span 1 ("n"): gen_ai.input.messages: message 1: part 0 (tool_call_response): response and result differ: tenet cannot tell which is the call's result`},
		{"name not a string", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","name":7,"result":"b"}`)),
			`refused: span 1 ("n"): gen_ai.input.messages: message 1: part 0 (tool_call_response).name: want a string, got a number`},
		{"neither", otlp(out, chatIn(2, `{"type":"tool_call_response","id":"p1","name":"delete_file"}`)),
			`refused: span 1 ("n"): gen_ai.input.messages: message 1: part 0 (tool_call_response): response missing`},
		{"call-shaped member", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"ok","tool_calls":[{"name":"send"}]}]}]`)),
			`refused: span 0 ("n"): gen_ai.output.messages: message 0: part 0 (text): member "tool_calls" names a call, a tool or a function, which tenet does not read in a text part`},
		{"echo naming another tool than its span", otlp(out,
			sp("t", 2, `"status":{"code":1}`, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "delete_file", "gen_ai.tool.call.id", "p1"),
			chatIn(3, `{"type":"tool_call_response","id":"p1","name":"wipe_disk","result":""}`)),
			`refused: span 2 ("n"): gen_ai.input.messages: message 1: part 0 (tool_call_response): names the tool "wipe_disk", but the execute_tool span of call "p1" ran "delete_file"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeSummary(t, tc.line); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestToolOutcome (D8): an execute_tool span says its call ran when it
// records a result or status OK, failed with status ERROR or error.type;
// with neither a result nor a status, the outcome is unknown, and with
// pydantic-ai's deferral mark the call did not run.
func TestToolOutcome(t *testing.T) {
	out := sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", askTwo)
	tool := func(start int, extra, name, id string, kv ...string) string {
		return sp("t", start, extra, append([]string{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", name, "gen_ai.tool.call.id", id}, kv...)...)
	}
	const defer_ = "pydantic_ai.tool.deferral.name"
	meta := `meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
`
	for _, tc := range []struct{ name, line, want string }{
		{"unset without result", otlp(tool(1, "", "add", "p2")), meta + `event 0 tool "" calls=[] result(id=p2 tool=add failed=false err="")
call 0 ev=0 id=p2 add {} ok=true result="" err="" resultEvent=0
output ""
`},
		{"ok without result", otlp(tool(1, `"status":{"code":"STATUS_CODE_OK"}`, "add", "p2")), meta + `event 0 tool "" calls=[] result(id=p2 tool=add failed=false err="")
call 0 ev=0 id=p2 add {} ok=true result="" err="" resultEvent=0
output ""
`},
		{"unset with result", otlp(tool(1, "", "add", "p2", "gen_ai.tool.call.result", "2")), meta + `event 0 tool "2" calls=[] result(id=p2 tool=add failed=false err="")
call 0 ev=0 id=p2 add {} ok=true result="2" err="" resultEvent=0
output ""
`},
		{"deferred after its request", otlp(out, tool(2, "", "delete_file", "p1", defer_, "ApprovalRequired"), tool(3, "", "add", "p2", "gen_ai.tool.call.result", "2")), meta + `event 0 assistant "" calls=[0 1]
event 1 tool "2" calls=[] result(id=p2 tool=add failed=false err="")
call 0 ev=0 id=p1 delete_file {"path":"a.txt"} ok=false result="" err="deferred (pydantic_ai.tool.deferral.name \"ApprovalRequired\"): the tool did not run" resultEvent=-1
call 1 ev=0 id=p2 add {"x":1} ok=true result="2" err="" resultEvent=1
output ""
`},
		// Approved later in the conversation: the call ran then.
		{"deferred then run", otlp(out, tool(2, "", "delete_file", "p1", defer_, "CallDeferred"), tool(3, "", "delete_file", "p1", "gen_ai.tool.call.result", "deleted")), meta + `event 0 assistant "" calls=[0 1]
event 1 tool "deleted" calls=[] result(id=p1 tool=delete_file failed=false err="")
call 0 ev=0 id=p1 delete_file {"path":"a.txt"} ok=true result="deleted" err="" resultEvent=1
call 1 ev=0 id=p2 add {"x":1} ok=false result="" err="" resultEvent=-1
output ""
`},
		// A denial sent back to the model (or an external run's result:
		// the part cannot say which) is the call's only result; the
		// deferred span is not one it echoes.
		{"deferred then denied", otlp(out, tool(2, "", "delete_file", "p1", defer_, "ApprovalRequired"), sp("t", 3, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"p1","name":"delete_file","arguments":{"path":"a.txt"}},{"type":"tool_call","id":"p2","name":"add","arguments":{"x":1}}]},{"role":"user","parts":[{"type":"tool_call_response","id":"p1","name":"delete_file","result":"denied by the user"}]}]`)), meta + `event 0 assistant "" calls=[0 1]
event 1 tool "denied by the user" calls=[] result(id=p1 tool=delete_file failed=false err="")
call 0 ev=0 id=p1 delete_file {"path":"a.txt"} ok=false result="denied by the user" err="" resultEvent=1 mismatch="" argsError="" okUnknown="the call was deferred (pydantic_ai.tool.deferral.name \"ApprovalRequired\") and no execute_tool span ran it: its response may be a denial or the result of a run elsewhere, so whether the tool ran is unknown"
call 1 ev=0 id=p2 add {"x":1} ok=false result="" err="" resultEvent=-1
output ""
event tool failedUnknown=the call was deferred (pydantic_ai.tool.deferral.name "ApprovalRequired") and no execute_tool span ran it: its response may be a denial or the result of a run elsewhere, so whether the tool ran is unknown
`},
		{"deferred without request", otlp(tool(1, "", "delete_file", "p1", defer_, "ApprovalRequired")), meta + `event 0 tool "" calls=[] result(id=p1 tool=delete_file failed=true err="deferred (pydantic_ai.tool.deferral.name \"ApprovalRequired\"): the tool did not run")
call 0 ev=0 id=p1 delete_file {} ok=false result="" err="deferred (pydantic_ai.tool.deferral.name \"ApprovalRequired\"): the tool did not run" resultEvent=0
output ""
`},
		{"deferred with a result", otlp(tool(1, "", "delete_file", "p1", defer_, "ApprovalRequired", "gen_ai.tool.call.result", "x")), meta + `event 0 tool "x" calls=[] result(id=p1 tool=delete_file failed=false err="")
call 0 ev=0 id=p1 delete_file {} ok=false result="x" err="" resultEvent=0 mismatch="" argsError="" okUnknown="the span marks the call deferred (pydantic_ai.tool.deferral.name \"ApprovalRequired\"), but also records a result or a status: whether the tool ran is unknown"
output ""
event tool failedUnknown=the span marks the call deferred (pydantic_ai.tool.deferral.name "ApprovalRequired"), but also records a result or a status: whether the tool ran is unknown
`},
		{"deferral not a string", otlp(tool(1, "", "delete_file", "p1", defer_, "")),
			`refused: resourceSpans[0].scopeSpans[0].spans[0]: pydantic_ai.tool.deferral.name: want a non-empty string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeSummary(t, tc.line); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestExceptionEvent (D9): a span with status ERROR and no description
// (what an SDK's set_status(ERROR) writes) takes its error from the
// exception event it recorded.
func TestExceptionEvent(t *testing.T) {
	exc := func(kv string) string {
		return `"events":[{"name":"retry"},{"timeUnixNano":"5","name":"exception","attributes":[` + kv + `]}]`
	}
	msg := `{"key":"exception.type","value":{"stringValue":"ToolFailedError"}},{"key":"exception.message","value":{"stringValue":"service unavailable"}}`
	typ := `{"key":"exception.type","value":{"stringValue":"ToolFailedError"}}`
	for _, tc := range []struct{ name, extra, want string }{
		{"message", `"status":{"code":2},` + exc(msg), "service unavailable"},
		{"type only", `"status":{"code":2},` + exc(typ), "ToolFailedError"},
		{"status description first", `"status":{"code":2,"message":"timeout"},` + exc(msg), "timeout"},
		{"no exception", `"status":{"code":2}`, "error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rn, _, m := Decode([]byte(otlp(sp("t", 1, tc.extra, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "add"))))
			if m != "" {
				t.Fatal(m)
			}
			if c := rn.Calls[0]; c.Ok || c.Error != tc.want || rn.Events[0].Error != tc.want {
				t.Errorf("ok %v, error %q (event %q), want false, %q", c.Ok, c.Error, rn.Events[0].Error, tc.want)
			}
		})
	}
}

// TestOtherConventions: spans that carry a conversation or a call in
// OpenLLMetry's or OpenInference's attributes are refused, naming the
// convention, rather than read as a run with no messages.
func TestOtherConventions(t *testing.T) {
	tail := " which tenet does not read: tenet reads the GenAI semantic conventions' gen_ai.input.messages and gen_ai.output.messages (chat spans) and execute_tool spans"
	user := `[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`
	for _, tc := range []struct{ name, line, want string }{
		{"openllmetry indexed", otlp(sp("t", 1, "", "llm.request.type", "chat", "gen_ai.prompt.0.role", "user", "gen_ai.prompt.0.content", "hi", "gen_ai.completion.0.tool_calls.0.name", "send")),
			"refused: resourceSpans[0].scopeSpans[0].spans[0]: attribute gen_ai.completion.0.tool_calls.0.name: OpenLLMetry's indexed prompt and completion attributes (gen_ai.prompt.N.*, gen_ai.completion.N.*), or the deprecated gen_ai.prompt and gen_ai.completion," + tail},
		{"openllmetry on a chat span", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.prompt.0.content", "hi")),
			"refused: resourceSpans[0].scopeSpans[0].spans[0]: attribute gen_ai.prompt.0.content: OpenLLMetry's indexed prompt and completion attributes (gen_ai.prompt.N.*, gen_ai.completion.N.*), or the deprecated gen_ai.prompt and gen_ai.completion," + tail},
		{"openinference llm", otlp(sp("t", 1, "", "openinference.span.kind", "LLM", "llm.input_messages.0.message.role", "user", "llm.output_messages.0.message.role", "assistant")),
			"refused: resourceSpans[0].scopeSpans[0].spans[0]: attribute llm.input_messages.0.message.role: OpenInference's LLM span messages (llm.input_messages.*, llm.output_messages.*)," + tail},
		{"openinference tool", otlp(sp("t", 1, "", "openinference.span.kind", "TOOL", "tool.name", "send")),
			"refused: resourceSpans[0].scopeSpans[0].spans[0]: attribute openinference.span.kind: an OpenInference TOOL span (openinference.span.kind)," + tail},
		{"traceloop tool", otlp(sp("t", 1, "", "traceloop.span.kind", "tool", "traceloop.entity.name", "send")),
			"refused: resourceSpans[0].scopeSpans[0].spans[0]: attribute traceloop.span.kind: an OpenLLMetry tool span (traceloop.span.kind)," + tail},
		// Both conventions on one span: the GenAI messages are read.
		{"with gen_ai messages", otlp(sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", user, "gen_ai.prompt.0.content", "hi")),
			`meta {"resource":{"service.name":"svc"},"service_name":"svc","trace_ids":["t"]}
event 0 user "hi" calls=[]
output ""
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeSummary(t, tc.line); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
