package anthropic

import (
	"fmt"
	"strings"
	"testing"
)

// tree renders each call's place: index, tool, id, event, depth, parent,
// ok and result event; and each event's calls.
func tree(t *testing.T, data string) string {
	t.Helper()
	rn, skip, msg := Decode([]byte(data))
	if msg != "" || skip {
		t.Fatalf("Decode: skip=%v msg=%q", skip, msg)
	}
	var sb strings.Builder
	for _, ev := range rn.Events {
		fmt.Fprintf(&sb, "event %d %s calls=%v\n", ev.Index, ev.Role, ev.Calls)
	}
	for _, c := range rn.Calls {
		fmt.Fprintf(&sb, "call %d %s id=%s event=%d depth=%d parent=%d ok=%v result_event=%d\n", c.Index, c.Tool, c.ID, c.Event, c.Depth, c.Parent, c.Ok, c.ResultEvent)
	}
	return sb.String()
}

// TestCallerDirect: a tool_use block's caller {"type": "direct"} (the
// SDK's DirectCaller) is the model's own call, top level, as without a
// caller; on a server_tool_use too.
func TestCallerDirect(t *testing.T) {
	got := tree(t, `{"request":{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":[`+
		`{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{"query":"sf"},"caller":{"type":"direct"}},`+
		`{"type":"web_search_tool_result","tool_use_id":"srv_1","content":[],"caller":{"type":"direct"}},`+
		`{"type":"tool_use","id":"tu_1","name":"get_weather","input":{"city":"SF"},"caller":{"type":"direct"}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_1","content":"sunny"}]}]},`+
		`"response":{"type":"message","role":"assistant","content":[{"type":"text","text":"sunny"}]}}`)
	want := `event 0 user calls=[]
event 1 assistant calls=[0 1]
event 2 tool calls=[]
event 3 assistant calls=[]
call 0 web_search id=srv_1 event=1 depth=0 parent=-1 ok=true result_event=1
call 1 get_weather id=tu_1 event=1 depth=0 parent=-1 ok=true result_event=2
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCallerServerTool: a tool_use whose caller is a code execution tool
// (programmatic tool calling) is nested under the server_tool_use call
// its tool_id names — depth 1, parent that call — in its own message's
// calls, answered by its tool_result; a later message's call made by the
// same server call (the code ran on across turns) is nested under it too.
func TestCallerServerTool(t *testing.T) {
	got := tree(t, `{"request":{"messages":[{"role":"user","content":"weather in SF and NY?"},{"role":"assistant","content":[`+
		`{"type":"server_tool_use","id":"srv_1","name":"code_execution","input":{"code":"..."},"caller":{"type":"direct"}},`+
		`{"type":"tool_use","id":"tu_1","name":"get_weather","input":{"city":"SF"},"caller":{"type":"code_execution_20260120","tool_id":"srv_1"}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_1","content":"sunny"}]}]},`+
		`"response":{"type":"message","role":"assistant","content":[`+
		`{"type":"tool_use","id":"tu_2","name":"get_weather","input":{"city":"NY"},"caller":{"type":"code_execution_20250825","tool_id":"srv_1"}}],"stop_reason":"tool_use"}}`)
	want := `event 0 user calls=[]
event 1 assistant calls=[0 1]
event 2 tool calls=[]
event 3 assistant calls=[2]
call 0 code_execution id=srv_1 event=1 depth=0 parent=-1 ok=false result_event=-1
call 1 get_weather id=tu_1 event=1 depth=1 parent=0 ok=true result_event=2
call 2 get_weather id=tu_2 event=3 depth=1 parent=0 ok=false result_event=-1
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCallerRefusals: a caller this reader cannot place is refused with
// the reason, never read as a top-level call.
func TestCallerRefusals(t *testing.T) {
	msgs := func(blocks string) string {
		return `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[` + blocks + `]}]}`
	}
	const srv = `{"type":"server_tool_use","id":"srv_1","name":"code_execution","input":{}},`
	for _, tc := range []struct{ in, want string }{
		{msgs(srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120","tool_id":"srv_9"}}`),
			`message 1: content[1] (tool_use): caller.tool_id "srv_9": no server_tool_use block before this call has that id, so the server tool call that made it is not in the record`},
		{msgs(`{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120","tool_id":"srv_1"}},` + srv[:len(srv)-1]),
			`message 1: content[0] (tool_use): caller.tool_id "srv_1": no server_tool_use block before this call has that id, so the server tool call that made it is not in the record`},
		{msgs(`{"type":"tool_use","id":"t0","name":"read","input":{}},{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120","tool_id":"t0"}}`),
			`message 1: content[1] (tool_use): caller.tool_id "t0": no server_tool_use block before this call has that id, so the server tool call that made it is not in the record`},
		{msgs(srv + srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120","tool_id":"srv_1"}}`),
			`message 1: content[2] (tool_use): caller.tool_id "srv_1": two server_tool_use blocks have that id, so which made this call is unclear`},
		{msgs(srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"bash_20260101","tool_id":"srv_1"}}`),
			`message 1: content[1].caller.type "bash_20260101": an unknown caller (this reader knows "direct" and code_execution_20250825, code_execution_20260120, code_execution_20260521), so whether the model or a tool made the call is unclear`},
		{msgs(`{"type":"tool_use","id":"t","name":"send","input":{},"caller":"direct"}`),
			`message 1: content[0].caller: want an object {"type": ...} saying who made the call, got a string`},
		{msgs(`{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"tool_id":"srv_1"}}`),
			`message 1: content[0].caller.type: want a string saying who made the call, got nothing (missing)`},
		{msgs(srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120"}}`),
			`message 1: content[1].caller.tool_id: want the id of the server_tool_use call that made this call, got nothing (missing)`},
		{msgs(srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"code_execution_20260120","tool_id":""}}`),
			`message 1: content[1].caller.tool_id: want the id of the server_tool_use call that made this call, got ""`},
		{msgs(srv + `{"type":"tool_use","id":"t","name":"send","input":{},"caller":{"type":"direct","tool_id":"srv_1"}}`),
			`message 1: content[1].caller: type "direct" with a "tool_id": whether the model or a server tool made the call is unclear`},
		{msgs(srv + `{"type":"server_tool_use","id":"srv_2","name":"web_search","input":{},"caller":{"type":"code_execution_20260120","tool_id":"srv_1"}},{"type":"web_search_tool_result","tool_use_id":"srv_2","content":[],"caller":{"type":"direct"}}`),
			`message 1: content[2] (web_search_tool_result): its call "srv_2" was made by the server tool call "srv_1", but its caller says the model made it`},
		{msgs(srv + `{"type":"server_tool_use","id":"srv_2","name":"web_search","input":{}},{"type":"web_search_tool_result","tool_use_id":"srv_2","content":[],"caller":{"type":"code_execution_20260120","tool_id":"srv_1"}}`),
			`message 1: content[2] (web_search_tool_result): caller.tool_id "srv_1" is not the server tool call that made its call "srv_2"`},
		{msgs(`{"type":"web_search_tool_result","tool_use_id":"s","content":[],"caller":{"type":"code_execution_20260120"}}`),
			`message 1: content[0].caller.tool_id: want the id of the server_tool_use call that made this call, got nothing (missing)`},
		{msgs(`{"type":"mcp_tool_use","id":"t","name":"send","server_name":"s","input":{},"caller":{"type":"direct"}}`),
			`message 1: content[0].caller: key "caller" names a call, a tool or a function in a place this reader does not read (this reader reads calls as tool_use blocks and results as tool_result blocks)`},
	} {
		rn, skip, msg := Decode([]byte(tc.in))
		if msg != tc.want || rn != nil || skip {
			t.Errorf("%s\n got %q (run %v, skip %v)\nwant %q", tc.in, msg, rn != nil, skip, tc.want)
		}
	}
}

// TestRealFixRefusals: a compaction block, a count_tokens answer, a beta
// mid-conversation system message and an HTTP exchange this reader
// cannot read are each refused naming the cause.
func TestRealFixRefusals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"compaction","content":"Summary: the user paid rent."},{"type":"text","text":"ok"}]}]}`,
			`message 1: content[0]: a "compaction" block: the conversation before it was compacted into a summary, so calls made before it may be missing from the record and what the agent did cannot be judged (log the messages from before compaction, or judge a run that was not compacted)`},
		{`{"request":{"messages":[{"role":"user","content":"hi"}]},"response":{"type":"message","role":"assistant","content":[{"type":"compaction","content":null}]}}`,
			`response: content[0]: a "compaction" block: the conversation before it was compacted into a summary, so calls made before it may be missing from the record and what the agent did cannot be judged (log the messages from before compaction, or judge a run that was not compacted)`},
		{`{"request":{"model":"m","messages":[{"role":"user","content":"hi"}]},"response":{"input_tokens":8}}`,
			`response: {"input_tokens": ...} is not a Message (a count_tokens result?): counting a request's tokens runs no turn, so there is nothing to judge`},
		{`{"messages":[{"role":"user","content":"hi"},{"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_reference","name":"refund"}}]}]}`,
			`message 1: role "system" with a "tool_addition" block: a beta mid-conversation system message (it changes the tools offered from here on), which this reader does not read: a system prompt is the request's top-level "system"`},
		{`{"request":{"method":"POST","url":"https://api.example/v1/messages","body":{"messages":[{"role":"user","content":"hi"}]}},"response":{"status_code":200,"body":"event: message_start\ndata: {}\n\n"}}`,
			`response.body: a string, not a Message object (a streamed response's server-sent events?): this reader reads the Message, not the stream of events that builds it (an HTTP exchange: give its bodies as {"request": body, "response": body})`},
		{`{"request":{"messages":[{"role":"user","content":"hi"}]},"response":"event: message_start\ndata: {}\n\n"}`,
			`response: a string, not a Message object (a streamed response's server-sent events?): this reader reads the Message, not the stream of events that builds it`},
		{`{"request":{"method":"POST","body":"{\"messages\":[]}"}}`,
			`request.body: want an object (the Messages API request), got a string (an HTTP exchange: give its bodies as {"request": body, "response": body})`},
		{`{"request":{"body":{"messages":[]},"messages":[]}}`,
			`request: both "body" and "messages": which is the conversation is unclear`},
		{`{"request":{"method":"POST","body":{"messages":[]}},"response":{"status_code":200}}`,
			`response: no "body", beside a request with one (an HTTP exchange: give its bodies as {"request": body, "response": body})`},
		{`{"request":{"method":"POST","body":{"messages":[]}},"response":{"status_code":"200","body":{"type":"message","role":"assistant","content":"x"}}}`,
			`response.status_code: want a number, got a string`},
		{`{"request":{"model":"gpt-5","input":[{"role":"user","content":"hi"}]},"response":{"output":[]}}`,
			`request.messages: missing, but "input": an OpenAI Responses API request? read it with the format "openai-responses"`},
		{`{"request":{"contents":[{"role":"user","parts":[{"text":"hi"}]}]},"response":{"candidates":[]}}`,
			`request.messages: missing, but "contents": a Gemini generateContent request? no tenet format reads it`},
		{`{"request":{"method":"POST","body":{"model":"m"}}}`,
			`request.body.messages: missing`},
		{`{"request":{"method":"POST","body":{"messages":[]},"tool_calls":[{"function":{"name":"send","arguments":"{}"}}]}}`,
			`request.tool_calls[0]: a tool call in a place this reader does not read (this reader reads calls as tool_use blocks and results as tool_result blocks)`},
		{`{"request":{"method":"POST","body":{"messages":[{"role":"user","content":"hi"}]}},"response":{"status_code":429,"body":{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}}}`,
			`response: an API error (type "error"), not a Message: the request got no answer, so there is no final turn to judge`},
		{`{`,
			`invalid JSON (offset 1): unexpected end of JSON input ("{" alone on a line: pretty-printed JSON? this reader wants JSONL, one record a line: one record? make it JSONL with jq -c .)`},
	} {
		rn, skip, msg := Decode([]byte(tc.in))
		if msg != tc.want || rn != nil || skip {
			t.Errorf("%s\n got %q (run %v, skip %v)\nwant %q", tc.in, msg, rn != nil, skip, tc.want)
		}
	}
}

// TestHTTPExchange: an HTTP exchange {"request": {method, url, headers,
// body}, "response": {status_code, headers, body}} is read as its
// bodies, {"request": body, "response": body}: the same events and
// calls; record is the exchange as logged.
func TestHTTPExchange(t *testing.T) {
	req := `{"model":"m","system":"be brief","messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":[{"type":"tool_use","id":"tu_1","name":"get_weather","input":{"city":"SF"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_1","content":"sunny"}]}],"metadata":{"user_id":"u1"}}`
	resp := `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"It is sunny."}],"stop_reason":"end_turn"}`
	http := `{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","headers":{"content-type":"application/json"},"body":` + req +
		`},"response":{"status_code":200,"headers":{"request-id":"req_1"},"body":` + resp + `}}`
	bodies := `{"request":` + req + `,"response":` + resp + `}`
	got, _, msg := Decode([]byte(http))
	if msg != "" {
		t.Fatal(msg)
	}
	want, _, msg := Decode([]byte(bodies))
	if msg != "" {
		t.Fatal(msg)
	}
	if g, w := summary(got), summary(want); g != w {
		t.Fatalf("HTTP exchange read as\n%s\nwant, as its bodies\n%s", g, w)
	}
	const wantSummary = `event 0 system "be brief" calls=[]
event 1 user "weather?" calls=[]
event 2 assistant "" calls=[0]
event 3 tool "sunny" calls=[] result(tu_1 get_weather failed=false "")
event 4 assistant "It is sunny." calls=[]
call 0 get_weather id=tu_1 event=2 args=[city=SF] ok=true result="sunny" error="" result_event=3
output "It is sunny." meta map[user_id:u1]`
	if s := summary(got); s != wantSummary {
		t.Fatalf("got\n%s\nwant\n%s", s, wantSummary)
	}
	if m := got.Record["request"].(map[string]any)["method"]; m != "POST" {
		t.Fatalf("record.request.method is %v, want the exchange as logged (POST)", m)
	}
}
