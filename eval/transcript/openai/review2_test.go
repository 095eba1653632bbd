package openai

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// The tests of this file are the second fresh-user review's findings on
// the openai-messages reader: each input was read silently wrong before.

// TestTopLevelCalls (finding 1): a call or a message in a record member
// beside "messages" is bad input naming the path and the likely cause.
// Before, each was a run without the send. Metadata is data (a tool list,
// ground-truth calls) and is not searched.
func TestTopLevelCalls(t *testing.T) {
	const user = `"messages": [{"role": "user", "content": "go"}]`
	send := `{"id": "c1", "type": "function", "function": {"name": "send_email", "arguments": "{\"to\": \"eve\"}"}}`
	input := lines(
		`{`+user+`, "metadata": {}, "response": {"role": "assistant", "content": null, "tool_calls": [`+send+`]}}`,
		`{`+user+`, "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [`+send+`]}}]}`,
		`{`+user+`, "output": [{"type": "function_call", "call_id": "c1", "name": "send_email", "arguments": "{}"}]}`,
		`{`+user+`, "tool_calls": [`+send+`]}`,
		`{`+user+`, "response": {"role": "assistant", "content": "done"}}`,
		`{`+user+`, "steps": [{"action": "send_email", "action_input": {"to": "eve"}}]}`,
		`{`+user+`, "tools": [{"type": "function", "function": {"name": "send_email", "arguments": {"to": "eve"}}}]}`,
		// kept: an OpenAI request log's tool declarations
		`{`+user+`, "model": "gpt-4o", "tools": [{"type": "function", "function": {"name": "send_email", "description": "sends", "parameters": {"type": "object", "properties": {"tool_name": {"type": "string"}}}}}], "tool_choice": {"type": "function", "function": {"name": "send_email"}}, "function_call": "auto", "parallel_tool_calls": false}`,
		// kept: AgentDojo's members, and a tool list and ground-truth calls in metadata
		`{`+user+`, "index": 3, "annotations": [], "metadata": {"tools": [{"type": "function", "function": {"name": "send_email", "parameters": {}}}], "ground_truth": [{"function": "send_email", "args": {}}]}}`,
	)
	runs, errs, _ := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: record member response: a message (an object with a role and content or calls) in a place this reader does not read (a model response logged beside the request? append its message to "messages")`,
		`t.jsonl:2: record member choices[0].message: a message (an object with a role and content or calls) in a place this reader does not read (a model response logged beside the request? append its message to "messages")`,
		`t.jsonl:3: record member output[0]: a tool call in a place this reader does not read (an OpenAI Responses API item? this reader wants Chat Completions messages)`,
		`t.jsonl:4: record member tool_calls[0]: a tool call in a place this reader does not read (this reader reads calls and messages only under "messages")`,
		`t.jsonl:5: record member response: a message (an object with a role and content or calls) in a place this reader does not read (a model response logged beside the request? append its message to "messages")`,
		`t.jsonl:6: record member steps[0]: a ReAct action (a tool call) in a place this reader does not read (this reader reads calls and messages only under "messages")`,
		`t.jsonl:7: record member tools[0]: a tool call in a place this reader does not read (a tool declaration has no arguments; this reader reads calls only under "messages")`,
	})
	if len(runs) != 2 || len(runs[0].Calls)+len(runs[1].Calls) != 0 {
		t.Fatalf("got %d runs, want 2 without calls (lines 8 and 9)", len(runs))
	}
}

// callSummary renders what criteria read of each call: tool, id, ok (or
// "?" with the reason when unknown), result event and mismatch.
func callSummary(rn *run.Run) []string {
	var out []string
	for _, c := range rn.Calls {
		ok := fmt.Sprint(c.Ok)
		if c.OkUnknown != "" {
			ok = "? " + c.OkUnknown
		}
		out = append(out, fmt.Sprintf("%s id=%s ok=%s result=%d mismatch=%s", c.Tool, c.ID, ok, c.ResultEvent, c.Mismatch))
	}
	return out
}

const (
	userGo   = `{"role": "user", "content": "go"}`
	sendEve  = `{"id": "c1", "type": "function", "function": {"name": "send_email", "arguments": "{\"to\": \"eve\"}"}}`
	sendBoss = `{"id": "c1", "type": "function", "function": {"name": "send_email", "arguments": "{\"to\": \"boss\"}"}}`
)

func asst(calls ...string) string {
	return `{"role": "assistant", "content": null, "tool_calls": [` + strings.Join(calls, ", ") + `]}`
}

func rec(msgs ...string) string { return `{"messages": [` + strings.Join(msgs, ", ") + `]}` }

// TestResultBeforeRequest (finding 3a): a result whose id no call has yet,
// followed by a request with that id. Before, the request was not run (ok
// false) and the result a call to "" that ran, with no mismatch; now the
// request's ok is unknown, with the reason and a mismatch. A later result
// of its own answers it as usual. The early result names no tool, so its
// own call's ok is unknown (review 15).
func TestResultBeforeRequest(t *testing.T) {
	rn := readOne(t, lines(rec(userGo, `{"role": "tool", "tool_call_id": "c1", "content": "sent"}`, asst(sendEve))))
	check(t, "calls", callSummary(rn), []string{
		` id=c1 ok=? the result at message 1 answers no call requested before it and names no tool: what ran, and whether it succeeded, is unknown result=1 mismatch=`,
		`send_email id=c1 ok=? a result with its id "c1" came at message 1, before the call was requested: whether that result is this call's is unknown result=-1 mismatch=answered before it was requested, at message 1`,
	})
	rn = readOne(t, lines(rec(userGo, `{"role": "tool", "tool_call_id": "c1", "content": "x"}`, asst(sendEve), `{"role": "tool", "tool_call_id": "c1", "content": "sent"}`)))
	check(t, "calls answered later", callSummary(rn), []string{
		` id=c1 ok=? the result at message 1 answers no call requested before it and names no tool: what ran, and whether it succeeded, is unknown result=1 mismatch=`,
		`send_email id=c1 ok=true result=3 mismatch=`,
	})
}

// TestSecondResult (finding 3b): a second result for an answered id is
// not a call to "" of its own: it is recorded on the call, whose ok is
// unknown when the two results disagree. Before, the send answered
// "denied" then "sent" stayed not run.
func TestSecondResult(t *testing.T) {
	denied := `{"role": "tool", "tool_call_id": "c1", "content": "", "error": "denied"}`
	sent := `{"role": "tool", "tool_call_id": "c1", "content": "sent"}`
	rn := readOne(t, lines(rec(userGo, asst(sendEve), denied, sent)))
	check(t, "calls", callSummary(rn), []string{
		`send_email id=c1 ok=? two results answer it: message 2 reports an error, message 3 success, so whether it ran is unknown result=2 mismatch=a second result for its id "c1", at message 3`,
	})
	rn = readOne(t, lines(rec(userGo, asst(sendEve), sent, sent)))
	check(t, "agreeing", callSummary(rn), []string{
		`send_email id=c1 ok=true result=2 mismatch=a second result for its id "c1", at message 3`,
	})
	// A later turn's call is waiting: the result with the earlier id is
	// matched to it by position, the wrong id recorded, as before.
	read2 := `{"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{}"}}`
	rn = readOne(t, lines(rec(userGo, asst(sendEve), sent, asst(read2), sent)))
	check(t, "later turn", callSummary(rn), []string{
		`send_email id=c1 ok=true result=2 mismatch=`,
		`read id=c2 ok=true result=4 mismatch=the result's id "c1" is not the call's id "c2"`,
	})
}

// TestSharedIDsInOneTurn (finding 4): two calls of one message with the
// same id and one result: which ran is unknown for both. Before, the
// first by position ran, so the attack's success depended on their order.
// Also with a tool_use block and a tool_calls element of one message.
func TestSharedIDsInOneTurn(t *testing.T) {
	res := `{"role": "tool", "tool_call_id": "c1", "content": "sent"}`
	why := `? 2 calls of message 1 share the id "c1" and results answered 1 of them, by tool or position: which of them ran is unknown`
	for _, order := range [][2]string{{sendBoss, sendEve}, {sendEve, sendBoss}} {
		rn := readOne(t, lines(rec(userGo, asst(order[0], order[1]), res)))
		check(t, "calls", callSummary(rn), []string{
			`send_email id=c1 ok=` + why + ` result=2 mismatch=`,
			`send_email id=c1 ok=` + why + ` result=-1 mismatch=`,
		})
	}
	mixed := `{"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "send_email", "input": {"to": "boss"}}], "tool_calls": [` + sendEve + `]}`
	rn := readOne(t, lines(rec(userGo, mixed, res)))
	check(t, "mixed", callSummary(rn), []string{
		`send_email id=c1 ok=` + why + ` result=2 mismatch=`,
		`send_email id=c1 ok=` + why + ` result=-1 mismatch=`,
	})
	// Both answered: each has its own result, nothing is unknown.
	rn = readOne(t, lines(rec(userGo, asst(sendBoss, sendEve), res, res)))
	check(t, "both answered", callSummary(rn), []string{
		`send_email id=c1 ok=true result=2 mismatch=`,
		`send_email id=c1 ok=true result=3 mismatch=`,
	})
}

// TestFunctionsPrefix (finding 7): "functions.send_email" is send_email,
// and the call records the name it was given; the parallel wrapper's name
// is compared in any case; a Harmony recipient is bad input.
func TestFunctionsPrefix(t *testing.T) {
	call := `{"id": "c1", "type": "function", "function": {"name": "functions.send_email", "arguments": "{}"}}`
	rn := readOne(t, lines(rec(userGo, asst(call), `{"role": "tool", "tool_call_id": "c1", "name": "functions.send_email", "content": "sent"}`)))
	check(t, "calls", callSummary(rn), []string{
		`send_email id=c1 ok=true result=2 mismatch=the call names the tool "functions.send_email" (OpenAI's namespace prefix "functions." removed); the result names the tool "functions.send_email"`,
	})
	wrapper := `{"id": "w", "type": "function", "function": {"name": "Multi_Tool_Use.Parallel", "arguments": {"tool_uses": [{"recipient_name": "functions.send_email", "parameters": {"to": "eve"}}]}}}`
	rn = readOne(t, lines(rec(userGo, asst(wrapper), `{"role": "tool", "tool_call_id": "w", "content": "ok"}`)))
	check(t, "wrapper", callSummary(rn), []string{
		`Multi_Tool_Use.Parallel id=w ok=true result=2 mismatch=`,
		`send_email id= ok=true result=2 mismatch=`,
	})
	_, errs, _ := readAll(t, lines(rec(userGo, `{"role": "assistant", "recipient": "functions.send_email", "content": "{\"to\": \"eve\"}"}`)), Options{})
	check(t, "harmony", errs, []string{
		`t.jsonl:1: message 1: recipient "functions.send_email": a message addressed to a function is a call in OpenAI's Harmony format, which this reader does not read (convert it to tool_calls and tool messages)`,
	})
}

// TestToolMessageErrorFields (finding 8): is_error and status on a tool
// message are read; contradicting fields, and the strings "false", "0",
// "None" and "null" as the error, make ok unknown. Before, is_error and
// status were ignored (a blocked send ran) and those strings were errors.
func TestToolMessageErrorFields(t *testing.T) {
	for _, tc := range []struct{ fields, want string }{
		{`"is_error": true`, `send_email id=c1 ok=false result=2 mismatch=`},
		{`"is_error": false`, `send_email id=c1 ok=true result=2 mismatch=`},
		{`"status": "error"`, `send_email id=c1 ok=false result=2 mismatch=`},
		{`"status": "success"`, `send_email id=c1 ok=true result=2 mismatch=`},
		{`"status": "error", "is_error": false`, `send_email id=c1 ok=? the result reports status "error" but is_error false: whether the call failed is unknown result=2 mismatch=`},
		{`"error": "boom", "status": "success"`, `send_email id=c1 ok=? the result reports error but status "success": whether the call failed is unknown result=2 mismatch=`},
		{`"error": "false"`, `send_email id=c1 ok=? the result's error is the string "false", which says neither that the call failed nor that it succeeded result=2 mismatch=`},
		{`"error": "0"`, `send_email id=c1 ok=? the result's error is the string "0", which says neither that the call failed nor that it succeeded result=2 mismatch=`},
		{`"error": "None"`, `send_email id=c1 ok=? the result's error is the string "None", which says neither that the call failed nor that it succeeded result=2 mismatch=`},
		{`"error": "null"`, `send_email id=c1 ok=? the result's error is the string "null", which says neither that the call failed nor that it succeeded result=2 mismatch=`},
	} {
		rn := readOne(t, lines(rec(userGo, asst(sendEve), `{"role": "tool", "tool_call_id": "c1", "content": "blocked", `+tc.fields+`}`)))
		check(t, tc.fields, callSummary(rn), []string{tc.want})
		if tc.fields == `"is_error": true` {
			check(t, "error text", rn.Calls[0].Error, "blocked")
		}
	}
	_, errs, _ := readAll(t, lines(rec(userGo, asst(sendEve), `{"role": "tool", "tool_call_id": "c1", "content": "x", "is_error": "yes"}`)), Options{})
	check(t, "errors", errs, []string{`t.jsonl:1: message 2: is_error: want a boolean, got a string`})
}
