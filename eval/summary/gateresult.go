package summary

import "github.com/tenetlang/tenet/compiler/bundle"

// GateResult is the outcome of one requirement of one gate for one
// condition, as eval/gates evaluates it against the condition's metrics.
// It is defined here, beside the metrics it judges, so that eval/report
// can hold gate results without importing eval/gates (and through it
// CEL). A requirement that cannot be evaluated (the condition's metrics
// are unavailable, a rate is null, an evaluation error) fails: gates fail
// closed.
type GateResult struct {
	Contract    string // the name of the contract that declares the gate
	Gate        string
	Condition   string // the condition's display name (metrics.Condition.Name)
	Requirement string // the CEL text
	Range       bundle.Range
	Passed      bool
	Reason      string // why it failed, with the values of the metrics it reads
	// NoRuns marks a requirement of a condition the gate lists that has no
	// run at all: the gate was not evaluated, which is bad input (a typo in
	// the condition name, or runs of another contract), not a failed gate.
	NoRuns bool
}
