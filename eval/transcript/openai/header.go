package openai

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// recordProblem says why rec, an openai-messages record, is bad input
// before its members are read, or returns "". The members the format reads
// are "messages" and "metadata"; JSON member names are case-sensitive, so
// a record spelling one of them in another case ("Messages", "METADATA")
// or with white space around it ("messages ") would have it silently
// ignored — a run read as a header line, or a run without its metadata —
// and is bad input instead, naming the likely cause. A member so spelt
// next to the exact one is allowed (it is kept in Run.Record).
//
// A record without "messages" is a header line (such as the
// {"metadata": {...}} on line 1 of an AgentDojo file), skipped and
// counted, unless a member holds a list of messages, objects with a
// "role" (in any case): a transcript under another name ("conversation",
// "turns"), which would drop a run silently.
//
// Members are looked at in sorted order, so the reason given does not
// depend on the record's member order.
func recordProblem(rec map[string]any) string {
	// A JSON-RPC message is a line of an MCP session log, not a header
	// line: skipped, its tools/call would be no call.
	if _, ok := rec["jsonrpc"]; ok {
		if _, ok := rec["messages"]; !ok {
			return `a JSON-RPC message, not an openai-messages record: an MCP session log? (format "mcp", --transcript-format mcp)`
		}
	}
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, known := range []string{"messages", "metadata"} {
		if _, ok := rec[known]; ok {
			continue
		}
		for _, k := range names {
			if strings.EqualFold(strings.TrimSpace(k), known) {
				return fmt.Sprintf(`no %q member, but %s: member names are case-sensitive (a misspelt %q?)`, known, build.Clip(fmt.Sprintf("%q", k), 100), known)
			}
		}
	}
	if _, ok := rec["messages"]; ok {
		if rec["suite_name"] != nil && rec["pipeline_name"] != nil && rec["user_task_id"] != nil {
			// AgentDojo's run file, compacted: its identity would be
			// no metadata, its FunctionCalls misread or refused.
			return `"suite_name", "pipeline_name" and "user_task_id" beside "messages": an AgentDojo run file's object (format "agentdojo-run"); openai-messages wants them under "metadata"`
		}
		return ""
	}
	if _, ok := rec["tenet_run"]; ok {
		// tenet's own run format: its events would read as messages
		// under another name, or the record as a header line.
		return `no "messages" member, but "tenet_run": a run in tenet's own format (format "tenet")`
	}
	for _, k := range names {
		if build.HoldsMessages(rec[k]) {
			return fmt.Sprintf(`no "messages" member, but %s holds a list of messages (objects with a role): a transcript must be under "messages"; a header line has no messages`, build.Clip(fmt.Sprintf("%q", k), 100))
		}
	}
	if _, ok := rec["resourceSpans"]; ok {
		// Not a header: a line of OpenTelemetry spans, whose calls would
		// otherwise be skipped unread.
		return `no "messages" member, but "resourceSpans": an OpenTelemetry trace export (OTLP/JSON), likely format otel-genai`
	}
	if msg := build.FindTranscript(rec, names); msg != "" {
		return `no "messages" member, but ` + msg
	}
	return ""
}

// anthropicProblem says why rec, read as openai-messages, is an Anthropic
// Messages API record that this reader would misread, or returns "". Such
// a record's tool_use and tool_result blocks are read, but its system
// prompt is the top-level "system" (which this reader would keep in
// Run.Record only: a run without its system prompt) and a logged call
// keeps the model's answer apart from the request ({"request",
// "response"}, or "response" beside "messages": a Message, type
// "message"). The anthropic-messages reader reads all three.
func anthropicProblem(rec map[string]any) string {
	const hint = `: an Anthropic Messages API record? read it with the format "anthropic-messages"`
	if _, ok := rec["messages"]; ok {
		switch s := rec["system"].(type) {
		case string:
			if s != "" {
				return `record member "system": a system prompt beside "messages", which this reader does not read (it reads system messages)` + hint
			}
		case []any:
			if len(s) > 0 {
				return `record member "system": system prompt blocks beside "messages", which this reader does not read (it reads system messages)` + hint
			}
		}
	}
	if req, ok := rec["request"].(map[string]any); ok {
		if _, ok := req["messages"]; ok && rec["messages"] == nil {
			if isAnthropicMessage(rec["response"]) || req["system"] != nil {
				return `no "messages" member, but "request" holds a Messages API request (with its "response" or "system")` + hint
			}
		}
	}
	if isAnthropicMessage(rec["response"]) {
		return `record member "response": a Messages API response (type "message") beside the request, which this reader does not read` + hint
	}
	return ""
}

// isAnthropicMessage reports whether v is a Messages API response: an
// object with "type": "message" and "role": "assistant".
func isAnthropicMessage(v any) bool {
	m, ok := v.(map[string]any)
	return ok && m["type"] == "message" && m["role"] == "assistant"
}
