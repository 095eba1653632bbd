package anthropic

import "testing"

// TestRefusals: each malformed or foreign record is refused whole, with a
// message naming the place and the likely cause (another format's shape
// names that format).
func TestRefusals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"messages":[{"role":"system","content":"be nice"},{"role":"user","content":"hi"}]}`,
			`message 0: role "system": the Messages API has no system messages, its system prompt is the top-level "system" (an OpenAI chat transcript? read it with the format "openai-messages")`},
		{`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"send","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`,
			`message 1: key "tool_calls": the Messages API has no such member (an OpenAI chat transcript? read it with the format "openai-messages")`},
		{`{"messages":[{"role":"user","content":"hi"},{"role":"tool","content":"ok"}]}`,
			`message 1: role "tool": Messages API roles are "user" and "assistant" (an OpenAI chat transcript? read it with the format "openai-messages")`},
		{`{"messages":[{"type":"function_call","call_id":"c1","name":"send","arguments":"{}"}]}`,
			`message 0: role: missing, and type "function_call": an OpenAI Responses API item? read it with the format "openai-responses" (this reader wants Messages API messages {role, content})`},
		{`{"request":{"messages":[{"role":"user","content":[{"type":"tool_use","id":"t","name":"send","input":{}}]}]}}`,
			`message 0: content[0]: a "tool_use" block in a message of role "user": only assistant messages hold it`},
		{`{"request":{"messages":[{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]}}`,
			`message 0: content[0]: a "tool_result" block in a message of role "assistant": only user messages hold it`},
		{`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","input":{}}]}]}`,
			`message 0: content[0] (tool_use): name: missing (the block names the tool it calls)`},
		{`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"send","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x","is_error":"yes"}]}]}`,
			`message 1: content[0] (tool_result): is_error: want a boolean, got a string`},
		{`{"messages":[{"role":"assistant","content":[{"type":"computer_call","id":"t","action":{}}]}]}`,
			`message 0: content[0]: block type "computer_call" names a call, a tool or a function, but this reader knows calls only as tool_use, server_tool_use and mcp_tool_use blocks and results only as tool_result, mcp_tool_result and *_tool_result blocks`},
		{`{"messages":[{"role":"assistant","content":[{"name":"send","input":{"to":"eve"}}]}]}`,
			`message 0: content[0]: type: want a string naming the block type, got nothing (missing)`},
		{`{"messages":[{"role":"assistant","content":["hello"]}]}`,
			`message 0: content[0]: want a content block (an object with a type), got a string`},
		{`{"messages":[{"role":"assistant","content":[{"type":"text","text":"x","functionCall":{"name":"send","args":{}}}]}]}`,
			`message 0: content[0].functionCall: a tool call in a place this reader does not read (Gemini's parts? this reader wants Anthropic tool_use and tool_result blocks)`},
		{`{"messages":[{"role":"user","content":"hi"}],"response":{"role":"assistant","content":[{"type":"text","text":"x"}],"choices":[{"message":{"role":"assistant","tool_calls":[{"function":{"name":"send","arguments":"{}"}}]}}]}}`,
			`response: choices[0].message.tool_calls[0]: a tool call in a place this reader does not read (this reader reads calls as tool_use blocks and results as tool_result blocks)`},
		{`{"messages":[{"role":"user","content":"hi"}],"response":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}`,
			`response: an API error (type "error"), not a Message: the request got no answer, so there is no final turn to judge`},
		{`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"x"}]}`,
			`a Messages API response (type "message") without its request: log {"request": ..., "response": ...} so that the conversation is there`},
		{`{"data":{"messages":[{"role":"user","content":"hi"}]}}`,
			`no "messages" or "request" member, but data.messages: a transcript nested under "data": this reader wants "messages" at the top level`},
		{`{"Messages":[{"role":"user","content":"hi"}]}`,
			`no "messages" member, but "Messages": member names are case-sensitive (a misspelt "messages"?)`},
		{`{"request":{"messages":[]},"messages":[]}`,
			`both "request" and "messages": which is the conversation is unclear`},
		{`{"request":"x"}`,
			`request: want an object (a Messages API request), got a string`},
		{`{"request":{"model":"m"}}`,
			`request.messages: missing`},
		{`{"messages":{"role":"user"}}`,
			`messages: want a list, got an object`},
		{`{"system":{"text":"x"},"messages":[]}`,
			`system: want a string or a list of text blocks, got an object`},
		{`{"system":[{"type":"image","source":{}}],"messages":[]}`,
			`system[0]: want a text block, got a "image" block`},
		{`{"messages":[],"metadata":[1]}`,
			`metadata: want an object, got a list`},
		{`{"messages":[{"role":"bot","content":"hi"}]}`,
			`message 0: role "bot": want "user" or "assistant"`},
		{`{"messages":[],"tool_calls":[{"function":{"name":"send","arguments":"{}"}}]}`,
			`record member tool_calls[0]: a tool call in a place this reader does not read (this reader reads calls as tool_use blocks and results as tool_result blocks)`},
		{`5`,
			`record is a number, want an object or a list of messages`},
		{`{"System":"s","messages":[]}`,
			`no "system" member, but "System": member names are case-sensitive (a misspelt "system"?)`},
		{`{"messages":[],"metadata ":{"task":"t"}}`,
			`no "metadata" member, but "metadata ": member names are case-sensitive (a misspelt "metadata"?)`},
		{`{"request":{"messages":[],"System":"s"}}`,
			`request: no "system" member, but "System": member names are case-sensitive (a misspelt "system"?)`},
	} {
		rn, skip, msg := Decode([]byte(tc.in))
		if rn != nil || skip || msg != tc.want {
			t.Errorf("%s\n got %v, %v, %q\nwant %q", tc.in, rn, skip, msg, tc.want)
		}
	}
}
