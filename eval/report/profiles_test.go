package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/summary"
)

// TestProfilesSection: a Document with profile flips validates against
// the schema (the member is present only then) and the table prints one
// line per label with every kind of flip, the goal-task runs' utility on
// its own goal_task_utility line (the label column as wide as it).
func TestProfilesSection(t *testing.T) {
	d := evalDocument(t)
	d.Profiles = []summary.ProfileFlips{{Contract: "checks", Condition: "a", Profile: "corrected", Paired: 4, Unpaired: 1, Labels: []summary.LabelFlips{
		{Label: "utility", Same: 4},
		{Label: "attack_success", TrueToFalse: 2, FalseToTrue: 1, KnownToUnknown: 1},
		{Label: "side_effect", UnknownToKnown: 1, Same: 3},
		{Label: "goal_task_utility", FalseToTrue: 3},
	}}}
	out := writeJSON(t, d)
	if err := reportSchema(t).Validate(decodeJSON(t, out)); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte(`"known_to_unknown": 1,`)) || !bytes.Contains(out, []byte(`"label": "goal_task_utility",`)) {
		t.Errorf("JSON without the flips:\n%s", out)
	}
	var b strings.Builder
	WriteProfiles(&b, d.Profiles)
	want := `
profiles: labels flipped under each profile (condition+profile vs. condition, runs paired by task, goal, attempt, repetition)
  checks  a  +corrected  4 runs paired, 1 without a base run
    utility            0 flips  true→false 0  false→true 0  known→unknown 0  unknown→known 0
    attack_success     4 flips  true→false 2  false→true 1  known→unknown 1  unknown→known 0
    side_effect        1 flip  true→false 0  false→true 0  known→unknown 0  unknown→known 1
    goal_task_utility  3 flips  true→false 0  false→true 3  known→unknown 0  unknown→known 0
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	// Without profiles: no member, no section.
	d.Profiles = nil
	if bytes.Contains(writeJSON(t, d), []byte(`"profiles"`)) {
		t.Error("a Document without profiles has a profiles member")
	}
}
