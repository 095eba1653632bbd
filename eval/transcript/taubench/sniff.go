package taubench

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like tau-bench
// results (a frame.Sniffer): tau2-bench's object with "simulations", or
// tau-bench's array of results each with a "traj".
func Sniff(head []byte) bool {
	h := frame.Scan(head)
	return h.Keys["simulations"] || h.Keys["traj"]
}
