package taubench

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like tau-bench
// results: tau2-bench's object with "simulations", or
// tau-bench's array of results each with a "traj".
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	return h.Keys["simulations"] || h.Keys["traj"]
}
