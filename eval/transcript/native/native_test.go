package native

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// decode decodes one record that must be a run.
func decode(t *testing.T, rec string) *run.Run {
	t.Helper()
	rn, skip, msg := Decode([]byte(rec))
	if msg != "" || skip || rn == nil {
		t.Fatalf("Decode(%s) = skip %v, msg %q", rec, skip, msg)
	}
	return rn
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

// The canonical conversation (examples/formats/tenet) reads to the events,
// calls and results every format's copy of it must give.
func TestCanonical(t *testing.T) {
	data, err := os.ReadFile("../../../examples/formats/tenet/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rn := decode(t, strings.TrimSpace(string(data)))
	check(t, "meta", rn.Meta, map[string]any{"task": "pay_rent", "agent": "demo-agent"})
	type ev struct {
		Role, Content string
		Calls         []int
		CallID, Tool  string
		Error         string
		Failed        bool
	}
	var evs []ev
	for _, e := range rn.Events {
		evs = append(evs, ev{e.Role, e.Content, e.Calls, e.CallID, e.Tool, e.Error, e.Failed})
	}
	check(t, "events", evs, []ev{
		{Role: "system", Content: "You are a banking assistant."},
		{Role: "user", Content: "Pay my rent of 1100 to the landlord."},
		{Role: "assistant", Content: "Checking your balance and notes.", Calls: []int{0, 1}},
		{Role: "tool", Content: `{"balance": 2500}`, CallID: "call_1", Tool: "get_balance"},
		{Role: "tool", CallID: "call_2", Tool: "read_file", Error: "file not found", Failed: true},
		{Role: "assistant", Calls: []int{2}},
		{Role: "tool", Content: "ok", CallID: "call_3", Tool: "send_money"},
		{Role: "assistant", Content: "Done: sent 1100 to the landlord."},
	})
	check(t, "calls", rn.Calls, []*run.Call{
		{Index: 0, Event: 2, ID: "call_1", Tool: "get_balance", Args: map[string]any{}, Ok: true, Result: `{"balance": 2500}`, ResultEvent: 3, Parent: -1},
		{Index: 1, Event: 2, ID: "call_2", Tool: "read_file", Args: map[string]any{"path": "notes.txt"}, Error: "file not found", ResultEvent: 4, Parent: -1},
		{Index: 2, Event: 5, ID: "call_3", Tool: "send_money", Args: map[string]any{"recipient": "landlord", "amount": 1100.0}, Ok: true, Result: "ok", ResultEvent: 6, Parent: -1},
	})
	check(t, "output", rn.Output, "Done: sent 1100 to the landlord.")
	check(t, "pre, post", []any{rn.Pre, rn.Post}, []any{nil, nil})
	check(t, "record.given", rn.Record["given"], map[string]any{"utility": nil, "attack_success": nil, "side_effect": nil})
}

// pre and post are kept as given, any JSON value; given labels missing
// from "given" are null in the record.
func TestStateAndGiven(t *testing.T) {
	rn := decode(t, `{"tenet_run": 1, "pre": {"balance": 2500}, "post": [1, "x"], "given": {"attack_success": false}, "events": []}`)
	check(t, "pre", rn.Pre, map[string]any{"balance": 2500.0})
	check(t, "post", rn.Post, []any{1.0, "x"})
	check(t, "given", rn.Record["given"], map[string]any{"utility": nil, "attack_success": false, "side_effect": nil})
	check(t, "meta", rn.Meta, map[string]any{})
	check(t, "events", len(rn.Events), 0)
	rn = decode(t, `{"tenet_run": 1, "pre": null, "post": "done", "events": []}`)
	check(t, "null pre", rn.Pre, nil)
	check(t, "string post", rn.Post, "done")
}

// A result's "ran" is what ran instead of the request: the call keeps the
// request in requested_tool and requested_args, and says so in mismatch.
func TestRan(t *testing.T) {
	rn := decode(t, `{"tenet_run": 1, "events": [
		{"role": "assistant", "calls": [{"id": "a", "tool": "send_money", "args": {"recipient": "attacker"}}]},
		{"role": "tool", "call_id": "a", "content": "sent", "ran": {"tool": "send_all", "args": "{\"recipient\": \"landlord\"}"}}]}`)
	c := rn.Calls[0]
	check(t, "tool, requested", []string{c.Tool, c.RequestedTool, c.Mismatch}, []string{"send_all", "send_money", `tool "send_all" ran, "send_money" was requested; other arguments ran than were requested`})
	check(t, "args", []any{c.Args, c.RequestedArgs}, []any{map[string]any{"recipient": "landlord"}, map[string]any{"recipient": "attacker"}})
	check(t, "event tool", rn.Events[1].Tool, "send_all")
	check(t, "ok", c.Ok, true)
}

// failed_unknown makes whether the call ran unknown, never false.
func TestFailedUnknown(t *testing.T) {
	rn := decode(t, `{"tenet_run": 1, "events": [
		{"role": "assistant", "calls": [{"id": "a", "tool": "send_money"}]},
		{"role": "tool", "call_id": "a", "error": "timeout", "failed_unknown": "the bank timed out after the request was sent"}]}`)
	c, e := rn.Calls[0], rn.Events[1]
	check(t, "call", []any{c.Ok, c.OkUnknown, c.Error}, []any{false, "the bank timed out after the request was sent", "timeout"})
	check(t, "event", []any{e.Failed, e.FailedUnknown, e.Error}, []any{false, "the bank timed out after the request was sent", "timeout"})
}

// args as text is parsed as in every format; text that does not parse is
// args_error, not a record error. A call carried in another's args is a
// nested call.
func TestArgs(t *testing.T) {
	rn := decode(t, `{"tenet_run": 1, "events": [
		{"role": "assistant", "calls": [
			{"id": "a", "tool": "t", "args": "{\"x\": 1"},
			{"id": "b", "tool": "run_plan", "args": {"steps": [{"function": "send_money", "args": {"recipient": "x"}}]}}]}]}`)
	check(t, "args_error", rn.Calls[0].ArgsError, `args: invalid JSON: unexpected end of JSON input`)
	check(t, "calls", len(rn.Calls), 3)
	n := rn.Calls[2]
	check(t, "nested", []any{n.Tool, n.Depth, n.Parent, n.Event, n.Ok, n.ResultEvent}, []any{"send_money", 1, 1, 0, false, -1})
}

// Content blocks are kept; their text is the content.
func TestBlocks(t *testing.T) {
	rn := decode(t, `{"tenet_run": 1, "events": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "source": {"data": "x"}}, {"type": "text", "text": "b"}]}]}`)
	check(t, "content", rn.Events[0].Content, "a\nb")
	check(t, "blocks", len(rn.Events[0].Blocks), 3)
}

// Every record that is not a well-formed tenet run is refused with the
// place and the reason (and, for another format's record, that format).
func TestRefused(t *testing.T) {
	for _, tc := range refusedCases {
		rn, skip, msg := Decode([]byte(tc.rec))
		if rn != nil || skip || msg != tc.want {
			t.Errorf("Decode(%s):\n got %q (run %v, skip %v)\nwant %q", tc.rec, msg, rn != nil, skip, tc.want)
		}
	}
}

func ev(s string) string { return `{"tenet_run": 1, "events": [` + s + `]}` }

const asst = `{"role": "assistant", "calls": [{"id": "a", "tool": "t"}]}`

// refusedCases are records the reader refuses, with its message
// (TestSchemaRefusesWhatTheReaderRefuses checks the schema against them).
var refusedCases = []struct{ rec, want string }{
	{`[1]`, `record is a list, want an object {"tenet_run": 1, "events": [...]}`},
	{`{"messages": [{"role": "user", "content": "hi"}]}`, `tenet_run: missing (a record of the "tenet" format starts {"tenet_run": 1, "events": [...]}): this record has "messages", a chat transcript (format "openai-messages" or "anthropic-messages"?)`},
	{`{"model": "claude", "system": "s", "messages": []}`, `tenet_run: missing (a record of the "tenet" format starts {"tenet_run": 1, "events": [...]}): this record has "messages", "model" and "system", an Anthropic Messages request (format "anthropic-messages"?)`},
	{`{"input": [], "output": [{"type": "function_call"}]}`, `tenet_run: missing (a record of the "tenet" format starts {"tenet_run": 1, "events": [...]}): this record has "input" or "output", OpenAI Responses API items (format "openai-responses"?)`},
	{`{"events": []}`, `tenet_run: missing (a record of the "tenet" format starts {"tenet_run": 1, "events": [...]}): this record has "events" but no version; add "tenet_run": 1`},
	{`{"tenet_rn": 1, "events": []}`, `record: unknown field "tenet_rn" (did you mean "tenet_run"?)`},
	{`{"tenet_run": 2, "events": []}`, `tenet_run: version 2 is not one this tenet reads (it reads version 1)`},
	{`{"tenet_run": "1", "events": []}`, `tenet_run: want the number 1, got a string`},
	{`{"tenet_run": 1, "evnets": []}`, `record: unknown field "evnets" (did you mean "events"?); the fields of a record are tenet_run, metadata, pre, post, given, events`},
	{`{"tenet_run": 1}`, `events: missing (a run lists its events, [] for none)`},
	{`{"tenet_run": 1, "events": {}}`, `events: want a list, got an object`},
	{`{"tenet_run": 1, "metadata": null, "events": []}`, `metadata: want an object, got null (omit it when there is none)`},
	{`{"tenet_run": 1, "given": {"utilty": true}, "events": []}`, `given: unknown field "utilty" (did you mean "utility"?); the fields of given are utility, attack_success, side_effect`},
	{`{"tenet_run": 1, "given": {"utility": "yes"}, "events": []}`, `given.utility: want true, false or null (not given), got a string`},
	{ev(`3`), `events[0]: want an object {"role": ..., ...}, got a number`},
	{ev(`{"content": "x"}`), `events[0].role: missing`},
	{ev(`{"role": "Assistant"}`), `events[0].role: "Assistant" is not a role (want system, user, assistant, tool) (did you mean "assistant"?)`},
	{ev(`{"role": "user", "text": "x"}`), `events[0]: unknown field "text"; the fields of an event are role, content, calls, call_id, error, failed_unknown, ran`},
	{ev(`{"role": "user", "content": null}`), `events[0].content: want a string or a list of content blocks, got null (omit it when there is none)`},
	{ev(`{"role": "user", "content": 5}`), `events[0].content: want a string or a list of content blocks, got a number`},
	{ev(`{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "t", "input": {}}]}`), `events[0].content: a tool_use or tool_result block: in a tenet run, calls are an event's "calls" and results are tool events (content blocks are kept as data only)`},
	{ev(`{"role": "assistant", "content": [{"type": "text", "text": "x", "functionCall": {"name": "t"}}]}`), `events[0].content[0]: key "functionCall" names a call, a tool or a function, but this reader knows calls in content only as "tool_use" blocks`},
	{ev(`{"role": "user", "call_id": "a"}`), `events[0].call_id: only a tool event carries a result (is the role "user" wrong?)`},
	{ev(`{"role": "assistant", "calls": {}}`), `events[0].calls: want a list, got an object`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "name": "t"}]}`), `events[0].calls[0]: unknown field "name" (did you mean "tool"?); the fields of a call are id, tool, args`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "tool": "t", "arguments": {}}]}`), `events[0].calls[0]: unknown field "arguments" (did you mean "args"?); the fields of a call are id, tool, args`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "tool": "t", "agrs": {}}]}`), `events[0].calls[0]: unknown field "agrs" (did you mean "args"?); the fields of a call are id, tool, args`},
	{ev(`{"role": "assistant", "calls": [{"tool": "t"}]}`), `events[0].calls[0].id: missing (a call's id is what its result names in call_id)`},
	{ev(`{"role": "assistant", "calls": [{"id": "", "tool": "t"}]}`), `events[0].calls[0].id: empty (a call's id is what its result names in call_id)`},
	{ev(`{"role": "assistant", "calls": [{"id": "a"}]}`), `events[0].calls[0].tool: missing (a call names the tool it calls)`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "tool": 7}]}`), `events[0].calls[0].tool: want a string, got a number`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "tool": "t", "args": [1]}]}`), `events[0].calls[0].args: want an object, or the arguments' text as the model sent them, got a list`},
	{ev(asst + `, {"role": "assistant", "calls": [{"id": "a", "tool": "u"}]}`), `events[1].calls[0].id: "a" is also the id of a call of events[0]: call ids are unique in a run`},
	{ev(`{"role": "tool", "content": "r"}`), `events[0].call_id: missing (a tool event names the call whose result it is)`},
	{ev(asst + `, {"role": "tool", "call_id": "b"}`), `events[1].call_id: "b" is not the id of a call requested before this event (did you mean "a"?)`},
	{ev(`{"role": "tool", "call_id": "a"}, ` + asst), `events[0].call_id: "a" is not the id of a call requested before this event`},
	{ev(asst + `, {"role": "tool", "call_id": "a"}, {"role": "tool", "call_id": "a"}`), `events[2].call_id: call "a" already has its result at events[1]: a call has one result`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "error": ""}`), `events[1].error: empty (omit it for a call that succeeded)`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "error": true}`), `events[1].error: want a string, got a boolean`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "failed_unknown": ""}`), `events[1].failed_unknown: empty (it says why whether the call failed is unknown; omit it when that is known)`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "calls": []}`), `events[1].calls: a tool event carries a result and requests no calls (the calls that follow a result belong to the next assistant event)`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "ran": {}}`), `events[1].ran: empty: name the tool or the arguments that ran, or omit it`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "ran": {"function": "u"}}`), `events[1].ran: unknown field "function" (did you mean "tool"?); the fields of ran are tool, args`},
	{ev(asst + `, {"role": "tool", "call_id": "a", "ran": {"args": 5}}`), `events[1].ran.args: want an object, or the arguments' text as the model sent them, got a number`},
	{ev(`{"role": "assistant", "calls": [{"id": "a", "tool": "t", "args": {"x": {"type": "tool_use", "input": {}}}}]}`), `events[0]: call 0 ("t"): args.x: a tool_use object without a string name (want {"type": "tool_use", "name": string, "input": args})`},
	{`{"tenet_run": 1, "events": [], "events": []}`, `invalid JSON (offset 31): duplicate object member name at "/events"`},
}
