package anthropic

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like
// anthropic-messages: a logged call's "request" holding "messages" (or,
// when the head is cut inside the request, beside a "response" with a
// Message's "stop_reason"; a logged call to another endpoint has
// neither), or messages (a "messages" member or a bare list of them)
// holding blocks only Anthropic's API has (tool_use, tool_result,
// thinking). A conversation of plain text is left to openai-messages,
// which reads it the same, so that the two never both claim a file.
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	if h.Keys["request"] && !h.Inner["input"] && (h.Inner["messages"] || h.Keys["response"] && h.Inner["stop_reason"]) {
		return true
	}
	if h.Keys["tenet_run"] || h.Keys["jsonrpc"] || h.Keys["resourceSpans"] ||
		(h.Keys["suite_name"] && h.Keys["pipeline_name"] && h.Keys["user_task_id"]) { // an AgentDojo run file's thinking blocks (agentdojo-run)
		return false
	}
	return (h.Keys["messages"] || h.Keys["role"]) && anthropicBlocks(h)
}

// anthropicBlocks reports whether h holds a block type only Anthropic's
// Messages API has.
func anthropicBlocks(h frame.Head) bool {
	return frame.Any(h.Types, "tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "mcp_tool_use", "mcp_tool_result")
}
