package build

import (
	"encoding/json"
	"fmt"
	"strings"
)

// This file finds a tool call that a model wrote into its text in one of
// the chat templates that serialise calls as text (Hermes and Qwen,
// Llama 3.1, Mistral, Claude's prompt-based tool use). A reader of
// structured calls (tool_calls, tool_use blocks, function_call items)
// would read such a run as "no call", so a send that ran would count as
// not made. Only a marker followed by the structure of a call counts: a
// template's special token or tag alone may be prose (an agent
// explaining a format, or a model imitating one: AgentDojo's
// claude-3-sonnet runs write "<function_call>\n<invoke name=..." as text
// that no harness executed). ReAct prose ("Action: x\nAction Input: {...}")
// is not looked for: its words are ordinary English, and which harness
// ran it cannot be told from the text (docs/transcripts.md).

// textCallMarker is one template's call marker and the structure that
// must follow it (after white space) for the text to be a call.
type textCallMarker struct {
	marker string
	what   string // the template, for messages
	// follows reports whether rest (the text after the marker, white
	// space trimmed) starts with a call, and the tool it names.
	follows func(rest string) (tool string, ok bool)
}

var textCallMarkers = []textCallMarker{
	{"<tool_call>", "Hermes/Qwen", func(r string) (string, bool) {
		if t, ok := jsonCall(r); ok {
			return t, true
		}
		// Qwen3-Coder's XML form: <tool_call><function=name>.
		return xmlName(r, "<function=", ">")
	}},
	{"<|python_tag|>", "Llama 3.1", func(r string) (string, bool) {
		if t, ok := jsonCall(r); ok {
			return t, true
		}
		// A built-in tool: brave_search.call(query="...").
		if i := strings.Index(r, ".call("); i > 0 && isIdent(r[:i]) {
			return r[:i], true
		}
		return "", false
	}},
	{"[TOOL_CALLS]", "Mistral", func(r string) (string, bool) {
		if t, ok := jsonCall(r); ok {
			return t, true
		}
		// The v11 template: [TOOL_CALLS]name[ARGS]{...} (or [CALL_ID]).
		for _, sep := range []string{"[ARGS]", "[CALL_ID]"} {
			if i := strings.Index(r, sep); i > 0 && isIdent(r[:i]) {
				return r[:i], true
			}
		}
		return "", false
	}},
	{"<function_calls>", "Claude's prompt-based", func(r string) (string, bool) {
		if !strings.HasPrefix(r, "<invoke") {
			return "", false
		}
		r = strings.TrimSpace(r[len("<invoke"):])
		if t, ok := xmlName(r, `name="`, `"`); ok {
			return t, true
		}
		// The older form: <invoke><tool_name>x</tool_name>.
		if strings.HasPrefix(r, ">") {
			return xmlName(strings.TrimSpace(r[1:]), "<tool_name>", "</tool_name>")
		}
		return "", false
	}},
}

// maxTextCallTries bounds how many occurrences of each marker are looked
// at in one text, so that a text repeating a marker a million times costs
// linear time. A call after that many markers that are not calls is not
// found (docs/transcripts.md).
const maxTextCallTries = 64

// TextCall returns, for a text holding a call written in a known chat
// template's text form, a description of it naming the marker and the
// tool (`Hermes/Qwen "<tool_call>" calling "send_email"`), or "".
func TextCall(text string) string {
	for _, m := range textCallMarkers {
		rest := text
		for try := 0; try < maxTextCallTries; try++ {
			i := strings.Index(rest, m.marker)
			if i < 0 {
				break
			}
			rest = rest[i+len(m.marker):]
			if tool, ok := m.follows(strings.TrimSpace(rest)); ok {
				return fmt.Sprintf("%s %q calling %q", m.what, m.marker, Clip(tool, 100))
			}
		}
	}
	if tool, ok := bareJSONCall(strings.TrimSpace(text)); ok {
		return fmt.Sprintf(`a bare JSON call {"name", "arguments"} calling %q`, Clip(tool, 100))
	}
	return ""
}

// bareJSONCall reports whether text is, whole, a JSON call with no marker
// (Llama 3's JSON-based tool calling, a prompt asking for JSON calls): an
// object, or a list of objects, with a string "name" and an "arguments"
// or "parameters" member. A name alone is not enough: an answer that is a
// JSON record may have one.
func bareJSONCall(text string) (string, bool) {
	if text == "" || (text[0] != '{' && text[0] != '[') {
		return "", false
	}
	v, msg := DecodeJSON([]byte(text), false)
	if msg != "" {
		return "", false
	}
	if l, ok := v.([]any); ok && len(l) > 0 {
		v = l[0]
	}
	obj, _ := v.(map[string]any)
	name, _ := obj["name"].(string)
	_, args := obj["arguments"]
	_, params := obj["parameters"]
	return name, name != "" && (args || params)
}

// TextCallProblem is the package's TextCallProblem in t's words.
func (t Terms) TextCallProblem(text string) string { return textCallProblem(t.or(), text) }

// TextCallProblem says why an assistant's text holding a call written as
// text (TextCall) is refused, or returns "".
func TextCallProblem(text string) string { return textCallProblem(&OpenAI, text) }

func textCallProblem(t *Terms, text string) string {
	d := TextCall(text)
	if d == "" {
		return ""
	}
	return fmt.Sprintf("the assistant's text writes a tool call as text (%s), but this reader reads only structured calls (%s), so the run would have no such call: convert the calls to %s", d, t.Calls, t.Calls)
}

// jsonCall reports whether r starts with a JSON object that has a string
// "name" (a call), or a list whose first element is one, and returns the
// name.
func jsonCall(r string) (string, bool) {
	if r == "" || (r[0] != '{' && r[0] != '[') {
		return "", false
	}
	var v any
	// Decode reads the first value only: the closing tag after it is not
	// JSON.
	if err := json.NewDecoder(strings.NewReader(r)).Decode(&v); err != nil {
		return "", false
	}
	if l, ok := v.([]any); ok && len(l) > 0 {
		v = l[0]
	}
	obj, _ := v.(map[string]any)
	name, ok := obj["name"].(string)
	return name, ok && name != ""
}

// xmlName reports whether r starts with open, and returns the name
// between it and the next close.
func xmlName(r, open, close string) (string, bool) {
	if !strings.HasPrefix(r, open) {
		return "", false
	}
	r = r[len(open):]
	i := strings.Index(r, close)
	if i <= 0 {
		return "", false
	}
	return r[:i], true
}

// isIdent reports whether s is a tool name as the templates write it:
// letters, digits, '_' and '-', not empty.
func isIdent(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
