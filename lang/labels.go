package lang

// The label names as the language spells them: the criterion attribute
// of a task and of a variant of it (utility), the attributes of a
// source's given block (utility, attack_success, side_effect), the block
// type whose criteria make the side_effect label, and the keys of a
// test's expect object. They are the names of a run's labels in the runs
// file (docs/runs-format.md) and the one place the language spells them;
// eval/runs holds the same table for the runs record (lang is below eval
// and does not import it), and a test there checks the two agree.
const (
	LabelUtility       = "utility"
	LabelAttackSuccess = "attack_success"
	LabelSideEffect    = "side_effect"
	LabelExposed       = "exposed"
)

// LabelNames returns the label names in the runs file's order.
func LabelNames() []string {
	return []string{LabelUtility, LabelAttackSuccess, LabelSideEffect, LabelExposed}
}
