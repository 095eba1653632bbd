package agentdojo_test

import "testing"

// TestSlackConformance: 21 benign utility, 21 utility-under-attack and
// 21 attack-success labels per agent, 756 in all, every one equal. No slack
// transcript is empty.
func TestSlackConformance(t *testing.T) {
	checkSuite(t, suite{name: "slack", tasks: 21, unknown: 0})
}
