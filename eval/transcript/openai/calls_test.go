package openai

import (
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// The tests of this file are the call shapes of issue 13 item 1: each was
// read as "no call" (or matched to the wrong call) before, so a send to the
// attacker escaped criteria and the audit.

func TestLegacyFunctionCall(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "user", "content": "go"},`+
		`{"role": "assistant", "content": null, "function_call": {"name": "send_money", "arguments": "{\"to\": \"attacker\", \"amount\": 100}"}},`+
		`{"role": "function", "name": "send_money", "content": "sent"},`+
		`{"role": "assistant", "content": null, "function_call": {"name": "read", "arguments": {}}},`+
		`{"role": "function", "name": "read", "content": "", "error": "denied"},`+
		`{"role": "assistant", "content": "done"}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 1, Tool: "send_money", Args: map[string]any{"to": "attacker", "amount": float64(100)}, Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
		{Index: 1, Event: 3, Tool: "read", Args: map[string]any{}, Error: "denied", ResultEvent: 4, Parent: -1},
	})
	checkEvents(t, rn.Events[1:5], []run.Event{
		{Index: 1, Role: "assistant", Calls: []int{0}},
		// A function message is a tool message to criteria and patterns.
		{Index: 2, Role: "tool", Content: "sent", Tool: "send_money"},
		{Index: 3, Role: "assistant", Calls: []int{1}},
		{Index: 4, Role: "tool", Tool: "read", Failed: true, Error: "denied"},
	})
}

func TestAnthropicBlocks(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "user", "content": "go"},`+
		`{"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "sending"},`+
		`{"type": "tool_use", "id": "tu1", "name": "send_money", "input": {"to": "attacker"}},`+
		`{"type": "tool_use", "id": "tu2", "name": "read", "input": {}}]},`+
		`{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu2", "content": [{"type": "text", "text": "R"}, {"type": "image"}], "is_error": true},`+
		`{"type": "tool_result", "tool_use_id": "tu1", "content": "sent"}]},`+
		`{"role": "assistant", "content": [{"type": "tool_use", "id": "tu3", "name": "read", "input": "{\"f\": 1}"}]},`+
		`{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu3", "is_error": false}]}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 1, ID: "tu1", Tool: "send_money", Args: map[string]any{"to": "attacker"}, Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
		{Index: 1, Event: 1, ID: "tu2", Tool: "read", Args: map[string]any{}, Result: "R", Error: "R", ResultEvent: 2, Parent: -1},
		{Index: 2, Event: 3, ID: "tu3", Tool: "read", Args: map[string]any{"f": float64(1)}, Ok: true, ResultEvent: 4, Parent: -1},
	})
	check(t, "event 1", rn.Events[1].Calls, []int{0, 1})
	check(t, "event 1 content", rn.Events[1].Content, "sending")
	// Two results in one message: the event describes neither; one: it
	// does. A user message carrying results is a tool message to criteria
	// and patterns (not a user turn, nor user text).
	ev2, ev4 := *rn.Events[2], *rn.Events[4]
	ev2.Blocks, ev4.Blocks = nil, nil
	check(t, "event 2", ev2, run.Event{Index: 2, Role: "tool", Content: ""})
	check(t, "event 4", ev4, run.Event{Index: 4, Role: "tool", CallID: "tu3", Tool: "read"})
}

func TestRoleCase(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "ASSISTANT", "content": null, "tool_calls": [{"id": "c1", "function": {"name": "send_money", "arguments": {}}}]},`+
		`{"role": "Tool", "content": "sent", "tool_call_id": "c1"},`+
		`{"role": "Assistant", "content": "done"}]}`))
	check(t, "roles", []string{rn.Events[0].Role, rn.Events[1].Role, rn.Events[2].Role}, []string{"assistant", "tool", "assistant"})
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, ID: "c1", Tool: "send_money", Args: map[string]any{}, Ok: true, Result: "sent", ResultEvent: 1, Parent: -1},
	})
	check(t, "Output", rn.Output, "done")
}

func TestParallelWrapper(t *testing.T) {
	wrapper := func(id string) string {
		return `{"id": "` + id + `", "function": {"name": "multi_tool_use.parallel", "arguments": "{\"tool_uses\": [` +
			`{\"recipient_name\": \"functions.send_money\", \"parameters\": {\"to\": \"attacker\"}},` +
			`{\"recipient_name\": \"functions.read\", \"parameters\": {}}]}"}}`
	}
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [`+wrapper("ok")+`]},`+
		`{"role": "tool", "content": "both done", "tool_call_id": "ok"},`+
		`{"role": "assistant", "content": null, "tool_calls": [`+wrapper("bad")+`]},`+
		`{"role": "tool", "content": "", "tool_call_id": "bad", "error": "one failed"},`+
		`{"role": "assistant", "content": null, "tool_calls": [`+wrapper("never")+`]}]}`))
	uses := map[string]any{"tool_uses": []any{
		map[string]any{"recipient_name": "functions.send_money", "parameters": map[string]any{"to": "attacker"}},
		map[string]any{"recipient_name": "functions.read", "parameters": map[string]any{}},
	}}
	send, read := map[string]any{"to": "attacker"}, map[string]any{}
	unknown := "the multi_tool_use.parallel call 1 that dispatched it reported an error, so whether this call ran is unknown"
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, ID: "ok", Tool: build.ParallelTool, Args: uses, Ok: true, Result: "both done", ResultEvent: 1, Parent: -1},
		{Index: 1, Event: 2, ID: "bad", Tool: build.ParallelTool, Args: uses, Error: "one failed", ResultEvent: 3, Parent: -1},
		{Index: 2, Event: 4, ID: "never", Tool: build.ParallelTool, Args: uses, ResultEvent: -1, Parent: -1},
		// ran: the wrapper's result is theirs
		{Index: 3, Event: 0, Tool: "send_money", Args: send, Ok: true, Result: "both done", ResultEvent: 1, Depth: 1, Parent: 0},
		{Index: 4, Event: 0, Tool: "read", Args: read, Ok: true, Result: "both done", ResultEvent: 1, Depth: 1, Parent: 0},
		// the wrapper failed: unknown, not "did not run"
		{Index: 5, Event: 2, Tool: "send_money", Args: send, Error: "one failed", ResultEvent: 3, Depth: 1, Parent: 1, OkUnknown: unknown},
		{Index: 6, Event: 2, Tool: "read", Args: read, Error: "one failed", ResultEvent: 3, Depth: 1, Parent: 1, OkUnknown: unknown},
		// the wrapper never ran: neither did they
		{Index: 7, Event: 4, Tool: "send_money", Args: send, ResultEvent: -1, Depth: 1, Parent: 2},
		{Index: 8, Event: 4, Tool: "read", Args: read, ResultEvent: -1, Depth: 1, Parent: 2},
	})
}

func TestNestedEveryKeyEveryShape(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "1", "function": {"name": "outer", "arguments": {`+
		// a call object whose sibling key holds another call
		`"a": {"function": "read", "args": {}, "note": {"function": "send_money", "args": {"to": "x"}}},`+
		// both shapes on one object
		`"b": {"function": "f1", "args": {"k": 1}, "name": "f2", "arguments": "{\"k\": 2}"},`+
		// AgentDojo's shape with args as a JSON string
		`"c": {"function": "send_money", "args": "{\"to\": \"y\"}"},`+
		// tool_use and recipient_name shapes, nested
		`"d": [{"type": "tool_use", "name": "tu", "input": {}}, {"recipient_name": "functions.rn", "parameters": null}]`+
		`}}}]}]}`))
	nested := func(i int, tool string, args map[string]any, parent int) run.Call {
		return run.Call{Index: i, Event: 0, Tool: tool, Args: args, ResultEvent: -1, Depth: 1, Parent: parent}
	}
	got := rn.Calls[1:]
	checkCalls(t, got, []run.Call{
		nested(1, "read", map[string]any{}, 0),
		nested(2, "send_money", map[string]any{"to": "x"}, 0),
		nested(3, "f1", map[string]any{"k": float64(1)}, 0),
		nested(4, "f2", map[string]any{"k": float64(2)}, 0),
		nested(5, "send_money", map[string]any{"to": "y"}, 0),
		nested(6, "tu", map[string]any{}, 0),
		nested(7, "rn", map[string]any{}, 0),
	})
}

func TestMatchLatestTurn(t *testing.T) {
	// A send that ran must count as run: an earlier unanswered call does
	// not take its result (empty id, or an id slightly wrong).
	for _, id := range []string{"", "c2 "} {
		rn := readOne(t, lines(`{"messages": [`+
			`{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "function": {"name": "read", "arguments": {}}}]},`+
			`{"role": "user", "content": "never mind"},`+
			`{"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "function": {"name": "send_money", "arguments": {}}}]},`+
			`{"role": "tool", "content": "sent", "tool_call_id": "`+id+`"}]}`))
		mismatch := ""
		if id != "" {
			mismatch = `the result's id "c2 " is not the call's id "c2"`
		}
		checkCalls(t, rn.Calls, []run.Call{
			{Index: 0, Event: 0, ID: "c1", Tool: "read", Args: map[string]any{}, ResultEvent: -1, Parent: -1},
			{Index: 1, Event: 2, ID: "c2", Tool: "send_money", Args: map[string]any{}, Ok: true, Result: "sent", ResultEvent: 3, Parent: -1, Mismatch: mismatch},
		})
	}
	// A blocked send must not count as run: a later call's result does not
	// answer it.
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "", "function": {"name": "send_money", "arguments": {}}}]},`+
		`{"role": "user", "content": "blocked"},`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "", "function": {"name": "read", "arguments": {}}}]},`+
		`{"role": "tool", "content": "R", "tool_call_id": ""}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, Tool: "send_money", Args: map[string]any{}, ResultEvent: -1, Parent: -1},
		{Index: 1, Event: 2, Tool: "read", Args: map[string]any{}, Ok: true, Result: "R", ResultEvent: 3, Parent: -1},
	})
	// An exact, unique id still reaches back to an earlier turn; a result
	// no call of the latest turn can take is a call of its own, whose ok is
	// unknown as it names no tool (review 15).
	rn = readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "function": {"name": "read", "arguments": {}}}]},`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "b", "function": {"name": "send_money", "arguments": {}}}]},`+
		`{"role": "tool", "content": "B", "tool_call_id": "b"},`+
		`{"role": "tool", "content": "A", "tool_call_id": "a"},`+
		`{"role": "tool", "content": "?", "tool_call_id": ""}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, ID: "a", Tool: "read", Args: map[string]any{}, Ok: true, Result: "A", ResultEvent: 3, Parent: -1},
		{Index: 1, Event: 1, ID: "b", Tool: "send_money", Args: map[string]any{}, Ok: true, Result: "B", ResultEvent: 2, Parent: -1},
		{Index: 2, Event: 4, Args: map[string]any{}, Result: "?", ResultEvent: 4, Parent: -1,
			OkUnknown: "the result at message 4 answers no call requested before it and names no tool: what ran, and whether it succeeded, is unknown"},
	})
}

func TestUnreadableCallShapes(t *testing.T) {
	msg := func(m string) string { return `{"messages": [` + m + `]}` }
	input := lines(
		msg(`{"role": "assistant", "tool_use": {"name": "send_money", "input": {}}}`),                                                                     // 1
		msg(`{"role": "assistant", "function_call": "send_money"}`),                                                                                       // 2
		msg(`{"role": "assistant", "function_call": {"arguments": {}}}`),                                                                                  // 3
		msg(`{"role": "assistant", "content": [{"type": "tool_use", "input": {}}]}`),                                                                      // 4
		msg(`{"role": "assistant", "content": [{"type": "server_tool_use", "name": "web", "input": {}}]}`),                                                // 5
		msg(`{"role": "assistant", "content": [{"name": "send_money", "input": {}}]}`),                                                                    // 6
		msg(`{"role": "user", "content": [{"type": "tool_result", "content": {"x": 1}}]}`),                                                                // 7
		msg(`{"role": "user", "content": [{"type": "tool_result", "is_error": "yes"}]}`),                                                                  // 8
		msg(`{"role": "user", "content": "r", "tool_call_id": "c1"}`),                                                                                     // 9
		msg(`{"role": "assistant", "content": "r", "tool_call": {"function": "send_money"}}`),                                                             // 10
		msg(`{"role": "assistant", "tool_calls": [{"function": {"name": "multi_tool_use.parallel", "arguments": {}}}]}`),                                  // 11
		msg(`{"role": "assistant", "tool_calls": [{"function": {"name": "multi_tool_use.parallel", "arguments": {"tool_uses": [{"parameters": {}}]}}}]}`), // 12
		msg(`{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {"x": [{"type": "tool_use", "input": {}}]}}}]}`),                // 13
		msg(`{"role": "model", "content": [{"functionCall": {"name": "send_money", "args": {}}}]}`),                                                       // 14
		// kept: blocks that cannot carry calls, keys that hold none
		msg(`{"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "image"}, {"type": "x_custom"}], "tool_choice": null, "function_count": 3, "tools": []}`), // 15
	)
	runs, errs, _ := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: message 0: key "tool_use" names a call, a tool or a function, but this reader knows calls only as tool_calls, function_call and tool_use content blocks, and results only as tool and function messages (tool_call_id, tool_call, name) and tool_result content blocks`,
		`t.jsonl:2: message 0: function_call: want an object {name, arguments}, got a string`,
		`t.jsonl:3: message 0: function_call.name: want a string, got nothing (missing)`,
		`t.jsonl:4: message 0: content[0] (tool_use): name: missing (a tool_use block names the tool it calls)`,
		`t.jsonl:5: message 0: content[0]: block type "server_tool_use" names a call, a tool or a function, but this reader knows only "tool_use" and "tool_result" blocks`,
		`t.jsonl:6: message 0: content[0]: a block shaped like a tool call has no "type" (want "tool_use")`,
		`t.jsonl:7: message 0: content[0] (tool_result): content: want a string, null or a list of content blocks, got an object`,
		`t.jsonl:8: message 0: content[0] (tool_result): is_error: want a boolean, got a string`,
		`t.jsonl:9: message 0: tool_call_id on a message with role "user": only a "tool" or "function" message is a result (is the role wrong?)`,
		`t.jsonl:10: message 0: tool_call on a message with role "assistant": only a "tool" or "function" message is a result (is the role wrong?)`,
		`t.jsonl:11: message 0: call 0 ("multi_tool_use.parallel"): args.tool_uses: missing (a multi_tool_use.parallel call lists the calls it makes in tool_uses)`,
		`t.jsonl:12: message 0: call 0 ("multi_tool_use.parallel"): args.tool_uses[0].recipient_name: want the string name of the tool called, got nothing (missing)`,
		`t.jsonl:13: message 0: call 0 ("f"): args.x[0]: a tool_use object without a string name (want {"type": "tool_use", "name": string, "input": args})`,
		`t.jsonl:14: message 0: content[0]: key "functionCall" names a call, a tool or a function, but this reader knows calls in content only as "tool_use" blocks`,
	})
	if len(runs) != 1 || len(runs[0].Calls) != 0 {
		t.Fatalf("got %d runs, want 1 without calls", len(runs))
	}
}
