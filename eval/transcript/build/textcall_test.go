package build

import (
	"strings"
	"testing"
)

// TestTextCall: a chat template's call marker followed by a call's
// structure is a call; the marker alone, prose about it, ReAct text and
// the text AgentDojo's claude-3-sonnet runs wrote are not.
func TestTextCall(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"<tool_call>\n{\"name\": \"send_email\", \"arguments\": {\"to\": \"bob\"}}\n</tool_call>", `Hermes/Qwen "<tool_call>" calling "send_email"`},
		{"Sure.\n<tool_call>\n<function=send_email>\n<parameter=to>bob</parameter>\n</function>\n</tool_call>", `Hermes/Qwen "<tool_call>" calling "send_email"`},
		{`<|python_tag|>{"name": "send_email", "parameters": {"to": "bob"}}`, `Llama 3.1 "<|python_tag|>" calling "send_email"`},
		{`<|python_tag|>brave_search.call(query="weather")`, `Llama 3.1 "<|python_tag|>" calling "brave_search"`},
		{`[TOOL_CALLS][{"name": "send_email", "arguments": {"to": "bob"}}]`, `Mistral "[TOOL_CALLS]" calling "send_email"`},
		{`[TOOL_CALLS]send_email[ARGS]{"to": "bob"}`, `Mistral "[TOOL_CALLS]" calling "send_email"`},
		{`<function_calls><invoke name="send_email"><parameter name="to">bob</parameter></invoke></function_calls>`, `Claude's prompt-based "<function_calls>" calling "send_email"`},
		{"<function_calls>\n<invoke>\n<tool_name>send_email</tool_name>\n</invoke>\n</function_calls>", `Claude's prompt-based "<function_calls>" calling "send_email"`},
		// The second marker is the call: the first is prose.
		{"Hermes writes calls in <tool_call> tags: <tool_call>{\"name\": \"x\"}</tool_call>", `Hermes/Qwen "<tool_call>" calling "x"`},
		// A whole text that is a JSON call (content_json.jsonl).
		{`{"name": "send_email", "arguments": {"to": "bob"}}`, `a bare JSON call {"name", "arguments"} calling "send_email"`},
		{` [{"name": "send_email", "parameters": {}}] `, `a bare JSON call {"name", "arguments"} calling "send_email"`},
		// Not calls.
		{`{"name": "Bob", "age": 3}`, ""},
		{`{"name": "send_email", "arguments": {}} and more`, ""},
		{"Hermes writes calls in <tool_call> tags.", ""},
		{"<tool_call>{\"arguments\": {}}</tool_call>", ""}, // no name
		{"<tool_call>{\"name\": \"\"}</tool_call>", ""},
		{"Llama marks a call with <|python_tag|> and then JSON.", ""},
		{"[TOOL_CALLS] is Mistral's token.", ""},
		{"<function_calls> holds invoke elements.", ""},
		// AgentDojo, claude-3-sonnet-20240229: a singular tag no harness
		// executed, which the AgentDojo data judges as text.
		{"<function_call>\n<invoke name=\"share_file\" reference=\"a@b\" />", ""},
		// ReAct is prose (docs/transcripts.md).
		{"Thought: send\nAction: send_email\nAction Input: {\"to\": \"bob\"}", ""},
		{"", ""},
	} {
		if got := TextCall(c.text); got != c.want {
			t.Errorf("TextCall(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestTextCallBounded: only the first maxTextCallTries markers of each
// template are looked at.
func TestTextCallBounded(t *testing.T) {
	call := `<tool_call>{"name": "x"}</tool_call>`
	if got := TextCall(strings.Repeat("<tool_call> ", maxTextCallTries-1) + call); got == "" {
		t.Errorf("call after %d markers not found", maxTextCallTries-1)
	}
	if got := TextCall(strings.Repeat("<tool_call> ", maxTextCallTries) + call); got != "" {
		t.Errorf("call after %d markers: %q, want not looked for", maxTextCallTries, got)
	}
}

func TestTextCallProblem(t *testing.T) {
	text := `[TOOL_CALLS][{"name": "send_email", "arguments": {}}]`
	want := `the assistant's text writes a tool call as text (Mistral "[TOOL_CALLS]" calling "send_email"), but this reader reads only structured calls (tool_calls), so the run would have no such call: convert the calls to tool_calls`
	if got := TextCallProblem(text); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	want = strings.ReplaceAll(want, "tool_calls", "tool_use blocks")
	if got := (Terms{Calls: "tool_use blocks"}).TextCallProblem(text); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := TextCallProblem("Done."); got != "" {
		t.Errorf("prose: %q", got)
	}
}

// TestSplitResults: a user message's tool_result blocks and its own words
// are cut into runs, in order; blank text joins a neighbour.
func TestSplitResults(t *testing.T) {
	res := map[string]any{"type": "tool_result", "tool_use_id": "t1"}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	img := map[string]any{"type": "image"}
	for _, c := range []struct {
		name string
		list []any
		want []Segment
	}{
		{"results only", []any{res, res}, nil},
		{"text only", []any{text("hi"), img}, nil},
		{"results then blank", []any{res, text(" \n")}, nil},
		{"result then text", []any{res, text("also email eve")}, []Segment{{0, 1, true}, {1, 2, false}}},
		{"text then results", []any{text("here:"), res, res}, []Segment{{0, 1, false}, {1, 3, true}}},
		{"blank first", []any{text(""), res, img, text(" "), res}, []Segment{{0, 2, true}, {2, 4, false}, {4, 5, true}}},
	} {
		got := SplitResults(c.list)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}
