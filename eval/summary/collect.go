package summary

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// Results is everything the metrics package computes for one report, from
// one set of records: what eval/report's Document shows of them. Slices
// are sorted by contract and condition, as Compute sorts them.
type Results struct {
	Runs int // records added
	// Conditions are the metrics of every condition; nil when Err is an
	// error of the metrics as a whole (invalid options, no runs, an
	// invalid declared attempt rule).
	Conditions []metrics.Condition
	// Agreement compares the labels computed with those the records
	// carry; nil when no record carries a given label.
	Agreement []tally.Agreement
	Checks    []tally.Checks
	// Violations lists the runs on which an invariant did not hold, sorted
	// by run key then invariant, with the witness of its forbid pattern:
	// every such run, or with a MaxListed budget those of the runs listed.
	// MoreViolations counts the (run, invariant) pairs left out.
	Violations     []Violation
	MoreViolations int
	Audit          []tally.AuditCounts
	// Leaderboard pools each condition over contracts; nil unless the
	// conditions come from more than one contract.
	Leaderboard []leaderboard.Row
	// Err is Compute's error: the metrics as a whole failed (Conditions is
	// nil), or some conditions have errors (each in its Errors), named on
	// one line.
	Err error
}

// Violation is one invariant that did not hold on one run.
type Violation struct {
	Key        runs.Key
	Invariant  string
	OriginFile string // where the transcript came from, when known
	OriginLine int
	// Witness is what the forbid pattern matched, one entry per step in
	// step-name order; empty when the invariant is an assert.
	Witness []WitnessStep
}

// WitnessStep is the item a pattern step matched.
type WitnessStep struct {
	Step string // the step's name
	Item string // "event:N" or "call:N": an index in the run's events or calls
	Tool string // for a call the audit saw, the tool called; else ""
	// Text is the item rendered short, from the run's excerpt
	// (runs.Record.Excerpt); "" when the runs file has none.
	Text string
}

// Violations lists every violated invariant of every record, by key then
// invariant name, with its witness: Results.Violations without a budget,
// computed over all the records at once.
func Violations(recs []runs.Record) []Violation {
	var out []Violation
	for _, r := range recs {
		out = appendViolations(out, r)
	}
	sortViolations(out)
	return out
}

// Collector computes the Results of records given one at a time in key
// order (runs.Key.Compare), as a runsort.Sorted yields them, holding one
// condition's records at a time (and of those only what the metrics read;
// see Group): memory does not grow with the number of conditions or runs
// beyond the results themselves, and the lists of runs are cut as the runs
// are added (maxListed, a budget per kind of list), so with a budget the
// results do not grow with the number of runs either, beyond one entry
// per condition, invariant and failure class and each condition's floor of
// MinListedPerCondition entries per kind of list (runs per check).
//
//	c := NewCollector(declared, opt, maxListed)
//	for it.Next() {
//		if err := c.Add(it.Record()); err != nil { ... }
//	}
//	res := c.Results()
//
// The Results are those Collect gives for the same records, whatever the
// order they were in.
type Collector struct {
	declared  map[string]metrics.Declared
	opt       metrics.Options
	maxListed int
	optErr    error // opt invalid: metrics.Compute's error
	noViol    bool  // SkipViolations: the Results hold no Violations
	runs      int

	cur       *metrics.Pipeline // the pipeline whose runs are being added (its conditions: metrics.Pipeline)
	curViol   []Violation
	lastAdded runs.Key
	attack    string // the last run's Key.Attack, shared by the runs of its attack (add)

	// budget decides which lists name each run (with maxListed > 0);
	// moreViol counts the violations of runs the checks do not list.
	budget   listBudget
	moreViol int

	// The current contract and whether one of its runs is attacked; the
	// conditions of a contract come one after the other.
	contract string
	attacked bool
	started  bool

	conds []metrics.Condition
	// ifAttacked are the conditions of the current contract whose
	// metrics change should a later condition of it turn out to have an
	// attacked run (a condition without security cases is a utility-only
	// evaluation only when no run of its undeclared contract is attacked):
	// endContract puts them in place of conds[i] or drops them.
	ifAttacked []altCondition
	fatal      error // metrics.Compute's error for an invalid declared attempt rule
	agree      []tally.Agreement
	given      bool
	checks     []tally.Checks
	audit      []tally.AuditCounts
	viol       []Violation
}

// maxFailedNames bounds the conditions in error the Results' error line
// names (the others are counted).
const maxFailedNames = 20

// altCondition is conds[i]'s metrics should its contract have an
// attacked run. conds holds the conditions themselves, not slots beside
// them, so that Results hands over that slice rather than a copy of
// every condition.
type altCondition struct {
	i int
	c metrics.Condition
}

// NewCollector returns an empty Collector. declared holds, per contract
// name, its tasks, cases and attempt rules (nil: take them from the
// records); opt are Compute's options. maxListed bounds the entries of
// each kind of list (0 or less: no bound): the disagreements of
// Agreement, its unknowns, the HitRuns and UnknownRuns of Checks (with
// the Violations, which hold the witnesses of the invariants' HitRuns) and
// the Denied runs of Audit each have a budget of maxListed entries of
// their own, spent in key order, and each condition is also given the
// first min(maxListed, MinListedPerCondition) entries of each kind (runs
// of each invariant and failure class) whatever the others spent (listBudget states the rule exactly). An
// entry left out is counted in the More field beside its list.
func NewCollector(declared map[string]metrics.Declared, opt metrics.Options, maxListed int) *Collector {
	return &Collector{declared: declared, opt: opt, maxListed: maxListed, optErr: opt.Check(), budget: newListBudget(maxListed)}
}

// SkipViolations makes the Results leave out Violations and
// MoreViolations (nil and 0), and nothing else: a report format that does
// not show the violations' origins and witnesses (the table) need not hold
// one per listed violation to the end. Call it before the first Add.
func (c *Collector) SkipViolations() { c.noViol = true }

// Collect returns the Results of recs, in any order: NewCollector, then
// each condition's records added in key order.
func Collect(recs []runs.Record, declared map[string]metrics.Declared, opt metrics.Options, maxListed int) Results {
	c := NewCollector(declared, opt, maxListed)
	for _, g := range metrics.Groups(recs) {
		for _, r := range g {
			c.add(r)
		}
	}
	return c.Results()
}

// Add adds one record. Records come in key order: Add returns an error,
// and adds nothing, for a record whose key sorts before the last one's.
// Records with equal keys (duplicates, which the metrics refuse) are
// allowed, as Collect allows them.
func (c *Collector) Add(r runs.Record) error {
	if c.cur != nil {
		if last := c.lastAdded; r.Key.Compare(last) < 0 {
			return fmt.Errorf("metrics: run %s added after run %s: records are added in key order", r.Key, last)
		}
	}
	c.add(r)
	return nil
}

// add adds r, which sorts at or after the last record added.
func (c *Collector) add(r runs.Record) {
	k := r.Key
	if c.cur == nil || k.Contract != c.cur.Contract() || k.Condition != c.cur.Condition() {
		c.endCondition()
		if !c.started || k.Contract != c.contract {
			c.endContract()
			c.contract, c.attacked, c.started = k.Contract, false, true
		}
		d := c.declared[k.Contract]
		c.cur = metrics.NewPipeline(k.Contract, k.Condition, d.Aggregates, d.Rules)
	}
	// The condition's runs share one copy of its contract, condition and
	// attack names: each run's key comes with its own (decoded by the
	// Sorter), and the keys the report lists (a few per condition and
	// check) are held to the end.
	r.Key.Contract, r.Key.Condition = c.cur.Contract(), c.cur.Condition()
	if r.Key.Attack == c.attack {
		r.Key.Attack = c.attack
	} else {
		c.attack = r.Key.Attack
	}
	k = r.Key
	c.runs++
	c.lastAdded = k
	c.attacked = c.attacked || k.Attacked()
	c.given = c.given || r.Given.Utility != nil || r.Given.AttackSuccess != nil || r.Given.SideEffect != nil
	list := true
	if c.maxListed > 0 {
		list = c.budget.take(r)
	}
	for _, v := range c.violations(r) {
		if c.maxListed <= 0 || c.budget.listsViolation(v.Invariant, v.Key) {
			c.curViol = append(c.curViol, v)
		} else {
			c.moreViol++
		}
	}
	if err := c.cur.Add(r, list); err != nil {
		panic(err) // the order was checked above
	}
}

// violations is appendViolations(nil, r), or nil with SkipViolations.
func (c *Collector) violations(r runs.Record) []Violation {
	if c.noViol {
		return nil
	}
	return appendViolations(nil, r)
}

// endCondition computes the conditions of the current pipeline (one, or
// one per attack and aggregate: metrics.Pipeline) and keeps their results.
// A run's violations are listed once, whichever conditions count it.
func (c *Collector) endCondition() {
	p := c.cur
	if p == nil {
		return
	}
	c.cur = nil
	sortViolations(c.curViol)
	c.viol = append(c.viol, c.curViol...)
	c.curViol = nil
	for _, g := range p.End() {
		c.endGroup(g)
	}
	c.budget.endPipeline()
}

// endGroup computes one condition and keeps its results.
func (c *Collector) endGroup(g *metrics.Group) {
	cut := c.maxListed > 0
	if !g.Aggregate() {
		a := g.Agreement()
		if cut {
			c.budget.cutAgreement(&a)
		}
		c.agree = append(c.agree, a)
	}
	ch := g.Checks()
	if cut {
		c.budget.cutChecks(&ch)
	}
	c.checks = append(c.checks, ch)
	if a, ok := g.Audit(); ok {
		if cut {
			c.budget.cutAudit(&a)
		}
		c.audit = append(c.audit, a)
	}
	if c.optErr != nil || c.fatal != nil {
		return
	}
	_, declared := c.declared[g.Contract()]
	cond, err := g.Compute(c.declared, c.opt, c.attacked)
	if err != nil {
		c.fatal = err
		return
	}
	if !declared && !c.attacked {
		// Whether the contract has an attacked run is known once its
		// last condition is in; until then keep both answers.
		alt, err := g.Compute(c.declared, c.opt, true)
		if err != nil {
			c.fatal = err
			return
		}
		c.ifAttacked = append(c.ifAttacked, altCondition{len(c.conds), alt})
	}
	c.conds = append(c.conds, cond)
}

// endContract settles the conditions of the current contract.
func (c *Collector) endContract() {
	if c.attacked {
		for _, a := range c.ifAttacked {
			c.conds[a.i] = a.c
		}
	}
	c.ifAttacked = nil
}

// ErrNoRuns is Results.Err when no record was added: nothing to compute
// metrics of (an error for an evaluation, not for one shard of it).
var ErrNoRuns = errors.New("metrics: no runs")

// Results returns the results of the records added (those Collect gives
// for them). The Collector must not be used after it.
func (c *Collector) Results() Results {
	c.endCondition()
	c.endContract()
	res := Results{Runs: c.runs}
	var cs []metrics.Condition
	switch {
	case c.optErr != nil:
		res.Err = c.optErr
	case c.runs == 0:
		res.Err = ErrNoRuns
	case c.fatal != nil:
		res.Err = c.fatal
	default:
		var failed []string
		nfailed := 0
		cs = c.conds
		for i := range cs {
			if !cs[i].OK() {
				// The first maxFailedNames are named: 200,000 conditions
				// in error make one line, not megabytes.
				if nfailed++; nfailed <= maxFailedNames {
					failed = append(failed, cs[i].Name())
				}
			}
		}
		if nfailed > maxFailedNames {
			failed = append(failed, fmt.Sprintf("and %d more", nfailed-maxFailedNames))
		}
		if nfailed > 0 {
			res.Err = metrics.ConditionsError(cs, nfailed, failed)
		}
	}
	res.Conditions = cs
	if c.given {
		res.Agreement = c.agree
	}
	res.Checks = c.checks
	res.Violations = c.viol
	res.MoreViolations = c.moreViol
	res.Audit = c.audit
	res.Leaderboard = leaderboardOf(cs)
	return res
}

// leaderboardOf is leaderboard.Rows(cs) when cs span more than one contract,
// else nil.
func leaderboardOf(cs []metrics.Condition) []leaderboard.Row {
	contracts := map[string]bool{}
	for _, c := range cs {
		contracts[c.Contract] = true
	}
	if len(contracts) > 1 {
		return leaderboard.Rows(cs)
	}
	return nil
}

// appendViolations appends r's violated invariants, by name, with their
// witnesses.
func appendViolations(out []Violation, r runs.Record) []Violation {
	for _, name := range r.Violated() {
		v := Violation{Key: r.Key, Invariant: name, OriginFile: r.OriginFile, OriginLine: r.OriginLine}
		w := r.Witnesses["invariants."+name]
		steps := make([]string, 0, len(w))
		for s := range w {
			steps = append(steps, s)
		}
		slices.Sort(steps)
		for _, s := range steps {
			v.Witness = append(v.Witness, WitnessStep{Step: s, Item: w[s], Tool: toolOf(r, w[s]), Text: r.Excerpt[w[s]]})
		}
		out = append(out, v)
	}
	return out
}

// sortViolations sorts by key then invariant, stably.
func sortViolations(vs []Violation) {
	slices.SortStableFunc(vs, func(a, b Violation) int {
		if c := a.Key.Compare(b.Key); c != 0 {
			return c
		}
		return strings.Compare(a.Invariant, b.Invariant)
	})
}

// toolOf returns the tool of item "call:N" when the run's audit saw call N.
func toolOf(r runs.Record, item string) string {
	var n int
	if _, err := fmt.Sscanf(item, "call:%d", &n); err != nil {
		return ""
	}
	for _, a := range r.Audit {
		if a.Call == n {
			return a.Tool
		}
	}
	return ""
}
