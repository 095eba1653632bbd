package build

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// This file searches the parts of a message the reader does not read for
// a call it would otherwise pass over: a call there would be read as "no
// call", so that a send that ran is invisible to criteria and the audit
// (issue 13, review finding 1: Gemini's parts, LangChain's
// additional_kwargs, a harness's "actions" or "output" list). The parts
// the reader reads are left out: the known message keys' values, the
// known blocks' fields, and calls' arguments (which nested.go searches,
// reading the calls there).

// unreadScan searches values the reader does not read. Each value is
// visited once, so the work is linear in the size of the message; depth is
// bounded by the decoder's nesting limit (Options.MaxDepth).
type unreadScan struct {
	path []pathElem
	err  string
	// top marks a scan of a record's members beside "messages" (see
	// TopLevelProblem): there a message object is also out of place.
	top bool
	t   *Terms // the reader's words in the hints
}

func (s *unreadScan) push(key string, index int) { s.path = append(s.path, pathElem{key, index}) }
func (s *unreadScan) pop()                       { s.path = s.path[:len(s.path)-1] }

// walk checks an object for a call shape before its members (so that a
// call under a key such as "tool_calls" is named as the call it is), then
// each member in key order, then the member's key itself.
func (s *unreadScan) walk(v any) {
	if s.err != "" {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if what := callShaped(v); what != "" {
			s.fail(what, v)
			return
		}
		if s.top && isMessageObject(v) {
			s.fail("a message (an object with a role and content or calls)", v)
			return
		}
		keys := slices.Sorted(maps.Keys(v)) // in key order: the first problem found is the same on every run
		for _, k := range keys {
			s.push(k, -1)
			s.walk(v[k])
			if s.err == "" && NamesCall(k) && carries(v[k]) {
				s.fail(fmt.Sprintf("key %q names a call, a tool or a function", k), v)
			}
			s.pop()
			if s.err != "" {
				return
			}
		}
	case []any:
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

// fail records the finding at the current path, with the likely cause.
func (s *unreadScan) fail(what string, obj map[string]any) {
	if s.err != "" {
		return
	}
	s.err = fmt.Sprintf("%s: %s in a place this reader does not read%s", renderPath(s.path), what, s.hint(obj))
}

// hint guesses which harness wrote the shape, from the path and the object.
func (s *unreadScan) hint(obj map[string]any) string {
	for _, e := range s.path {
		switch e.key {
		case "functionCall", "functionResponse", "function_response":
			return " (Gemini's parts? this reader wants " + s.t.Wants + ")"
		case "toolUse", "toolResult":
			return " (Bedrock Converse's toolUse? this reader wants OpenAI tool_calls or Anthropic tool_use blocks)"
		}
	}
	switch typ, _ := obj["type"].(string); typ {
	case "function_call", "function_call_output", "custom_tool_call", "computer_call":
		return " (" + s.t.ResponsesItem + ")"
	}
	if s.top && len(s.path) > 0 {
		switch strings.ToLower(s.path[0].key) {
		case "response", "choices", "completion", "message":
			return " (" + s.t.Response + ")"
		}
		return " (this reader reads calls and messages only under " + s.t.Transcript + ")"
	}
	if len(s.path) > 0 {
		switch strings.ToLower(s.path[0].key) {
		case "parts":
			return " (Gemini's parts? this reader wants " + s.t.Wants + ")"
		case "additional_kwargs":
			return " (LangChain's additional_kwargs? only its tool_calls are read)"
		}
	}
	return " (" + s.t.Convert + ")"
}

// renderPath renders a path as keys joined with "." and list indexes in
// brackets: "parts[0].functionCall". Keys are cut, being the record's.
func renderPath(path []pathElem) string {
	var sb strings.Builder
	for i, e := range path {
		switch {
		case e.index >= 0:
			fmt.Fprintf(&sb, "[%d]", e.index)
		case i == 0:
			sb.WriteString(Clip(e.key, 100))
		default:
			sb.WriteString("." + Clip(e.key, 100))
		}
	}
	return sb.String()
}

// carries reports whether a value under a key naming a call could carry
// one: an object, a non-empty list or a non-empty string. null, a number
// and a boolean cannot ("function_call": null, "tool_choice": false).
func carries(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return true
	case []any:
		return len(v) > 0
	case string:
		return v != ""
	}
	return false
}

// callShaped says which call shape an object has — one nested.go reads,
// {"name", "input"}, Gemini's and LangChain's {"name", "args"}, OpenAI's
// tool call {"function": {"name": ...}}, or a "type" naming a call (a
// Responses API function_call item) — or returns "".
func callShaped(m map[string]any) string {
	if calls, _, err := callShapes(m); len(calls) > 0 || err != "" {
		return "a tool call"
	}
	_, hasName := m["name"].(string)
	if hasName {
		for _, k := range []string{"input", "args", "arguments", "parameters"} {
			if _, ok := m[k]; ok {
				return "a tool call"
			}
		}
	}
	if fn, ok := m["function"].(map[string]any); ok {
		if _, ok := fn["name"].(string); ok {
			return "a tool call"
		}
	}
	if reactAction(m) {
		return "a ReAct action (a tool call)"
	}
	if typ, ok := m["type"].(string); ok && NamesCall(typ) && typ != "function" {
		return fmt.Sprintf("an object of type %q", Clip(typ, 100))
	}
	return ""
}

// isMessageObject reports whether m looks like a chat message: a string
// "role" (in any case) beside "content" or a call list.
func isMessageObject(m map[string]any) bool {
	role := false
	for k, v := range m {
		if _, ok := v.(string); ok && strings.EqualFold(strings.TrimSpace(k), "role") {
			role = true
		}
	}
	if !role {
		return false
	}
	for _, k := range []string{"content", "tool_calls", "function_call", "parts"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// TopLevelProblem searches the members of an openai-messages record beside
// "messages" for a call or a message, which this reader would pass over:
// a send logged as the model's response ({"response": {...}}, an OpenAI
// "choices" list, a Responses "output" list, a top-level "tool_calls")
// would be a run without that send (review 2, finding 1). It returns
// "path: reason (likely cause)" or "".
//
// "metadata" is not searched: it describes the run — a tool list
// ({"type": "function", "function": {"name", "parameters"}}), the
// injection task's ground-truth calls — and criteria read it as data, so
// a call shape there is not a call that ran; refusing it would refuse
// honest files. AgentDojo's other members ("index", "annotations") hold
// no call and pass.
//
// The request parameters that declare tools (toolDeclarations: an OpenAI
// request log's or fine-tuning file's "tools") are searched only for what
// a declaration never is (declarationProblem).
func TopLevelProblem(rec map[string]any) string { return topLevelProblem(&OpenAI, rec) }

func topLevelProblem(t *Terms, rec map[string]any) string {
	keys := make([]string, 0, len(rec))
	for k := range rec {
		if k != "messages" && k != "metadata" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if toolDeclarations[k] {
			if msg := declarationProblem(t, rec[k], []pathElem{{key: k, index: -1}}); msg != "" {
				return "record member " + msg
			}
			continue
		}
		s := unreadScan{top: true, t: t}
		s.push(k, -1)
		s.walk(rec[k])
		if s.err == "" && NamesCall(k) && carries(rec[k]) {
			s.fail(fmt.Sprintf("key %q names a call, a tool or a function", k), rec)
		}
		if s.err != "" {
			return "record member " + s.err
		}
	}
	return ""
}

// reactAction reports whether m is a ReAct agent's step: {"action": tool
// name, "action_input": args} (LangChain's AgentAction keeps them as
// tool and tool_input, which keys naming a tool already catch).
func reactAction(m map[string]any) bool {
	name, ok := m["action"].(string)
	_, input := m["action_input"]
	return ok && name != "" && input
}

// toolDeclarations are the members of an OpenAI request (and fine-tuning
// record) that describe the tools rather than call them: "tools" lists
// {"type": "function", "function": {"name", "description", "parameters"}},
// "tool_choice" may name one, the legacy "functions" and "function_call"
// likewise. Searched as unread members, every honest request log would be
// refused for its tool list.
var toolDeclarations = map[string]bool{"tools": true, "functions": true, "tool_choice": true, "function_call": true}

// declarationProblem searches a tool declaration member for a call with
// arguments, a Responses item or a list of messages (headerCallShaped,
// HoldsMessages): a declaration has no arguments, so such a thing is a
// call or a transcript out of place. It returns "path: reason" or "".
func declarationProblem(t *Terms, v any, path []pathElem) string {
	switch v := v.(type) {
	case map[string]any:
		if what := headerCallShaped(v); what != "" {
			return fmt.Sprintf("%s: %s in a place this reader does not read (a tool declaration has no arguments; this reader reads calls only under %s)", renderPath(path), what, t.Transcript)
		}
		keys := slices.Sorted(maps.Keys(v)) // in key order: the first problem found is the same on every run
		for _, k := range keys {
			if msg := declarationProblem(t, v[k], append(path, pathElem{key: k, index: -1})); msg != "" {
				return msg
			}
		}
	case []any:
		if HoldsMessages(v) {
			return fmt.Sprintf("%s: a list of messages in a place this reader does not read (this reader reads messages only under %s)", renderPath(path), t.Transcript)
		}
		for i, e := range v {
			if msg := declarationProblem(t, e, append(path, pathElem{index: i})); msg != "" {
				return msg
			}
		}
	}
	return ""
}
