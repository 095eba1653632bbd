package openai

import (
	"reflect"
	"testing"
)

// TestHeaderLines: a record without "messages" is a header line (skipped,
// counted) unless it names "messages" in another case or holds messages
// under another name: then it is bad input at its line, where before it
// was counted as a header and its run silently dropped (issue 13, item 3).
// "Metadata" without "metadata" is bad input too (it was ignored).
func TestHeaderLines(t *testing.T) {
	input := lines(
		`{"metadata":{"benchmark":"agent-dojo","name":"m"}}`,
		`{"Messages":[{"role":"user","content":"hi"}],"metadata":{"task":"t"}}`,
		`{"MESSAGES ":[],"metadata":{"task":"t"}}`,
		`{"metadata":{"task":"t"},"turns":[{"Role":"user","content":"hi"}]}`,
		`{"index":3,"tags":["a",{"x":1}],"notes":[]}`,
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[],"Metadata":{"task":"t"}}`,
		`{"messages":[],"metadata":{},"Metadata":{"task":"t"}}`,
	)
	rs, errs, skipped := readAll(t, input, Options{})
	want := []string{
		`t.jsonl:2: no "messages" member, but "Messages": member names are case-sensitive (a misspelt "messages"?)`,
		`t.jsonl:3: no "messages" member, but "MESSAGES ": member names are case-sensitive (a misspelt "messages"?)`,
		`t.jsonl:4: no "messages" member, but "turns" holds a list of messages (objects with a role): a transcript must be under "messages"; a header line has no messages`,
		`t.jsonl:7: no "metadata" member, but "Metadata": member names are case-sensitive (a misspelt "metadata"?)`,
	}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("errors\n%q\nwant\n%q", errs, want)
	}
	if len(rs) != 2 || skipped != 2 {
		t.Errorf("%d runs, %d skipped; want 2 runs (lines 6 and 8), 2 header lines (lines 1 and 5)", len(rs), skipped)
	}
}

// TestHeaderHidingRuns: a record without "messages" that holds, at any
// depth, a "messages" member, a list of messages, a call or a Responses API
// item is a run in a shape this reader does not read: bad input naming
// where. Before, each was counted as a header line and its run dropped
// (review finding 2). Headers that describe a run, a benchmark or tools
// stay header lines.
func TestHeaderHidingRuns(t *testing.T) {
	input := lines(
		`{"data": {"messages": [{"role": "user", "content": "x"}]}, "metadata": {"task": "t"}}`,
		`{"output": [{"type": "function_call", "call_id": "c1", "name": "send", "arguments": "{}"}], "metadata": {"task": "t"}}`,
		`{"trace": {"steps": [{"tool": "send", "args": {"to": "x"}}]}}`,
		`{"run": {"turns": [{"role": "user", "content": "x"}]}}`,
		`{"items": [{"type": "message", "content": "x"}]}`,
		`{"log": [{"call": {"function": {"name": "send", "arguments": "{}"}}}]}`,
		`{"x": {"Messages": []}}`,
		// header lines
		`{"metadata": {"benchmark": "agent-dojo", "accuracy": 0.79, "name": "claude-3-5-sonnet-20240620"}}`,
		`{"metadata": {"tools": [{"type": "function", "function": {"name": "send", "parameters": {"type": "object"}}}, {"name": "read", "parameters": {}}]}}`,
		`{"metadata": {"task": "t", "goal": "g", "notes": [{"k": 1}]}}`,
	)
	rs, errs, skipped := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: no "messages" member, but data.messages: a transcript nested under "data": this reader wants "messages" at the top level`,
		`t.jsonl:2: no "messages" member, but output[0] is a tool call: a transcript must be under "messages" at the top level; a header line has no messages and no calls`,
		`t.jsonl:3: no "messages" member, but trace.steps[0] is a tool call: a transcript must be under "messages" at the top level; a header line has no messages and no calls`,
		`t.jsonl:4: no "messages" member, but run.turns holds a list of messages (objects with a role): a transcript must be under "messages" at the top level; a header line has no messages`,
		`t.jsonl:5: no "messages" member, but items[0] is an item of type "message" (an OpenAI Responses API or Anthropic item?): a transcript must be under "messages" at the top level; a header line has no messages and no calls`,
		`t.jsonl:6: no "messages" member, but log[0].call is a tool call: a transcript must be under "messages" at the top level; a header line has no messages and no calls`,
		`t.jsonl:7: no "messages" member, but x.Messages: a transcript nested under "x": this reader wants "messages" at the top level`,
	})
	if len(rs) != 0 || skipped != 3 {
		t.Errorf("%d runs, %d skipped; want 0 runs, 3 header lines (lines 8-10)", len(rs), skipped)
	}
}
