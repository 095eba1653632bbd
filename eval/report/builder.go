package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// Builder builds the Document of Build from records given one at a time
// in key order (runs.Key.Compare), as a runs.Sorted yields them, holding
// one condition's records at a time (and of those only what the metrics
// read; see metrics.Group): memory does not grow with the number of
// conditions or runs beyond the report itself, and the report's lists of
// runs are cut as the runs are added (Input.MaxListed), so with a budget
// the report itself does not grow with the number of runs either, beyond
// one entry per condition, invariant and failure class.
//
//	b := report.NewBuilder(report.Input{...})   // Records nil
//	for it.Next() {
//		if err := b.Add(it.Record()); err != nil { ... }
//	}
//	d := b.Document()
//
// The Document is the one Build gives for the same records, in every
// format, byte for byte: Build is NewBuilder then Document.
type Builder struct {
	in   Input
	opt  error // metrics.Options invalid: Compute's error
	runs int

	cur       *metrics.Group
	curViol   []Violation
	lastAdded runs.Key

	// listed counts the run references listed so far (metrics.Listed);
	// full is set at the first run that did not fit in in.MaxListed: it
	// and every later run are only counted.
	listed   int
	full     bool
	moreViol int

	// The current contract and whether one of its runs is attacked; the
	// conditions of a contract come one after the other.
	contract string
	attacked bool
	started  bool

	conds  []condSlot
	fatal  error // Compute's error for an invalid declared attempt rule
	agree  []metrics.Agreement
	given  bool
	checks []metrics.Checks
	audit  []metrics.AuditCounts
	viol   []Violation
}

// maxFailedNames bounds the conditions in error the Document's error line
// names (the others are counted).
const maxFailedNames = 20

// condSlot is one condition's metrics; ifAttacked, when set, replaces c
// should a later condition of the same contract turn out to have an
// attacked run (a condition without security cases is a utility-only
// evaluation only when no run of its undeclared contract is attacked).
type condSlot struct {
	c          metrics.Condition
	ifAttacked *metrics.Condition
}

// NewBuilder returns a Builder for in, with in.Records added (in any
// order), as AddCondition would add each condition's.
func NewBuilder(in Input) *Builder {
	recs := in.Records
	in.Records = nil
	in.Inputs = sorted(in.Inputs)
	b := &Builder{in: in}
	b.opt = in.Metrics.Check()
	for _, g := range metrics.Groups(recs) {
		for _, r := range g {
			b.add(r)
		}
	}
	return b
}

// Add adds one record. Records come in key order: Add returns an error,
// and adds nothing, for a record whose key sorts before the last one's.
// Records with equal keys (duplicates, which the metrics refuse) are
// allowed, as Build allows them.
func (b *Builder) Add(r runs.Record) error {
	if b.cur != nil {
		if last := b.lastAdded; r.Key.Compare(last) < 0 {
			return fmt.Errorf("report: run %s added after run %s: records are added in key order", r.Key, last)
		}
	}
	b.add(r)
	return nil
}

// AddCondition adds the records of one (contract, condition), in any
// order (they are sorted by key, stably, as Build sorts them). It returns
// an error, and adds nothing, when they belong to several conditions or
// to one that sorts before a condition already added.
func (b *Builder) AddCondition(recs []runs.Record) error {
	if len(recs) == 0 {
		return nil
	}
	k0 := recs[0].Key
	for _, r := range recs[1:] {
		if r.Key.Contract != k0.Contract || r.Key.Condition != k0.Condition {
			return fmt.Errorf("report: AddCondition: runs of %s and of %s", k0.ConditionName(), r.Key.ConditionName())
		}
	}
	if b.cur != nil {
		if compareCondition(k0, b.lastAdded) <= 0 {
			return fmt.Errorf("report: AddCondition: condition %s added after condition %s: conditions are added in order, once each",
				k0.ConditionName(), b.lastAdded.ConditionName())
		}
	}
	if !slices.IsSortedFunc(recs, func(a, b runs.Record) int { return a.Key.Compare(b.Key) }) {
		recs = slices.Clone(recs)
		runs.SortRecords(recs)
	}
	for _, r := range recs {
		b.add(r)
	}
	return nil
}

func compareCondition(a, b runs.Key) int {
	if c := strings.Compare(a.Contract, b.Contract); c != 0 {
		return c
	}
	return strings.Compare(a.Condition, b.Condition)
}

// add adds r, which sorts at or after the last record added.
func (b *Builder) add(r runs.Record) {
	k := r.Key
	if b.cur == nil || k.Contract != b.cur.Contract() || k.Condition != b.cur.Condition() {
		b.endCondition()
		if !b.started || k.Contract != b.contract {
			b.endContract()
			b.contract, b.attacked, b.started = k.Contract, false, true
		}
		b.cur = metrics.NewGroup(k.Contract, k.Condition)
	}
	b.runs++
	b.lastAdded = k
	b.attacked = b.attacked || k.Attacked()
	b.given = b.given || r.Given.Utility != nil || r.Given.AttackSuccess != nil || r.Given.SideEffect != nil
	add := b.cur.Add
	if b.listable(r) {
		b.curViol = appendViolations(b.curViol, r)
	} else {
		b.moreViol += len(r.Violated())
		add = b.cur.AddUnlisted
	}
	if err := add(r); err != nil {
		panic(err) // the order was checked above
	}
}

// listable reports whether r is named in the Document's lists: whether
// its references (metrics.Listed) fit in what is left of in.MaxListed,
// and no earlier run failed to fit. A run is listed in all its lists or in
// none, so the runs listed are the first ones in key order.
func (b *Builder) listable(r runs.Record) bool {
	if b.in.MaxListed <= 0 {
		return true
	}
	if b.full {
		return false
	}
	n := metrics.Listed(r)
	if b.listed+n > b.in.MaxListed {
		b.full = true
		return false
	}
	b.listed += n
	return true
}

// endCondition computes the current condition and keeps its results.
func (b *Builder) endCondition() {
	g := b.cur
	if g == nil {
		return
	}
	b.cur = nil
	b.agree = append(b.agree, g.Agreement())
	b.checks = append(b.checks, g.Checks())
	if a, ok := g.Audit(); ok {
		b.audit = append(b.audit, a)
	}
	sortViolations(b.curViol)
	b.viol = append(b.viol, b.curViol...)
	b.curViol = nil
	if b.opt != nil || b.fatal != nil {
		return
	}
	_, declared := b.in.Declared[g.Contract()]
	c, err := g.Compute(b.in.Declared, b.in.Metrics, b.attacked)
	if err != nil {
		b.fatal = err
		return
	}
	slot := condSlot{c: c}
	if !declared && !b.attacked {
		// Whether the contract has an attacked run is known once its
		// last condition is in; until then keep both answers.
		alt, err := g.Compute(b.in.Declared, b.in.Metrics, true)
		if err != nil {
			b.fatal = err
			return
		}
		slot.ifAttacked = &alt
	}
	b.conds = append(b.conds, slot)
}

// endContract settles the conditions of the current contract.
func (b *Builder) endContract() {
	for i := range b.conds {
		s := &b.conds[i]
		if s.ifAttacked != nil && s.c.Contract == b.contract {
			if b.attacked {
				s.c = *s.ifAttacked
			}
			s.ifAttacked = nil
		}
	}
}

// Document returns the report of the records added (the Document Build
// gives for them). The Builder must not be used after it.
func (b *Builder) Document() *Document {
	b.endCondition()
	b.endContract()
	in := b.in
	d := &Document{
		Command:   in.Command,
		Version:   in.Version,
		Inputs:    in.Inputs,
		Contracts: in.Contracts,
		Runs:      b.runs,
		MaxListed: max(in.MaxListed, 0),
	}
	var cs []metrics.Condition
	var merr error
	switch {
	case b.opt != nil:
		merr = b.opt
	case b.runs == 0:
		merr = errors.New("metrics: no runs")
	case b.fatal != nil:
		merr = b.fatal
	default:
		var failed []string
		nfailed := 0
		for _, s := range b.conds {
			cs = append(cs, s.c)
			if !s.c.OK() {
				// The first maxFailedNames are named: 200,000 conditions
				// in error make one line, not megabytes.
				if nfailed++; nfailed <= maxFailedNames {
					failed = append(failed, s.c.Name())
				}
			}
		}
		if nfailed > maxFailedNames {
			failed = append(failed, fmt.Sprintf("and %d more", nfailed-maxFailedNames))
		}
		if nfailed > 0 {
			merr = fmt.Errorf("metrics: %d of %d conditions have errors: %s", nfailed, len(cs), strings.Join(failed, ", "))
		}
	}
	d.Conditions = cs
	if b.given {
		d.Agreement = b.agree
	}
	d.Checks = b.checks
	d.Violations = b.viol
	d.MoreViolations = b.moreViol
	d.Audit = b.audit
	finish(d, in, merr)
	return d
}
