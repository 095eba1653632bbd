// Package runs defines the labelled run: the per-run result tenet eval writes
// and tenet report reads (docs/runs-format.md), with its key, labels and the
// labels another harness gave.
package runs

// Key identifies a run: (condition, task, goal|none, attempt, repetition),
// DESIGN §6. Contract names the contract that judged it, so that runs of
// several contracts (whose task ids may repeat) can be reported together.
type Key struct {
	Contract   string
	Condition  string
	Task       string
	Goal       string // "" for a benign run
	Attempt    int    // from 1
	Repetition int    // from 1
}

// Attacked reports whether the run pursued an injection goal.
func (k Key) Attacked() bool { return k.Goal != "" }

// Label is a tri-state label: true, false or unknown with a reason.
type Label struct {
	Known  bool
	Value  bool   // meaningful only when Known
	Reason string // why the label is unknown; empty when Known
}

// True, False and Unknown build labels.
func True() Label                 { return Label{Known: true, Value: true} }
func False() Label                { return Label{Known: true} }
func Bool(v bool) Label           { return Label{Known: true, Value: v} }
func Unknown(reason string) Label { return Label{Reason: reason} }

// String renders a label as "true", "false" or "unknown".
func (l Label) String() string {
	switch {
	case !l.Known:
		return "unknown"
	case l.Value:
		return "true"
	default:
		return "false"
	}
}

// Record is one labelled run.
type Record struct {
	Bundle string // "sha256:<hex>" of the bundle that judged it; "" for labels from elsewhere
	Key    Key
	// Origin is where the transcript came from (file and line), when known.
	OriginFile string
	OriginLine int
	// Labels computed for the run. AttackSuccess, SideEffect and Exposed are
	// meaningful only for attacked runs; Exposed may be absent (HasExposed false)
	// when the contract declares no exposure criterion.
	Utility       Label
	AttackSuccess Label
	SideEffect    Label
	Exposed       Label
	HasExposed    bool
	// Given holds labels another harness produced (nil fields: not given).
	Given Given
}

// Given is labels from another harness, kept for audit and agreement tables.
type Given struct {
	Utility       *bool
	AttackSuccess *bool
	SideEffect    *bool
}
