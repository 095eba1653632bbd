package metrics

import (
	"fmt"
	"slices"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// Groups splits records by (contract, condition): each group sorted by key
// (runs.SortRecords, so records with equal keys keep their order), the
// groups sorted by (contract, condition). It does not modify recs. Compute
// and tally's Agree, CountChecks and CountAudit work group by group in this order.
func Groups(recs []runs.Record) [][]runs.Record { return groups(recs) }

// Group is one (contract, condition) whose runs are added one at a time,
// in key order: it computes for them what Compute, Agree, CountChecks and
// CountAudit compute for that condition, so that a report can be built
// from a stream of sorted records holding one condition at a time.
//
// Of each run it keeps only what Compute reads (key, labels, bundle,
// attempt budget; the whole record when it is invalid, for the error), and
// folds the rest into the counts as the run is added.
type Group struct {
	contract, condition string
	// attack is the attack of the group's attacked runs ("" for none
	// named); its benign runs are its pipeline's, which carry none.
	// aggregate is set for an attack_aggregate's condition, whose runs are
	// combined ones (attacks.go) and whose errs say why it cannot be
	// computed, if it cannot.
	attack    string
	aggregate bool
	errs      []error
	recs      []runs.Record
	last      runs.Key
	strs      map[string]string
	checks    *tally.ChecksAcc
	audit     *tally.AuditAcc
	agree     tally.Agreement
}

// NewGroup returns an empty Group for (contract, condition).
func NewGroup(contract, condition string) *Group { return newGroup(contract, condition, "") }

// newGroup returns an empty Group for the condition (pipeline condition,
// attack); its tallies are named as reports show it (runs.ShownCondition).
func newGroup(contract, condition, attack string) *Group {
	return &Group{contract: contract, condition: condition, attack: attack, strs: map[string]string{},
		checks: tally.NewAttackChecksAcc(contract, condition, attack), audit: tally.NewAttackAuditAcc(contract, condition, attack),
		agree: tally.NewAttackAgreement(contract, condition, attack)}
}

// tally folds r into the group's checks and audit only: an aggregate's
// count every run of its pipeline once (its metrics are over combined
// runs, and it has no agreement: no harness labels an aggregate).
func (g *Group) tally(r runs.Record, list bool) {
	g.checks.Add(r, list)
	g.audit.Add(r, list)
}

// Contract and Condition name the group: Condition is the pipeline, as
// in the runs' keys (see Attack and Name).
func (g *Group) Contract() string  { return g.contract }
func (g *Group) Condition() string { return g.condition }

// Attack is the attack whose runs the group holds beside its pipeline's
// benign runs ("" for none named), or the attack_aggregate's name.
func (g *Group) Attack() string { return g.attack }

// Aggregate reports whether the group is an attack_aggregate's condition.
func (g *Group) Aggregate() bool { return g.aggregate }

// Len returns the number of runs added.
func (g *Group) Len() int { return len(g.recs) }

// Add adds a run. Runs come in key order (runs.Key.Compare; equal keys,
// duplicates, are allowed and counted as Compute counts them); Add returns
// an error, and adds nothing, for a run of another condition or one that
// sorts before the last run added.
func (g *Group) Add(r runs.Record) error { return g.add(r, true) }

// AddUnlisted adds a run as Add does, but names it in no list of the
// Checks, Audit and Agreement (HitRuns, UnknownRuns, Denied,
// Disagreements, Unknowns): it is only counted, in the counts and in the
// More fields beside each list. A report that bounds the runs it names
// (summary.NewCollector, with a maxListed budget) adds the runs past its budget so.
func (g *Group) AddUnlisted(r runs.Record) error { return g.add(r, false) }

// Listed returns the number of entries Add adds for r to the lists of the
// Checks, Audit and Agreement: one per invariant violated or undecided,
// per failure class hit or undecided, per agreement row where our label
// is unknown or differs from the given one, and one when r has a call not
// authorized.
func Listed(r runs.Record) int {
	n := 0
	for _, l := range r.Invariants {
		if !l.Known || !l.Value {
			n++
		}
	}
	for _, l := range r.Failures {
		if !l.Known || l.Value {
			n++
		}
	}
	row := func(ours runs.Label, given *bool) {
		if !ours.Known || (given != nil && ours.Value != *given) {
			n++
		}
	}
	row(r.Utility, r.Given.Utility)
	if r.Key.Attacked() {
		row(r.AttackSuccess, r.Given.AttackSuccess)
	}
	if r.Grant != "" && slices.ContainsFunc(r.Audit, func(e runs.AuditEntry) bool { return e.Decision != runs.Authorized }) {
		n++
	}
	return n
}

func (g *Group) add(r runs.Record, list bool) error {
	if r.Key.Contract != g.contract || r.Key.Condition != g.condition || (r.Key.Attack != g.attack && !(r.Key.Attack == "" && !r.Key.Attacked())) {
		return fmt.Errorf("metrics: run %s added to condition %s", r.Key, runs.ConditionName(g.contract, runs.ShownCondition(g.condition, g.attack)))
	}
	if len(g.recs) > 0 && r.Key.Compare(g.last) < 0 {
		return fmt.Errorf("metrics: run %s added after run %s: runs are added in key order", r.Key, g.last)
	}
	g.last = r.Key
	g.checks.Add(r, list)
	g.audit.Add(r, list)
	g.agree.Add(r, list)
	if r.Validate() == nil {
		// What compute reads of a valid run; still valid, so compute
		// treats it as it would the whole record.
		k := r.Key
		r = runs.Record{
			Key: runs.Key{Contract: g.contract, Condition: g.condition, Attack: k.Attack, Task: g.str(k.Task), Goal: g.str(k.Goal),
				Attempt: k.Attempt, Repetition: k.Repetition},
			Bundle: g.str(r.Bundle), GoalTask: r.GoalTask,
			Utility: r.Utility, AttackSuccess: r.AttackSuccess, SideEffect: r.SideEffect, Exposed: r.Exposed,
			HasExposed: r.HasExposed, AttemptBudget: r.AttemptBudget,
		}
	}
	g.recs = append(g.recs, r)
	return nil
}

func (g *Group) str(s string) string {
	if v, ok := g.strs[s]; ok {
		return v
	}
	g.strs[s] = s
	return s
}

// Compute computes the condition's metrics as Compute does for it, with
// declared and opt as there. contractAttacked says whether any run of the
// contract, under any condition, is attacked: without a declaration for
// the contract, a condition with no security cases is a utility-only
// evaluation only when none is. The error is Compute's for an invalid opt
// or declared attempt rule; a group with no runs is an error too.
func (g *Group) Compute(declared map[string]Declared, opt Options, contractAttacked bool) (Condition, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return Condition{}, fmt.Errorf("metrics: %w", err)
	}
	if len(g.errs) > 0 {
		return Condition{Contract: g.contract, Condition: runs.ShownCondition(g.condition, g.attack), Pipeline: g.condition, Attack: g.attack,
			Aggregate: true, Errors: cutErrors(g.errs)}, nil
	}
	if len(g.recs) == 0 {
		return Condition{}, fmt.Errorf("metrics: condition %s has no runs", runs.ConditionName(g.contract, runs.ShownCondition(g.condition, g.attack)))
	}
	c, _, err := computeOne(g.recs, declared, opt, contractAttacked)
	c.Aggregate = g.aggregate
	return c, err
}

// Agreement returns the condition's agreement, as Agree gives it.
func (g *Group) Agreement() tally.Agreement { return g.agree }

// Checks returns the condition's checks, as CountChecks gives them.
func (g *Group) Checks() tally.Checks { return g.checks.Result() }

// Audit returns the condition's audit counts as CountAudit gives them;
// false when no run was audited (CountAudit leaves the condition out).
func (g *Group) Audit() (tally.AuditCounts, bool) { return g.audit.Result() }
