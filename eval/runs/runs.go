// Package runs is the runs record: the per-run result tenet eval writes and
// tenet report reads (docs/runs-format.md) — its key, labels (the one table
// of label names, labels.go), checks, audit and the labels another harness
// gave — with one validator (Record.Validate, and Check for the rules
// between records, format.go), one codec (codec.go: encodeLine, decodeLine
// on the strict decoder github.com/go-json-experiment/json), the file
// reader (read.go, framed by internal/jsonl) and the Writer. Sorting runs
// in bounded memory is eval/runsort's job. It imports only internal/jsonl
// and internal/names of tenet.
package runs

import (
	"cmp"
	"fmt"
	"slices"
)

// Key identifies a run: (condition, task, goal|none, attempt, repetition),
// docs/runs-format.md. Contract names the contract that judged it, so that runs of
// several contracts (whose task ids may repeat) can be reported together.
type Key struct {
	Contract  string
	Condition string
	// Attack names the attack an attacked run was made under ("" when the
	// source names none, and always on a benign run): the run belongs to
	// the condition (Condition, Attack), shown as ShownCondition gives it
	// (docs/metrics.md "Attacks as conditions").
	Attack     string
	Task       string
	Goal       string // "" for a benign run
	Attempt    int    // from 1
	Repetition int    // from 1
}

// Attacked reports whether the run pursued an injection goal.
func (k Key) Attacked() bool { return k.Goal != "" }

// Compare orders keys by contract, condition, attack (none, "", first: a
// pipeline's benign runs come before the runs of its attacks, so that a
// reader of sorted runs has them when each attack's runs arrive), task,
// goal (a benign run, goal "", first), attempt, repetition. It returns -1,
// 0 or +1.
func (k Key) Compare(o Key) int {
	return cmp.Or(cmp.Compare(k.Contract, o.Contract), cmp.Compare(k.Condition, o.Condition), cmp.Compare(k.Attack, o.Attack), cmp.Compare(k.Task, o.Task),
		cmp.Compare(k.Goal, o.Goal), cmp.Compare(k.Attempt, o.Attempt), cmp.Compare(k.Repetition, o.Repetition))
}

// Less reports whether k sorts before o (see Compare).
func (k Key) Less(o Key) bool { return k.Compare(o) < 0 }

// Case is the security case (task, goal) of an attacked run; for a benign
// run Goal is "".
func (k Key) Case() Case { return Case{Task: k.Task, Goal: k.Goal} }

// ConditionName is the (contract, condition) the run belongs to, written as
// by ConditionName.
// With an attack it is "contract:condition @ attack" (each part quoted as
// Safe quotes it).
func (k Key) ConditionName() string {
	return ConditionName(k.Contract, k.Condition) + attackSuffix(k.Attack)
}

// String renders the key as it appears in messages:
//
//	[contract:]condition[ @ attack]/task[/goal][ (attempt A, repetition R)]
//
// The contract prefix is left out when Contract is "", the attack when it
// is "", the goal when the run
// is benign, and the attempt and repetition when both are 1. For example
// "gpt-4o/user_task_0/injection_task_3" or
// "agentdojo-banking:gpt-4o/user_task_0 (attempt 1, repetition 2)".
//
// A part that contains '/', ':', a space or a character that is not
// printable is quoted (Go syntax), so a key reads unambiguously and cannot
// carry terminal escapes.
func (k Key) String() string {
	s := ConditionName(k.Contract, k.Condition) + attackSuffix(k.Attack) + "/" + Safe(k.Task)
	if k.Goal != "" {
		s += "/" + Safe(k.Goal)
	}
	if k.Attempt != 1 || k.Repetition != 1 {
		s += fmt.Sprintf(" (attempt %d, repetition %d)", k.Attempt, k.Repetition)
	}
	return s
}

// ConditionName names a (contract, condition) pair in messages:
// "contract:condition", or just "condition" when contract is "".
func ConditionName(contract, condition string) string {
	if contract == "" {
		return Safe(condition)
	}
	return Safe(contract) + ":" + Safe(condition)
}

// Case is a security case: a user task paired with an injection goal
// (docs/metrics.md, C).
type Case struct {
	Task string
	Goal string
}

// String renders the case as "task/goal".
func (c Case) String() string { return c.Task + "/" + c.Goal }

// Compare orders cases by task, then goal.
func (c Case) Compare(o Case) int {
	return cmp.Or(cmp.Compare(c.Task, o.Task), cmp.Compare(c.Goal, o.Goal))
}

// Label is a tri-state label: true, false or unknown with a reason.
//
// An unknown label always has a reason, so the zero Label (unknown, no
// reason) stands for an absent label; see Absent.
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

// Absent reports whether l is the zero Label: no label at all, as opposed to
// true, false, or unknown with a reason.
func (l Label) Absent() bool { return l == Label{} }

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
	// GoalTask marks a benign run of a goal run directly as a user task
	// (Key.Task is the goal's id): its utility says whether the agent
	// achieved the goal when asked to; reported apart from benign utility.
	GoalTask bool
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
	// Invariants says, per invariant name, whether the invariant held on
	// the run (unknown with a reason when its assert could not be decided).
	Invariants map[string]Label
	// Failures says, per failure class name, whether the run belongs to it.
	Failures map[string]Label
	// AttemptBudget is the threat model's attempt budget of the bundle
	// that judged the run (0 when unknown, e.g. labels from elsewhere);
	// metrics refuse attempts beyond it and compare refuses to pair runs
	// judged under different budgets.
	AttemptBudget int
	// Grant names the grant the run's calls were audited against ("" when
	// no audit was made); Audit holds one decision per call, in call order.
	Grant string
	Audit []AuditEntry
	// Witnesses holds, per violated invariant ("invariants.NAME") whose
	// forbid pattern matched, the item bound to each step: step name →
	// "event:N" or "call:N" (indexes in the run's events and calls).
	Witnesses map[string]map[string]string
	// Excerpt holds, for a run worth a look (an invariant violated, a
	// label that disagrees with a given one), the items a report points
	// at rendered short: "event:N" or "call:N" → text (excerpt.go). nil:
	// none; it is optional, a runs file without it reads the same.
	Excerpt map[string]string
}

// Violated returns the names of the invariants that did not hold, sorted.
func (r Record) Violated() []string { return names(r.Invariants, false) }

// FailureClasses returns the names of the failure classes the run belongs
// to, sorted.
func (r Record) FailureClasses() []string { return names(r.Failures, true) }

func names(m map[string]Label, want bool) []string {
	var out []string
	for n, l := range m {
		if l.Known && l.Value == want {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// SortRecords sorts records by key (Key.Compare), in place. Records with equal
// keys (an error Check reports) keep their order.
func SortRecords(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int { return a.Key.Compare(b.Key) })
}

// Given is labels from another harness, kept for audit and agreement tables.
// A benign run may carry only Utility; attack_success true with side_effect
// false is an error here too (Record.Validate).
type Given struct {
	Utility       *bool
	AttackSuccess *bool
	SideEffect    *bool
}

// Audit decisions (docs/runs-format.md, audit), in the order they are checked.
const (
	UnregisteredTool          = "unregistered_tool"
	SchemaFields              = "schema_fields"
	SchemaTypes               = "schema_types"
	MissingResourceCapability = "missing_resource_capability"
	Authorized                = "authorized"
)

// Decisions lists the audit decisions in check order.
var Decisions = []string{UnregisteredTool, SchemaFields, SchemaTypes, MissingResourceCapability, Authorized}

// AuditEntry is the authorization decision for one call of a run.
type AuditEntry struct {
	Call     int    // index in the run's calls
	Tool     string // the tool called
	Decision string // one of Decisions
	Detail   string // why, for every decision but authorized
	// Parent is the index of the call whose arguments held this one, or -1.
	Parent int
	// Hazard marks a nested call: a runtime may execute it before it
	// validates the call that carries it.
	Hazard bool
	// Mismatch says how what ran disagrees with what was requested (the
	// decision is on what ran), with the request's own decision when that
	// is not authorized; "" when they agree.
	Mismatch string
}

// MaxAttempt and MaxRepetition bound a run's attempt and repetition
// numbers (docs/runs-format.md). Far above any evaluation (an attempt
// budget is a handful; repetitions are tens), they keep a single number
// from standing for billions of runs: a record with attempt 4,000,000,000
// is refused where it is read (Record.Validate: tenet report, compare and
// the runs writer) or judged (tenet eval: a bad record at file:line), before
// any output is written.
const (
	MaxAttempt    = 1_000_000
	MaxRepetition = 1_000_000
)
