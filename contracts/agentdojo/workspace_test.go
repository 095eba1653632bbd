package agentdojo_test

import "testing"

// TestWorkspaceConformance: 40 benign utility, 40 utility-under-attack and
// 40 attack-success labels per agent, 1440 in all. claude-3-opus has 34
// attacked runs with empty transcripts: their labels (68) are unknown, with
// the reason; every other label equals AgentDojo's.
func TestWorkspaceConformance(t *testing.T) {
	checkSuite(t, suite{name: "workspace", tasks: 40, unknown: 34})
}
