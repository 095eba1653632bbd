package tally

import (
	"slices"

	"github.com/tenetlang/tenet/eval/runs"
)

// Checks counts, for one (contract, condition), how runs fared on the
// contract's invariants and failure classes. These are kept apart from the
// utility and attack metrics (docs/runs-format.md): an invariant violation or a
// failure class never changes a rate.
type Checks struct {
	Contract, Condition string
	AttackOf                // an attack's condition: its pipeline and attack
	Runs                int // judged runs, benign and attacked
	// ViolatingRuns counts runs on which at least one invariant did not hold;
	// UndecidedRuns runs on which at least one invariant could not be
	// decided (its result is unknown). A run can be in both.
	ViolatingRuns int
	UndecidedRuns int
	Invariants    []CheckCount // by name
	Failures      []CheckCount // by name
}

// Name is the condition's display name, as Condition.Name.
func (c Checks) Name() string { return c.name(c.Contract, c.Condition) }

// CheckCount is one invariant or failure class: Hits counts runs where the
// invariant was violated (or the run belongs to the failure class),
// Unknown runs where it could not be decided, and HitRuns and
// UnknownRuns name them (sorted by key). A report bounds the runs it
// names (metrics.Group.AddUnlisted): MoreHitRuns and MoreUnknownRuns count the
// runs behind Hits and Unknown left out of HitRuns and UnknownRuns, so
// that Hits = len(HitRuns) + MoreHitRuns and Unknown = len(UnknownRuns) +
// MoreUnknownRuns.
type CheckCount struct {
	Name                         string
	Hits, Unknown                int
	HitRuns                      []runs.Key
	UnknownRuns                  []UnknownLabel
	MoreHitRuns, MoreUnknownRuns int
}

// CountChecks returns the checks of every (contract, condition), sorted.
func CountChecks(recs []runs.Record) []Checks {
	var out []Checks
	for _, g := range ConditionGroups(recs) {
		acc := NewAttackChecksAcc(groupName(g))
		for _, r := range g {
			acc.Add(r, true)
		}
		out = append(out, acc.Result())
	}
	return out
}

// ChecksAcc counts the checks of one condition's runs, added in key order.
type ChecksAcc struct {
	c         Checks
	inv, fail map[string]*CheckCount
}

// NewChecksAcc returns an empty ChecksAcc for (contract, condition).
func NewChecksAcc(contract, condition string) *ChecksAcc {
	return &ChecksAcc{c: Checks{Contract: contract, Condition: condition}, inv: map[string]*CheckCount{}, fail: map[string]*CheckCount{}}
}

// Add counts r; list says whether r is named in the lists (HitRuns,
// UnknownRuns) or only counted in MoreHitRuns and MoreUnknownRuns.
func (a *ChecksAcc) Add(r runs.Record, list bool) {
	a.c.Runs++
	violated, undecided := false, false
	for name, l := range r.Invariants {
		if count(a.inv, name, l, false, r.Key, list) {
			violated = true
		}
		undecided = undecided || !l.Known
	}
	for name, l := range r.Failures {
		count(a.fail, name, l, true, r.Key, list)
	}
	if violated {
		a.c.ViolatingRuns++
	}
	if undecided {
		a.c.UndecidedRuns++
	}
}

// Result returns the counts.
func (a *ChecksAcc) Result() Checks {
	c := a.c
	c.Invariants, c.Failures = sortedCounts(a.inv), sortedCounts(a.fail)
	return c
}

// count adds one run's result to counts; hit is the label value that counts
// as a hit; list says whether the run is named or only counted in the More
// fields. It reports whether the run was a hit.
func count(counts map[string]*CheckCount, name string, l runs.Label, hit bool, key runs.Key, list bool) bool {
	c := counts[name]
	if c == nil {
		c = &CheckCount{Name: name}
		counts[name] = c
	}
	switch {
	case !l.Known:
		c.Unknown++
		if list {
			c.UnknownRuns = append(c.UnknownRuns, UnknownLabel{Key: key, Reason: l.Reason})
		} else {
			c.MoreUnknownRuns++
		}
	case l.Value == hit:
		c.Hits++
		if list {
			c.HitRuns = append(c.HitRuns, key)
		} else {
			c.MoreHitRuns++
		}
		return true
	}
	return false
}

func sortedCounts(m map[string]*CheckCount) []CheckCount {
	out := make([]CheckCount, 0, len(m))
	for _, c := range m {
		slices.SortFunc(c.HitRuns, func(a, b runs.Key) int { return a.Compare(b) })
		slices.SortFunc(c.UnknownRuns, func(a, b UnknownLabel) int { return a.Key.Compare(b.Key) })
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b CheckCount) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}
