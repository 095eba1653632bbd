package agentdojo

import "github.com/tenetlang/tenet/eval/transcript/frame"

// Sniff says whether head, the start of a file, looks like an AgentDojo
// run file: a JSON object with "suite_name", "pipeline_name" and
// "user_task_id" at the top level. "messages" is not required: it comes
// after "injections", which may fill the head. (An Invariant export of
// AgentDojo runs has these under "metadata": openai-messages.)
func Sniff(head []byte) bool { return SniffHead(frame.Scan(head)) }

// SniffHead, the format's frame.Sniffer, is Sniff over a head already
// scanned.
func SniffHead(h frame.Head) bool {
	return h.Keys["suite_name"] && h.Keys["pipeline_name"] && h.Keys["user_task_id"]
}
