package transcript

import (
	"testing"
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
	})
	if len(runs) != 1 || len(runs[0].Calls) != 0 {
		t.Fatalf("got %d runs, want 1 without calls (line 7)", len(runs))
	}
}
