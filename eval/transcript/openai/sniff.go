package openai

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like
// openai-messages: records with a "messages" list
// whose blocks are not Anthropic's (tool_use, tool_result, thinking: those
// are anthropic-messages' to claim), and that are not a logged
// anthropic call ("request" with "response").
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	if !h.Keys["messages"] || (h.Keys["request"] && h.Keys["response"]) {
		return false
	}
	if h.Keys["tenet_run"] || h.Keys["jsonrpc"] || h.Keys["resourceSpans"] || h.Keys["simulations"] ||
		(h.Keys["task_id"] && h.Keys["termination_reason"]) || // a tau2 simulation (tau-bench)
		(h.Keys["suite_name"] && h.Keys["pipeline_name"] && h.Keys["user_task_id"]) { // an AgentDojo run file (agentdojo-run)
		return false
	}
	return !frame.Any(h.Types, "tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "mcp_tool_use", "mcp_tool_result")
}
