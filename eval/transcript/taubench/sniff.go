package taubench

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like tau-bench
// results: tau2-bench's object with "simulations", tau-bench's array of
// results each with a "traj", or a file of tau2's directory format — its
// results.json ("info" naming the agent and the user, "tasks" or
// "simulation_index") or one simulation ("task_id" and
// "termination_reason").
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned (the registry scans a file's head once for all the
// formats).
func SniffHead(h frame.Head) bool {
	if h.Keys["simulations"] || h.Keys["traj"] {
		return true
	}
	if h.Keys["info"] && (h.Keys["tasks"] || h.Keys["simulation_index"] || (h.Inner["agent_info"] && h.Inner["user_info"])) {
		return true
	}
	return h.Keys["task_id"] && h.Keys["termination_reason"]
}
