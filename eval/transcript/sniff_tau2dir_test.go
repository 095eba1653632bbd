package transcript

import (
	"slices"
	"testing"
)

// TestSniffTau2Directory: under format auto, both files of tau2's
// directory format are claimed by tau-bench alone: a simulation file (by
// openai-messages too, for its "messages", before) and results.json (by
// no format, before), whether or not its head reaches "tasks".
func TestSniffTau2Directory(t *testing.T) {
	for _, head := range []string{
		`{"id": "s", "task_id": "7", "timestamp": "t", "termination_reason": "user_stop", "reward_info": {"reward": 1.0}, "messages": [{"role": "user", "content": "hi"}]}`,
		`{"id": "s", "task_id": "7", "termination_reason": "user_stop", "mode": "full_duplex", "ticks": [`,
		`{"timestamp": "t", "info": {"num_trials": 1}, "tasks": [], "simulation_index": []}`,
		`{"timestamp": "t", "info": {"agent_info": {"llm": "m"}, "user_info": {"llm": "u"}, "environment_info": {"policy": "`,
	} {
		if got := Sniff([]byte(head)); !slices.Equal(got, []string{"tau-bench"}) {
			t.Errorf("Sniff(%.70q) = %v, want [tau-bench]", head, got)
		}
	}
}
