package inspect

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like an Inspect AI
// log (a frame.Sniffer): a ZIP archive (a .eval log), or a .json log,
// one object with the eval spec "eval" beside "version", "status" or
// "samples".
func Sniff(head []byte) bool {
	h := frame.Scan(head)
	return h.ZIP || (h.Keys["eval"] && frame.Any(h.Keys, "version", "status", "samples"))
}
