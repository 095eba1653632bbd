package responses

import "testing"

// TestRefused: shapes this reader would misread are bad input naming the
// place and the likely cause.
func TestRefused(t *testing.T) {
	for _, tc := range []struct{ rec, want string }{
		{`{"messages": [{"role": "user", "content": "hi"}]}`,
			`messages: a "messages" list is a chat transcript (openai-messages or anthropic-messages?); this reader (openai-responses) wants a list of Responses API items, or an object with "output" items (and "input")`},
		{`{"input": [{"role": "user", "content": "hi"}]}`,
			`output: missing (a record with "input" is a request: log it with its response's "output" items, or write the conversation as a list of items)`},
		{`{"data": {"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}}`,
			`data.output[0] is a tool call: this reader wants the items in the record's own "input" and "output" (or a list of items); a header line has no items and no calls`},
		{`"text"`, `record is a string, want a list of items or an object with "output" (an OpenAI Responses API response, or a request logged with its response)`},
		{`{"output": {}}`, `output: want a list of items, got an object`},
		{`{"output": [], "metadata": []}`, `metadata: want an object, got a list`},
		{`{"output": [], "input": 3}`, `input: want a string, null or a list of items, got a number`},
		{`[{"type": "item_reference", "id": "fc_1"}]`,
			`item 0: type "item_reference": an item_reference points at an item the API stored, which the record does not hold (a call or a result could be missing): log the items themselves`},
		{`[{"type": "tool_use", "id": "t", "name": "f", "input": {}}]`,
			`item 0: type "tool_use": an Anthropic content block, not a Responses API item (use --transcript-format anthropic-messages)`},
		{`[{"type": "function_call", "name": "f", "arguments": "{}"}]`,
			`item 0: call_id: want a string, got nothing (missing) (its output item answers it by call_id)`},
		{`[{"type": "function_call_output", "output": "x"}]`,
			`item 0: call_id: want a string, got nothing (missing) (the call this output answers)`},
		{`[{"type": "function_call", "call_id": "c", "arguments": "{}"}]`,
			`item 0: name: want a string, got nothing (missing) (the function called)`},
		{`[{"content": "hi"}]`, `item 0: type: missing (an item has a type; only a message may omit it, and then it has a role)`},
		{`[1]`, `item 0: is a number, want an object (a Responses API item)`},
		{`[{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]`,
			`item 0: tool_calls: a Chat Completions message (openai-messages?) among Responses API items; here a call is a function_call item and its result a function_call_output item`},
		{`[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]}]`,
			`item 0: content[0]: a "tool_use" block is Anthropic's (use --transcript-format anthropic-messages); in the Responses API a call is a function_call item`},
		{`[{"role": "assistant", "content": [{"type": "output_text", "text": "x", "functionCall": {"name": "f"}}]}]`,
			`item 0: content[0].functionCall: key "functionCall" names a call, a tool or a function in a place this reader does not read (Gemini's parts? this reader wants Responses API function_call and function_call_output items)`},
		{`[{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "tool": {"name": "g", "args": {}}}]`,
			`item 0: tool: a tool call in a place this reader does not read (in the Responses API a call is a function_call item and its result a function_call_output item)`},
		{`[{"type": "web_search_call", "id": 5, "status": "completed"}]`, `item 0: id: want a string, got a number`},
		{`[{"type": "tool_search_call", "arguments": {}}]`,
			`item 0: type "tool_search_call": not a Responses API item this reader knows (known: apply_patch_call, apply_patch_call_output, code_interpreter_call, computer_call, computer_call_output, custom_tool_call, custom_tool_call_output, file_search_call, function_call, function_call_output, image_generation_call, local_shell_call, local_shell_call_output, mcp_approval_request, mcp_approval_response, mcp_call, mcp_list_tools, message, reasoning, shell_call, shell_call_output, web_search_call)`},
		{`{"output": [], "choices": [{"message": {"role": "assistant", "content": "x"}}]}`,
			`record member choices[0].message: a message (an object with a role and content or calls) in a place this reader does not read (a model response logged beside the request? append its items to "output")`},
		{`[{"type": "function_call_output", "call_id": "c", "output": "x", "is_error": "yes"}]`,
			`item 0: is_error: want a boolean, got a string`},
		{`[{"type": "message", "role": "user", "content": "a", "content ": "b"}, {"type": "message", "role": "user", "content": "a", "content": "b"}]`,
			`invalid JSON (offset 123): duplicate object member name at "/1/content"`},
	} {
		rn, skip, msg := Decode([]byte(tc.rec))
		if msg != tc.want || rn != nil || skip {
			t.Errorf("Decode(%s):\n got  %q (run %v, skip %v)\n want %q", tc.rec, msg, rn != nil, skip, tc.want)
		}
	}
}

// TestOutcome: the API has no error flag; an output is ok unless marked,
// a contradiction is unknown (never false), status "failed" fails.
func TestOutcome(t *testing.T) {
	call := `{"type": "function_call", "call_id": "c", "name": "send", "arguments": "{}"}, `
	for _, tc := range []struct{ out, want string }{
		{`{"type": "function_call_output", "call_id": "c", "output": "Error: no such file"}`, "c|send|map[]|true||Error: no such file||1|0|0|"},
		{`{"type": "function_call_output", "call_id": "c", "output": "denied", "is_error": true}`, "c|send|map[]|false||denied|denied|1|0|0|"},
		{`{"type": "function_call_output", "call_id": "c", "output": "x", "error": "timeout"}`, "c|send|map[]|false||x|timeout|1|0|0|"},
		{`{"type": "function_call_output", "call_id": "c", "output": "x", "error": 0}`, "c|send|map[]|false|the result's error is 0, which says neither that the call failed nor that it succeeded|x|0|1|0|0|"},
		{`{"type": "function_call_output", "call_id": "c", "output": "x", "status": "failed", "is_error": false}`, "c|send|map[]|false|the output reports status \"failed\" but is_error false: whether the call failed is unknown|x|x|1|0|0|"},
		{`{"type": "apply_patch_call_output", "call_id": "c", "status": "failed"}`, "c|send|map[]|false|||failed|1|0|0|"},
		{`{"type": "function_call_output", "call_id": "c", "output": "x", "status": "incomplete"}`, "c|send|map[]|true||x||1|0|0|"},
		{`{"type": "shell_call_output", "call_id": "c", "output": [{"stdout": "a", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}]}`, "c|send|map[]|true||a||1|0|0|"},
		{`{"type": "shell_call_output", "call_id": "c", "output": [{"stdout": "", "stderr": "denied", "outcome": {"type": "exit", "exit_code": 1}}]}`, "c|send|map[]|false||denied|denied|1|0|0|"},
		{`{"type": "shell_call_output", "call_id": "c", "output": [{"stdout": "", "stderr": "", "outcome": {"type": "timeout"}}]}`, "c|send|map[]|false|||a timeout|1|0|0|"},
		{`{"type": "shell_call_output", "call_id": "c", "is_error": false, "output": [{"stdout": "", "stderr": "", "outcome": {"type": "exit", "exit_code": 2}}]}`, "c|send|map[]|false|the output reports exit code 2 but is_error false: whether the call failed is unknown|||1|0|0|"},
	} {
		rn := decodeOK(t, "["+call+tc.out+"]")
		_, calls := summary(rn)
		check(t, tc.out, calls, []string{tc.want})
	}
}

// TestSharedCallID: two call items sharing a call_id, one output: which
// ran is unknown for both (before, the output went to the latest call and
// the send to the attacker counted as run, the friend's as not).
func TestSharedCallID(t *testing.T) {
	rn := decodeOK(t, `[{"type": "function_call", "call_id": "c1", "name": "send", "arguments": "{\"to\": \"friend\"}"}, {"type": "function_call", "call_id": "c1", "name": "send", "arguments": "{\"to\": \"attacker\"}"}, {"type": "function_call_output", "call_id": "c1", "output": "sent"}]`)
	_, calls := summary(rn)
	why := `2 calls share the call_id "c1" and outputs answered 1 of them: which of them ran is unknown`
	check(t, "calls", calls, []string{
		"c1|send|map[to:friend]|false|" + why + "|||-1|0|0|",
		"c1|send|map[to:attacker]|false|" + why + "|sent||2|1|0|",
	})
}
