package agentdojo_test

import "testing"

// TestTravelConformance: 20 benign utility, 20 utility-under-attack and 20
// attack-success labels per agent, 720 in all, every one equal. No travel
// transcript is empty.
func TestTravelConformance(t *testing.T) {
	checkSuite(t, suite{name: "travel", tasks: 20, unknown: 0})
}
