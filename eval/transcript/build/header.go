package build

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// headerScan searches a record without "messages" for a transcript or a
// call at any depth: a "messages" member, a list of messages (objects with
// a role), a call shape, or an OpenAI Responses API item. Such a record is
// a run in a shape this reader does not read, not a header line: skipped,
// its run would be dropped with only a count to show for it (review
// finding 2: {"data": {"messages": [...]}}, {"output": [{"type":
// "function_call", ...}]}). Each value is visited once; depth is bounded
// by the decoder's nesting limit.
type headerScan struct{ unreadScan }

func (s *headerScan) walk(v any) {
	if s.err != "" {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if what := headerCallShaped(v); what != "" {
			s.err = fmt.Sprintf("%s is %s: %s; a header line has %s and no calls", renderPath(s.path), what, s.t.TopLevel, s.t.Header)
			return
		}
		keys := slices.Sorted(maps.Keys(v)) // in key order: the first problem found is the same on every run
		for _, k := range keys {
			s.push(k, -1)
			if strings.EqualFold(strings.TrimSpace(k), "messages") {
				s.err = fmt.Sprintf("%s: a transcript nested under %s: this reader wants %s at the top level", renderPath(s.path), Clip(fmt.Sprintf("%q", s.path[len(s.path)-2].key), 100), s.t.Transcript)
			} else {
				s.walk(v[k])
			}
			s.pop()
			if s.err != "" {
				return
			}
		}
	case []any:
		if HoldsMessages(v) {
			s.err = fmt.Sprintf("%s holds a list of messages (objects with a role): %s; a header line has %s", renderPath(s.path), s.t.TopLevel, s.t.Header)
			return
		}
		for i, e := range v {
			s.push("", i)
			s.walk(e)
			s.pop()
			if s.err != "" {
				return
			}
		}
	}
}

// headerCallShaped says which call shape (nested.go's, or OpenAI's
// {"function": {"name", "arguments"}}) or Responses API item (type
// function_call, function_call_output or message) an object has, or
// returns "". It is narrower than callShaped: a header may describe the
// tools ({"type": "function", "function": {"name", "parameters"}}), which
// is not a call.
func headerCallShaped(m map[string]any) string {
	if calls, _, err := callShapes(m); len(calls) > 0 || err != "" {
		return "a tool call"
	}
	if fn, ok := m["function"].(map[string]any); ok {
		_, name := fn["name"].(string)
		_, args := fn["arguments"]
		if name && args {
			return "a tool call"
		}
	}
	if reactAction(m) {
		return "a ReAct action (a tool call)"
	}
	// A harness's own step: a non-empty string naming the tool beside its
	// arguments ({"tool": "send_email", "args": {...}}).
	for k, v := range m {
		if name, ok := v.(string); ok && name != "" && NamesCall(k) {
			for _, a := range []string{"args", "arguments", "input", "parameters"} {
				if _, ok := m[a]; ok {
					return "a tool call"
				}
			}
		}
	}
	typ, _ := m["type"].(string)
	switch typ {
	case "function_call", "function_call_output", "message", "tool_use", "tool_result":
		return fmt.Sprintf("an item of type %q (an OpenAI Responses API or Anthropic item?)", typ)
	}
	if strings.HasSuffix(typ, "_call") || strings.HasSuffix(typ, "_call_output") {
		// The Responses API's built-in tool calls (web_search_call,
		// computer_call, mcp_call, ...): a Response object whose output
		// holds only these was skipped as a header line.
		return fmt.Sprintf("an item of type %q (an OpenAI Responses API item? use --transcript-format openai-responses)", Clip(typ, 100))
	}
	return ""
}

// HoldsMessages reports whether v is a list with an object that has a
// "role" member, in any case.
func HoldsMessages(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			continue
		}
		for k := range obj {
			if strings.EqualFold(strings.TrimSpace(k), "role") {
				return true
			}
		}
	}
	return false
}

// FindTranscript searches the members of a record that has no transcript
// member, in the order of names, for a transcript or a call at any depth
// (a "messages" member, a list of messages, a call shape, a Responses API
// or Anthropic item). It returns "path: reason" for the first one found,
// or "" for a record that is a header line: a reader skips such a record
// only when this is "", so that a run in a shape it does not read is never
// dropped as a header.
func FindTranscript(rec map[string]any, names []string) string {
	return findTranscript(&OpenAI, rec, names)
}

func findTranscript(t *Terms, rec map[string]any, names []string) string {
	s := headerScan{unreadScan{t: t}}
	for _, k := range names {
		s.push(k, -1)
		s.walk(rec[k])
		s.pop()
		if s.err != "" {
			return s.err
		}
	}
	return ""
}
