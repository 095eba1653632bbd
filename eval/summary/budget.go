package summary

import (
	"slices"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// listKind is one kind of list of runs a report holds; each kind has a
// budget of its own (listBudget), so that a kind with many entries (the
// violations of a long evaluation) cannot leave another (the few
// disagreements with the given labels) reduced to a count.
type listKind int

const (
	listDisagreements listKind = iota // agreement disagreements
	listUnknowns                      // agreement unknowns: our label unknown, with the reason
	listChecks                        // checks hit_runs and unknown_runs (and the violations)
	listDenied                        // audit denied
	nListKinds
)

// MinListedPerCondition is the floor of the budget: each condition (the
// contract, condition and attack of the runs' keys) lists the first
// entries of each kind that fit in min(maxListed, MinListedPerCondition),
// and each of its checks (invariant, failure class) its first that many
// runs, whatever the other conditions spent of the kind's budget. It is
// the number of runs the table format names per list (report.MaxNamedRuns),
// so every list a reader sees names some runs; the lists thus grow with
// the number of conditions and checks, as the metrics' rows do, never with
// the number of runs.
const MinListedPerCondition = 3

// entriesOf returns r's entries in each kind of list but the checks (see
// checkEntries): as metrics.Listed counts them, by kind. A run of an
// attacked condition has a utility and an attack success row; any other
// run one utility row.
func entriesOf(r runs.Record) (n [nListKinds]int) {
	row := func(ours runs.Label, given *bool) {
		switch {
		case !ours.Known:
			n[listUnknowns]++
		case given != nil && ours.Value != *given:
			n[listDisagreements]++
		}
	}
	row(r.Utility, r.Given.Utility)
	if r.Key.Attacked() {
		row(r.AttackSuccess, r.Given.AttackSuccess)
	}
	if r.Grant != "" && slices.ContainsFunc(r.Audit, func(e runs.AuditEntry) bool { return e.Decision != runs.Authorized }) {
		n[listDenied]++
	}
	return n
}

// checkEntries returns the checks r has an entry for, sorted: its
// invariants violated or undecided ("invariants.NAME") and failure classes
// hit or undecided ("failures.NAME").
func checkEntries(r runs.Record) []string {
	var out []string
	for name, l := range r.Invariants {
		if !l.Known || !l.Value {
			out = append(out, "invariants."+name)
		}
	}
	for name, l := range r.Failures {
		if !l.Known || l.Value {
			out = append(out, "failures."+name)
		}
	}
	slices.Sort(out)
	return out
}

// checkRun is one run's entry in the list of one check.
type checkRun struct {
	check string // "invariants.NAME" or "failures.NAME"
	key   runs.Key
}

// listBudget decides, run by run in key order, which of a run's lists
// name it. Per kind: the run's entries of that kind are listed when they
// fit in what is left of the kind's budget (max entries over the whole
// report) or in what is left of its condition's floor (min(max,
// MinListedPerCondition) entries); the first run whose entries do not fit
// closes the budget (or the floor) for every later run, so what a list
// names is a prefix in key order. Entries listed count against both. The
// checks are one kind whose floor is per check: each invariant and
// failure class of a condition lists its first min(max,
// MinListedPerCondition) runs, one entry each, so that one check's many
// violations leave another's listed.
type listBudget struct {
	max, floor int
	used       [nListKinds]int
	closed     [nListKinds]bool
	section    runs.Key // the condition the floor is counted for (Contract, Condition, Attack)
	started    bool
	secUsed    [nListKinds]int
	secClosed  [nListKinds]bool
	secChecks  map[string]int // per check, the entries listed in the section
	// listed holds, per kind, the keys of the current pipeline's runs
	// listed in that kind's lists, and checks the (check, run) entries
	// listed: the tallies list a run in all its lists or none
	// (metrics.Pipeline.Add), and cut drops the entries not listed here.
	// At most max + floor per section and kind (per check for checks).
	listed [nListKinds]map[runs.Key]bool
	checks map[checkRun]bool
}

func newListBudget(max int) listBudget {
	b := listBudget{max: max, floor: min(max, MinListedPerCondition), secChecks: map[string]int{}, checks: map[checkRun]bool{}}
	for k := range b.listed {
		b.listed[k] = map[runs.Key]bool{}
	}
	return b
}

// take decides r's lists, and reports whether any lists it (the tallies
// then list it, and cut drops the entries of the lists that do not).
func (b *listBudget) take(r runs.Record) bool {
	sec := runs.Key{Contract: r.Key.Contract, Condition: r.Key.Condition, Attack: r.Key.Attack}
	if !b.started || sec != b.section {
		b.section, b.started = sec, true
		b.secUsed, b.secClosed = [nListKinds]int{}, [nListKinds]bool{}
		clear(b.secChecks)
	}
	any := false
	n := entriesOf(r)
	for k := range nListKinds {
		if n[k] == 0 {
			continue
		}
		inBudget := !b.closed[k] && b.used[k]+n[k] <= b.max
		if !inBudget {
			b.closed[k] = true
		}
		inFloor := !b.secClosed[k] && b.secUsed[k]+n[k] <= b.floor
		if !inFloor {
			b.secClosed[k] = true
		}
		if inBudget || inFloor {
			b.used[k] += n[k]
			b.secUsed[k] += n[k]
			b.listed[k][r.Key] = true
			any = true
		}
	}
	// One entry per check: an entry fits while anything is left, so the
	// budget and each floor close when spent.
	for _, c := range checkEntries(r) {
		if b.used[listChecks] < b.max || b.secChecks[c] < b.floor {
			b.used[listChecks]++
			b.secChecks[c]++
			b.checks[checkRun{c, r.Key}] = true
			any = true
		}
	}
	return any
}

// listsViolation reports whether r's violation of invariant name is listed.
func (b *listBudget) listsViolation(name string, key runs.Key) bool {
	return b.checks[checkRun{"invariants." + name, key}]
}

// endPipeline forgets the keys listed: the next pipeline's runs are others.
func (b *listBudget) endPipeline() {
	for k := range b.listed {
		clear(b.listed[k])
	}
	clear(b.checks)
}

// cutAgreement moves the entries of runs not listed in their kind from the
// lists to the More counts beside them.
func (b *listBudget) cutAgreement(a *tally.Agreement) {
	for _, row := range []*tally.AgreementRow{&a.BenignUtility, &a.AttackedUtility, &a.AttackSuccess, &a.GoalTaskUtility} {
		row.Disagreements, row.MoreDisagreements = keep(row.Disagreements, row.MoreDisagreements, b.listed[listDisagreements],
			func(d tally.Disagreement) runs.Key { return d.Key })
		row.Unknowns, row.MoreUnknowns = keep(row.Unknowns, row.MoreUnknowns, b.listed[listUnknowns],
			func(u tally.UnknownLabel) runs.Key { return u.Key })
	}
}

// cutChecks is cutAgreement for the checks' hit and unknown runs.
func (b *listBudget) cutChecks(c *tally.Checks) {
	for _, part := range []struct {
		prefix string
		counts []tally.CheckCount
	}{{"invariants.", c.Invariants}, {"failures.", c.Failures}} {
		for i := range part.counts {
			n := &part.counts[i]
			check := part.prefix + n.Name
			set := map[runs.Key]bool{}
			for _, k := range n.HitRuns {
				set[k] = b.checks[checkRun{check, k}]
			}
			for _, u := range n.UnknownRuns {
				set[u.Key] = b.checks[checkRun{check, u.Key}]
			}
			n.HitRuns, n.MoreHitRuns = keep(n.HitRuns, n.MoreHitRuns, set, func(k runs.Key) runs.Key { return k })
			n.UnknownRuns, n.MoreUnknownRuns = keep(n.UnknownRuns, n.MoreUnknownRuns, set, func(u tally.UnknownLabel) runs.Key { return u.Key })
		}
	}
}

// cutAudit is cutAgreement for the audit's denied runs.
func (b *listBudget) cutAudit(a *tally.AuditCounts) {
	a.Denied, a.MoreDenied = keep(a.Denied, a.MoreDenied, b.listed[listDenied], func(d tally.DeniedCall) runs.Key { return d.Key })
}

// keep returns the entries of list whose run is in set, and more plus the
// number dropped.
func keep[T any](list []T, more int, set map[runs.Key]bool, key func(T) runs.Key) ([]T, int) {
	n := len(list)
	list = slices.DeleteFunc(list, func(e T) bool { return !set[key(e)] })
	switch {
	case len(list) == 0:
		list = nil // as a tally leaves a list no run was listed in
	case cap(list) > len(list):
		// A copy of the entries kept, not the tally's array: the Results
		// hold each condition's lists to the end, and that array holds
		// every run of the list and an append's slack (20 MB of a 190 MB
		// live heap on the 1 GB synthetic corpus, docs/performance.md
		// "Memory").
		list = slices.Clone(list)
	}
	return list, more + n - len(list)
}
