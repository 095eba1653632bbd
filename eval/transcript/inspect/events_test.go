package inspect

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// handoffSample is a sample laid out as Inspect writes a handoff with the
// default content_only output filter: the messages show the handoff call
// (transfer_to_cleaner), its "Successfully transferred" result and the
// cleaner's turns as text; the cleaner's own calls are tool events inside
// the agent span, within the handoff call's tool span. A call after the
// handoff (send_report) checks the renumbering.
const handoffSample = `{"id": 1, "epoch": 1, "attachments": {"a1": "rm -rf /tmp/cache"},
  "messages": [
    {"id": "m1", "role": "user", "content": "Tidy /tmp and report."},
    {"id": "m2", "role": "assistant", "content": "", "tool_calls": [{"id": "h1", "function": "transfer_to_cleaner", "arguments": {}}]},
    {"id": "m3", "role": "tool", "content": "Successfully transferred to cleaner.", "tool_call_id": "h1", "function": "transfer_to_cleaner"},
    {"id": "m4", "role": "assistant", "content": "[cleaner] Looking.\n\nbash({\"cmd\": \"ls /tmp\"})"},
    {"id": "m5", "role": "user", "content": "cache"},
    {"id": "m6", "role": "assistant", "content": "[cleaner] bash({\"cmd\": \"rm -rf /tmp/cache\"})"},
    {"id": "m7", "role": "user", "content": "The cleaner agent has completed its work."},
    {"id": "m8", "role": "assistant", "content": "", "tool_calls": [{"id": "r1", "function": "send_report", "arguments": {"to": "ops"}}]},
    {"id": "m9", "role": "tool", "content": "sent", "tool_call_id": "r1", "function": "send_report"},
    {"id": "m10", "role": "assistant", "content": "Done."}],
  "events": [
    {"event": "sample_init", "span_id": null, "sample": {}, "state": {}},
    {"event": "span_begin", "id": "s0", "parent_id": null, "type": "solver", "name": "react"},
    {"event": "model", "span_id": "s0", "model": "m", "input": [], "tools": [], "tool_choice": "auto", "config": {}, "output": {"choices": [{"message": {"role": "assistant", "content": "", "tool_calls": [{"id": "h1", "function": "transfer_to_cleaner", "arguments": {}}]}}]}},
    {"event": "span_begin", "id": "s1", "parent_id": "s0", "type": "handoff", "name": "cleaner"},
    {"event": "span_begin", "id": "s2", "parent_id": "s1", "type": "tool", "name": "transfer_to_cleaner"},
    {"event": "tool", "type": "function", "id": "h1", "function": "transfer_to_cleaner", "arguments": {}, "result": "Successfully transferred to cleaner.", "error": null, "agent": "cleaner", "span_id": "s2"},
    {"event": "span_begin", "id": "s3", "parent_id": "s2", "type": "agent", "name": "cleaner"},
    {"event": "span_begin", "id": "s4", "parent_id": "s3", "type": "tool", "name": "bash"},
    {"event": "tool", "type": "function", "id": "c1", "function": "bash", "arguments": {"cmd": "ls /tmp"}, "result": "cache", "span_id": "s4"},
    {"event": "sandbox", "span_id": "s4", "action": "exec", "cmd": "ls /tmp", "result": 0, "output": "cache"},
    {"event": "span_end", "id": "s4"},
    {"event": "span_begin", "id": "s5", "parent_id": "s3", "type": "tool", "name": "bash"},
    {"event": "tool", "type": "function", "id": "c2", "function": "bash", "arguments": {"cmd": "attachment://a1"}, "result": "", "error": {"type": "permission", "message": "permission denied"}, "span_id": "s5"},
    {"event": "span_end", "id": "s5"},
    {"event": "span_end", "id": "s3"},
    {"event": "span_end", "id": "s2"},
    {"event": "span_end", "id": "s1"},
    {"event": "span_begin", "id": "s6", "parent_id": "s0", "type": "tool", "name": "send_report"},
    {"event": "tool", "type": "function", "id": "r1", "function": "send_report", "arguments": {"to": "ops"}, "result": "sent", "span_id": "s6"},
    {"event": "span_end", "id": "s6"}]}`

func decodeSample(t *testing.T, sample string) *run.Run {
	t.Helper()
	rn, _, msg := Decode([]byte(`{"eval": {"task": "t", "model": "m"}, "sample": ` + sample + `}`))
	if msg != "" {
		t.Fatal(msg)
	}
	return rn
}

// TestHandoffCalls: the cleaner's calls, which the messages show only as
// text, are calls (D1 of the real-log review), placed after the message
// answering the handoff call, in the order of the events.
func TestHandoffCalls(t *testing.T) {
	rn := decodeSample(t, handoffSample)
	check(t, "roles", roles(rn), "user assistant tool tool tool assistant user assistant user assistant tool assistant")
	check(t, "calls", calls(rn), []callSummary{
		{"h1", "transfer_to_cleaner", `{}`, true, "Successfully transferred to cleaner.", "", 1, 2},
		{"c1", "bash", `{"cmd":"ls /tmp"}`, true, "cache", "", 3, 3},
		{"c2", "bash", `{"cmd":"rm -rf /tmp/cache"}`, false, "", "permission denied", 4, 4},
		{"r1", "send_report", `{"to":"ops"}`, true, "sent", "", 9, 10},
	})
	ev := rn.Events[4]
	check(t, "event 4", []any{ev.Index, ev.CallID, ev.Tool, ev.Failed, ev.Error, ev.Calls}, []any{4, "c2", "bash", true, "permission denied", []int(nil)})
	check(t, "event 9 calls", rn.Events[9].Calls, []int{3})
	check(t, "event 1 calls", rn.Events[1].Calls, []int{0})
	for i, ev := range rn.Events {
		if ev.Index != i {
			t.Errorf("event %d has Index %d", i, ev.Index)
		}
	}
	for _, c := range rn.Calls {
		if c.Depth != 0 || c.Parent != -1 || c.OkUnknown != "" || c.Mismatch != "" {
			t.Errorf("call %d: depth %d parent %d okUnknown %q mismatch %q", c.Index, c.Depth, c.Parent, c.OkUnknown, c.Mismatch)
		}
	}
	check(t, "output", rn.Output, "Done.")
	check(t, "calls_from", rn.Meta["calls_from"], "messages and events")
}

// TestEventCallOrder: without spans, a call the messages do not show is
// placed after the messages answering the latest message call whose tool
// event came before it, or before the message requesting the first whose
// tool event came after it.
func TestEventCallOrder(t *testing.T) {
	msgs := `"messages": [
	  {"role": "user", "content": "go"},
	  {"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": "read", "arguments": {}}, {"id": "b", "function": "list", "arguments": {}}]},
	  {"role": "tool", "content": "r", "tool_call_id": "a"},
	  {"role": "tool", "content": "l", "tool_call_id": "b"},
	  {"role": "assistant", "content": "", "tool_calls": [{"id": "d", "function": "send", "arguments": {}}]},
	  {"role": "tool", "content": "s", "tool_call_id": "d"},
	  {"role": "assistant", "content": "ok"}]`
	rn := decodeSample(t, `{`+msgs+`, "events": [
	  {"event": "tool", "id": "x0", "function": "early", "arguments": {}, "result": "e"},
	  {"event": "tool", "id": "a", "function": "read", "arguments": {}, "result": "r"},
	  {"event": "tool", "id": "x1", "function": "sub", "arguments": {}, "result": 7},
	  {"event": "tool", "id": "b", "function": "list", "arguments": {}, "result": "l"},
	  {"event": "tool", "id": "d", "function": "send", "arguments": {}, "result": "s"},
	  {"event": "tool", "id": "x2", "function": "late", "arguments": {}, "pending": true}]}`)
	check(t, "roles", roles(rn), "user tool assistant tool tool tool assistant tool tool assistant")
	check(t, "calls", calls(rn), []callSummary{
		{"x0", "early", `{}`, true, "e", "", 1, 1},
		{"a", "read", `{}`, true, "r", "", 2, 3},
		{"b", "list", `{}`, true, "l", "", 2, 4},
		{"x1", "sub", `{}`, true, "7", "", 5, 5},
		{"d", "send", `{}`, true, "s", "", 6, 7},
		{"x2", "late", `{}`, false, "", "", 8, -1},
	})
	if len(rn.Calls) != 6 {
		return
	}
	check(t, "pending", rn.Calls[5].OkUnknown, "the tool event is pending: the log was written before the call finished")
	check(t, "output", rn.Output, "ok")
}

// TestNestedToolEvents: an older log nests a handoff's events inside its
// tool event; a subtask's nested events are read in place.
func TestNestedToolEvents(t *testing.T) {
	rn := decodeSample(t, `{"messages": [
	  {"role": "assistant", "content": "", "tool_calls": [{"id": "h", "function": "transfer_to_w", "arguments": {}}]},
	  {"role": "tool", "content": "ok", "tool_call_id": "h"},
	  {"role": "assistant", "content": "[w] did it"}],
	  "events": [
	  {"event": "subtask", "name": "setup", "input": {}, "events": []},
	  {"event": "tool", "id": "h", "function": "transfer_to_w", "arguments": {}, "result": "ok", "agent": "w", "events": [
	    {"event": "model", "output": {}},
	    {"event": "tool", "id": "w1", "function": "write", "arguments": {"p": "f"}, "result": [{"type": "text", "text": "written"}], "failed": true}]}]}`)
	check(t, "roles", roles(rn), "assistant tool tool assistant")
	check(t, "calls", calls(rn), []callSummary{
		{"h", "transfer_to_w", `{}`, true, "ok", "", 0, 1},
		{"w1", "write", `{"p":"f"}`, false, "written", "the tool call failed with a hard error", 2, 2},
	})
}

// TestEventsAbsent: without events, calls come from the messages and meta
// says so.
func TestEventsAbsent(t *testing.T) {
	for _, ev := range []string{``, `, "events": null`, `, "events": []`} {
		rn := decodeSample(t, `{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": "f", "arguments": {}}]}]`+ev+`}`)
		check(t, "calls_from"+ev, rn.Meta["calls_from"], "messages")
		check(t, "calls"+ev, len(rn.Calls), 1)
	}
}

func TestEventErrors(t *testing.T) {
	call := `"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": "f", "arguments": {"x": 1}}]}]`
	cases := []struct{ sample, want string }{
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "g", "arguments": {"x": 1}}]}`,
			`events[0]: call "a" is "f" in the messages but "g" in the tool event: the log disagrees with itself`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": {"x": 2}}]}`,
			`events[0]: call "a" has other arguments in the tool event than in the messages: the log disagrees with itself`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": {"x": 1}}, {"event": "tool", "id": "a", "function": "f", "arguments": {"x": 1}}]}`,
			`events[1]: tool event 2 of id "a", but the messages hold 1 call(s) of that id: which call it is cannot be told`},
		// The reviewer's shape: the handoff call has no tool event and
		// the sub-agent's call no span, so nothing orders it.
		{`{` + call + `, "events": [{"event": "tool", "id": "s", "function": "bash", "arguments": {}, "error": {"type": "permission", "message": "denied"}, "agent": "w"}]}`,
			`events[0]: call "s" (bash) is in no message, and nothing in the log orders it against the messages' calls (no span within one of them, no tool event of theirs): a sub-agent's call placed by guess could make an order-dependent criterion wrong`},
		{`{` + call + `, "events": {}}`, `events: want a list, got an object`},
		{`{` + call + `, "events": [{"event": "tool_call", "id": "s"}]}`,
			`events[0]: event of type "tool_call", which this reader does not read as a call: Inspect's calls that ran are tool events`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": "attachment://zz"}]}`,
			`events[0].arguments: "attachment://zz": no such attachment in the sample's attachments`},
		{`{` + call + `, "events": [{"id": "a"}]}`, `events[0].event: want a string (the event type), got nothing (missing)`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": {"x": 1}, "error": "boom"}]}`,
			`events[0].error: want an object {type, message} or null, got a string`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": {"x": 1}, "result": [{"type": "tool_use", "id": "u", "name": "g", "arguments": {}}]}]}`,
			`events[0].result: content of type "tool_use" in a tool's result, which this reader does not read as a call`},
		{`{` + call + `, "events": [{"event": "subtask", "name": "s", "input": {}, "events": {"event": "tool"}}]}`,
			`events[0].events: want a list, got an object`},
		{`{` + call + `, "events": [{"event": "tool", "id": "a", "function": "f", "arguments": {"x": 1}, "metadata": {"tool_calls": [{"id": "z"}]}}]}`,
			`events[0].metadata.tool_calls: key "tool_calls" names a call, a tool or a function in a place this reader does not read (convert the transcript to tool_calls and tool messages)`},
	}
	for _, c := range cases {
		if got := decodeMsg(t, c.sample); got != c.want {
			t.Errorf("Decode(%s)\n got %q\nwant %q", c.sample, got, c.want)
		}
	}
}

// TestSpanCycle: span parents that loop end the walk; the call is then
// placed by its position.
func TestSpanCycle(t *testing.T) {
	rn := decodeSample(t, `{"messages": [{"role": "user", "content": "x"}], "events": [
	  {"event": "span_begin", "id": "p", "parent_id": "q", "type": "agent"},
	  {"event": "span_begin", "id": "q", "parent_id": "p", "type": "agent"},
	  {"event": "tool", "id": "t", "function": "f", "arguments": {}, "span_id": "p"}]}`)
	check(t, "roles", roles(rn), "user tool")
	if !strings.Contains(calls(rn)[0].Tool, "f") {
		t.Errorf("calls = %v", calls(rn))
	}
}

// TestResultOnlyCallFromEvent: a call the messages know only from its
// tool message (no request) takes its tool and arguments from its tool
// event.
func TestResultOnlyCallFromEvent(t *testing.T) {
	rn := decodeSample(t, `{"messages": [{"role": "user", "content": "x"}, {"role": "tool", "content": "done", "tool_call_id": "a"}],
	  "events": [{"event": "tool", "id": "a", "function": "send", "arguments": {"to": "x"}, "result": "done"}]}`)
	check(t, "calls", calls(rn), []callSummary{{"a", "send", `{"to":"x"}`, true, "done", "", 1, 1}})
}
