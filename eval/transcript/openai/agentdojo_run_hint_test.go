package openai

import "testing"

// TestAgentDojoRunHint: an AgentDojo run file's object compacted onto one
// line is refused naming agentdojo-run. Without the refusal, a run with
// no calls read as a run whose metadata is {} (its suite, task and labels
// at the top level, unread), and the sniffer claimed run files.
func TestAgentDojoRunHint(t *testing.T) {
	line := `{"suite_name": "banking", "pipeline_name": "p", "user_task_id": "user_task_0", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}], "utility": true}`
	want := `"suite_name", "pipeline_name" and "user_task_id" beside "messages": an AgentDojo run file's object (format "agentdojo-run"); openai-messages wants them under "metadata"`
	if _, _, msg := Decode([]byte(line)); msg != want {
		t.Errorf("got %s\nwant %s", msg, want)
	}
	if Sniff([]byte(line)) {
		t.Error("openai-messages claims an AgentDojo run file")
	}
	// An Invariant export keeps them under "metadata": still this format's.
	export := `{"messages": [{"role": "user", "content": "hi"}], "metadata": {"suite_name": "banking", "model": "p", "user_task_id": "user_task_0"}}`
	if rn, _, msg := Decode([]byte(export)); msg != "" || rn.Meta["suite_name"] != "banking" || !Sniff([]byte(export)) {
		t.Errorf("export: %q", msg)
	}
}
