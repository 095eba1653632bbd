package responses

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like
// openai-responses: a Response object ("object":
// "response"), or records with "input" or "output" lists holding item
// types only the Responses API has (function_call, function_call_output,
// input_text, output_text, reasoning), or a logged call whose "request"
// has "input".
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	if h.Strings["object"] == "response" || (h.Keys["request"] && h.Inner["input"]) {
		return true
	}
	if !h.Keys["input"] && !h.Keys["output"] && !h.Keys["request"] {
		return false
	}
	return frame.Any(h.Types, "function_call", "function_call_output", "input_text", "output_text", "reasoning")
}
