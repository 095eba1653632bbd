package native

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like tenet's own
// run format (a frame.Sniffer): records carrying "tenet_run", the member
// every such record must have.
func Sniff(head []byte) bool {
	return frame.Scan(head).Keys["tenet_run"]
}
