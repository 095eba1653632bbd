package openai

import "testing"

// TestTauBenchHints checks that tau-bench and tau2-bench shapes given to
// this reader are refused with a hint naming the tau-bench format (each
// was refused before, without the hint).
func TestTauBenchHints(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"[", `invalid JSON (offset 1): unexpected end of JSON input (the first line of one JSON document written over many lines, not JSONL: a whole-file format's log such as tau-bench or inspect, or records to compact with jq -c)`},
		{"{", `invalid JSON (offset 1): unexpected end of JSON input (the first line of one JSON document written over many lines, not JSONL: a whole-file format's log such as tau-bench or inspect, or records to compact with jq -c)`},
		{`[{"task_id": 1, "traj": [], "reward": 1}]`, `record is a list of objects with "traj", want an object: a tau-bench results file? its format is "tau-bench"`},
		{`{"messages": [{"role": "assistant", "tool_calls": [{"id": "a", "name": "f", "arguments": {}, "requestor": "user"}]}]}`, `message 0: tool_calls[0]: function: missing, but "name" and "requestor": a tau2-bench tool call {id, name, arguments, requestor}? its format is "tau-bench" (on its results file or simulation file)`},
		{`[1]`, "record is a list, want an object"},
	} {
		_, _, msg := Decode([]byte(tc.line))
		if msg != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.line, msg, tc.want)
		}
	}
}
