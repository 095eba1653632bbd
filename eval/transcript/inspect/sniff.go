package inspect

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like an Inspect AI
// log: a ZIP archive (a .eval log), or a .json log,
// one object with the eval spec "eval" beside "version", "status" or
// "samples".
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	return h.ZIP || (h.Keys["eval"] && frame.Any(h.Keys, "version", "status", "samples"))
}
