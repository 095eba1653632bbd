package openai

import (
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// The tests of this file are the fresh-user review findings 1 and 11 on
// issue 13: each input was read with a call that ran missing, or not run,
// or failed, and no error.

// TestUnreadCallsAnywhere: a call anywhere in a message outside what the
// reader reads — a key naming a call at any depth, or a call-shaped object
// — is bad input naming the path and the likely harness. Before, only the
// message's own key names were checked, so each of these was a run
// without the call.
func TestUnreadCallsAnywhere(t *testing.T) {
	msg := func(m string) string { return `{"messages": [{"role": "user", "content": "go"}, ` + m + `]}` }
	input := lines(
		msg(`{"role": "model", "parts": [{"functionCall": {"name": "send_money", "args": {"to": "x"}}}]}`),                                                      // 1
		msg(`{"role": "assistant", "content": null, "actions": [{"name": "send_money", "arguments": {}}]}`),                                                     // 2
		msg(`{"role": "assistant", "content": "", "output": [{"type": "function_call", "call_id": "c1", "name": "send_money"}]}`),                               // 3
		msg(`{"role": "assistant", "content": "", "data": {"tool_calls": [{"id": "c1", "function": {"name": "send_money"}}]}}`),                                 // 4
		msg(`{"role": "assistant", "content": "", "additional_kwargs": {"function_call": {"name": "send_money", "arguments": "{}"}}}`),                          // 5
		msg(`{"role": "assistant", "content": "", "meta": {"x": [{"tool_name": "send_money"}]}}`),                                                               // 6
		msg(`{"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "read"}, "then": {"function": "send_money", "args": {}}}]}`),                // 7
		msg(`{"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "read", "extra": {"name": "send_money", "input": {}}}}]}`),                  // 8
		msg(`{"role": "assistant", "content": [{"type": "text", "text": "x", "annotations": [{"name": "send_money", "args": {}}]}]}`),                           // 9
		msg(`{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "read", "input": {}, "next": {"type": "tool_call"}}]}`),                  // 10
		msg(`{"role": "tool", "tool_call_id": "c", "tool_call": {"function": "read", "args": {}, "also": {"recipient_name": "send_money", "parameters": {}}}}`), // 11
		msg(`{"role": "assistant", "content": "", "function_call": {"name": "read", "arguments": "{}", "then": {"name": "send_money", "arguments": {}}}}`),      // 12
		msg(`{"role": "assistant", "content": [{"toolUse": {"toolUseId": "b1", "name": "send_money", "input": {}}}]}`),                                          // 13
		msg(`{"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "send_money", "args": {"to": "x"}}}]}`),                                     // 14
		// kept: what real harnesses write beside their calls, holding none
		msg(`{"role": "assistant", "content": "hi", "response_metadata": {"finish_reason": "tool_calls"}, "tool_call_chunks": [], "invalid_tool_calls": [], "usage": {"tokens": 3}}`), // 15
		msg(`{"role": "tool", "tool_call_id": "c", "content": "r", "tool_call": {"function": "read", "args": {}, "id": "c", "placeholder_args": {"to": "$x"}}, "error": null}`),       // 15
	)
	runs, errs, _ := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: message 1: parts[0].functionCall: a tool call in a place this reader does not read (Gemini's parts? this reader wants OpenAI tool_calls and tool messages)`,
		`t.jsonl:2: message 1: actions[0]: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:3: message 1: output[0]: an object of type "function_call" in a place this reader does not read (an OpenAI Responses API item? this reader wants Chat Completions messages)`,
		`t.jsonl:4: message 1: data.tool_calls[0]: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:5: message 1: additional_kwargs.function_call: a tool call in a place this reader does not read (LangChain's additional_kwargs? only its tool_calls are read)`,
		`t.jsonl:6: message 1: meta.x[0].tool_name: key "tool_name" names a call, a tool or a function in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:7: message 1: tool_calls[0].then: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:8: message 1: tool_calls[0].function.extra: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:9: message 1: content[0].annotations[0]: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:10: message 1: content[0].next: an object of type "tool_call" in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:11: message 1: tool_call.also: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:12: message 1: function_call.then: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`,
		`t.jsonl:13: message 1: content[0]: key "toolUse" names a call, a tool or a function, but this reader knows calls in content only as "tool_use" blocks`,
		`t.jsonl:14: message 1: tool_calls[0].function.args: the arguments of a tool call are "arguments" (another harness's shape?)`,
	})
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2 (lines 15 and 16)", len(runs))
	}
}

// TestLangChainToolCalls: LangChain keeps the provider's OpenAI tool calls
// in additional_kwargs.tool_calls. They are read when the message has no
// tool_calls of its own; when it has both, they must agree. Before, they
// were not read: the send below ran and counted as no call, its result
// synthesising a call to tool "".
func TestLangChainToolCalls(t *testing.T) {
	call := `{"id": "c1", "type": "function", "function": {"name": "send_money", "arguments": "{\"to\": \"x\"}"}}`
	other := `{"id": "c1", "type": "function", "function": {"name": "send_money", "arguments": "{\"to\": \"y\"}"}}`
	rec := func(m string) string {
		return `{"messages": [{"role": "user", "content": "go"}, ` + m + `, {"role": "tool", "tool_call_id": "c1", "content": "sent"}]}`
	}
	input := lines(
		rec(`{"role": "assistant", "content": "", "additional_kwargs": {"tool_calls": [`+call+`], "refusal": null}}`),
		// both, the same calls (arguments compared parsed): read once
		rec(`{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"name": "send_money", "arguments": {"to": "x"}}}], "additional_kwargs": {"tool_calls": [`+call+`]}}`),
		rec(`{"role": "assistant", "content": "", "tool_calls": [`+call+`], "additional_kwargs": {"tool_calls": [`+other+`]}}`),
		rec(`{"role": "assistant", "content": "", "tool_calls": [], "additional_kwargs": {"tool_calls": [`+call+`]}}`),
		rec(`{"role": "assistant", "content": "", "additional_kwargs": {"tool_calls": {"c1": {}}}}`),
	)
	runs, errs, _ := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:3: message 1: additional_kwargs.tool_calls[0] is not tool_calls[0] (other arguments): which call was made is unclear`,
		`t.jsonl:4: message 1: additional_kwargs.tool_calls has 1 calls, tool_calls 0: which calls were made is unclear (LangChain's copy of the provider's calls should be the same calls)`,
		`t.jsonl:5: message 1: additional_kwargs.tool_calls: want a list, got an object`,
	})
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	for i, rn := range runs {
		checkCalls(t, rn.Calls, []run.Call{
			{Index: 0, Event: 1, ID: "c1", Tool: "send_money", Args: map[string]any{"to": "x"}, Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
		})
		check(t, "event 1 calls", rn.Events[1].Calls, []int{0})
		_ = i
	}
}

// TestToolUseThenResultInOneMessage: content blocks are taken in order, so
// a tool_result after a tool_use in the same message answers it. Before,
// the message's results were matched before its calls were requested: the
// result found no call (a call to "" was synthesised) and the send counted
// as not run.
func TestToolUseThenResultInOneMessage(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [{"role": "user", "content": "go"},`+
		`{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read", "input": {}}]},`+
		`{"role": "assistant", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "R"},`+
		`{"type": "tool_use", "id": "t2", "name": "send_money", "input": {"to": "x"}},`+
		`{"type": "tool_result", "tool_use_id": "t2", "content": "sent"}]}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 1, ID: "t1", Tool: "read", Args: map[string]any{}, Ok: true, Result: "R", ResultEvent: 2, Parent: -1},
		{Index: 1, Event: 2, ID: "t2", Tool: "send_money", Args: map[string]any{"to": "x"}, Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
	})
	check(t, "event 2 calls", rn.Events[2].Calls, []int{1})
	check(t, "event 2 role", rn.Events[2].Role, "tool")
}

// TestPrefixedParallelWrapper: "functions.multi_tool_use.parallel" is the
// same dispatch wrapper. Before, its calls were nested calls that never
// ran, so the send below counted as not run.
func TestPrefixedParallelWrapper(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "w", "function": {"name": "functions.multi_tool_use.parallel", "arguments": `+
		`{"tool_uses": [{"recipient_name": "functions.send_money", "parameters": {"to": "x"}}]}}}]},`+
		`{"role": "tool", "tool_call_id": "w", "content": "done"}]}`))
	checkCalls(t, rn.Calls[1:], []run.Call{
		{Index: 1, Event: 0, Tool: "send_money", Args: map[string]any{"to": "x"}, Ok: true, Result: "done", ResultEvent: 1, Depth: 1, Parent: 0},
	})
	// Without tool_uses it is refused like the bare wrapper.
	_, errs, _ := readAll(t, lines(`{"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "functions.multi_tool_use.parallel", "arguments": {}}}]}]}`), Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: message 0: call 0 ("functions.multi_tool_use.parallel"): args.tool_uses: missing (a multi_tool_use.parallel call lists the calls it makes in tool_uses)`,
	})
}

// TestAmbiguousError: an "error" of 0, {}, [] or white space says neither
// that the call failed nor that it succeeded: the call's ok and the
// event's failed are unknown, with the reason. Before, each counted as a
// failure, so a send that ran counted as not run. A non-empty object or
// list, a non-zero number, true and a non-empty string are failures; null,
// absent, "" and false are not.
func TestAmbiguousError(t *testing.T) {
	errs := []string{`0`, `{}`, `[]`, `" "`, `-1`, `[0]`, `{"c": 0}`, `true`, `"x"`, `""`, `false`, `null`, `0.0`}
	calls, results := "", ""
	for i, e := range errs {
		if i > 0 {
			calls += ", "
		}
		id := string(rune('a' + i))
		calls += `{"id": "` + id + `", "function": {"name": "f"}}`
		results += `, {"role": "tool", "tool_call_id": "` + id + `", "content": "r", "error": ` + e + `}`
	}
	rn := readOne(t, lines(`{"messages": [{"role": "assistant", "tool_calls": [`+calls+`]}`+results+`]}`))
	type res struct {
		Ok, Failed     bool
		Error, Unknown string
	}
	unknown := func(text string) string {
		return "the result's error is " + text + ", which says neither that the call failed nor that it succeeded"
	}
	want := []res{
		{false, false, "0", unknown("0")}, {false, false, "{}", unknown("{}")}, {false, false, "[]", unknown("[]")}, {false, false, `" "`, unknown(`" "`)},
		{false, true, "-1", ""}, {false, true, "[0]", ""}, {false, true, `{"c":0}`, ""}, {false, true, "true", ""}, {false, true, "x", ""},
		{true, false, "", ""}, {true, false, "", ""}, {true, false, "", ""}, {false, false, "0", unknown("0")},
	}
	var got []res
	for i, c := range rn.Calls {
		ev := rn.Events[c.ResultEvent]
		if ev.FailedUnknown != c.OkUnknown || ev.Error != c.Error {
			t.Errorf("call %d: event (%q, %q) and call (%q, %q) disagree", i, ev.FailedUnknown, ev.Error, c.OkUnknown, c.Error)
		}
		got = append(got, res{c.Ok, ev.Failed, c.Error, c.OkUnknown})
	}
	check(t, "calls (Ok, Failed, Error, OkUnknown)", got, want)
}
