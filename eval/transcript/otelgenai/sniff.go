package otelgenai

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like an OTLP/JSON
// trace export (a frame.Sniffer): records carrying "resourceSpans".
func Sniff(head []byte) bool {
	return frame.Scan(head).Keys["resourceSpans"]
}
