package mcp

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like an MCP session
// log (a frame.Sniffer): JSON-RPC messages, whose records carry
// "jsonrpc".
func Sniff(head []byte) bool {
	return frame.Scan(head).Keys["jsonrpc"]
}
