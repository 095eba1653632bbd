package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
)

// Formats lists the report formats, in the order help text gives them.
var Formats = []string{"table", "json", "markdown", "junit", "html"}

// Commands whose results a Document holds.
const (
	CommandEval    = "eval"
	CommandReport  = "report"
	CommandCompare = "compare"
	CommandTest    = "test"
)

// Document is one report: everything a command computed, as every format
// renders it. The formats differ only in presentation; each says every
// failure the exit code stands for (Failures), so a CI job sees why it
// failed whichever format it keeps.
//
// Slices are in the order the metrics package returns them (sorted by
// contract and condition); a Document built from the same inputs is the
// same, whatever the input order.
type Document struct {
	Command string   // one of the Command constants
	Version string   // tenet's version (compiler.Version)
	Inputs  []string // the files read, as named on the command line, sorted

	// Contracts are the contracts that judged transcripts (tenet eval) or
	// whose tests ran (tenet test); empty for tenet report and compare.
	Contracts []Contract
	// Runs counts the records reported (judged by tenet eval, or read from
	// runs files).
	Runs int
	// MaxListed is the budget of run references the lists of runs share
	// (Input.MaxListed); 0: unlimited, every list is whole. A list that was
	// cut says how many it left out in its More field (MoreViolations,
	// metrics.CheckCount.MoreHitRuns, …); the counts are never cut.
	MaxListed int

	Conditions []metrics.Condition
	// Agreement compares the labels computed with those the transcripts
	// carry; nil when no run carries a given label.
	Agreement []metrics.Agreement
	Checks    []metrics.Checks
	// Violations lists the runs on which an invariant did not hold, sorted
	// by run key then invariant, with the witness of its forbid pattern:
	// every such run, or with MaxListed those of the runs listed (one per
	// entry of the Checks' HitRuns). MoreViolations counts the (run,
	// invariant) pairs left out, so len(Violations) + MoreViolations is the
	// number of violations, the sum of the invariants' Hits.
	Violations     []Violation
	MoreViolations int
	Audit          []metrics.AuditCounts
	Gates          []eval.GateResult
	// Leaderboard pools each condition over contracts; nil unless the runs
	// come from more than one contract.
	Leaderboard []metrics.LeaderRow
	Comparison  *metrics.Comparison // tenet compare only
	Tests       []TestResult        // tenet test only

	// Failures are the one-line reasons behind exit code 1 — a violated
	// invariant, a failed gate requirement, a failed contract test — as
	// printed on stderr.
	Failures []string
	// Errors are the reasons behind exit code 2 that leave a report to
	// write: metrics that could not be computed (unknown labels, missing
	// runs), one line each.
	Errors []string
	// ExitCode is the command's exit status: 2 with Errors, else 1 with
	// Failures, else 0 (DESIGN §9).
	ExitCode int
	// Warnings do not change the exit code: conditions or contracts whose
	// names differ only by white space, Unicode normalisation or
	// look-alike characters (lookAlikeWarnings), one line each, as printed
	// on stderr.
	Warnings []string
}

// Contract is one contract of a report, with what happened to the records
// it read.
type Contract struct {
	Name    string // the contract's name (manifest), "" when it has none
	Version string // its version, "" when it has none
	Bundle  string // "sha256:<hex>": the bundle id
	// Judged counts runs judged; Headers records without a transcript;
	// Skipped the records not judged, by reason. Zero for tenet test.
	Judged  int
	Headers int
	Skipped []Skipped
}

// ContractOf describes the contract of p and what happened to the records
// it read (res, from pipeline.EvalFiles).
func ContractOf(p *eval.Program, res *pipeline.Result) Contract {
	m := p.Bundle.Manifest
	c := Contract{Name: m.Contract, Version: m.Version, Bundle: p.ID, Judged: res.Judged(), Headers: res.Headers}
	for _, s := range []eval.Skip{eval.NotSelected, eval.TaskNotDeclared, eval.GoalNotDeclared, eval.CaseNotDeclared} {
		n := res.Skipped[s]
		if n == 0 {
			continue
		}
		sk := Skipped{Reason: s.String(), Count: n}
		ids := res.SkippedIDs[s]
		for i, id := range pipeline.SortedIDs(ids) {
			if i == MaxSkippedIDs {
				sk.MoreIDs = len(ids) - i
				break
			}
			sk.IDs = append(sk.IDs, IDCount{ID: runs.Cut(id, MaxCellWidth), Count: ids[id]})
		}
		c.Skipped = append(c.Skipped, sk)
	}
	return c
}

// Skipped is why some records were not judged, and which ids they named.
type Skipped struct {
	Reason string    // eval.Skip.String(): "task not in contract", …
	Count  int       // records
	IDs    []IDCount // task or task/goal ids, sorted; may be empty
	// MoreIDs counts the distinct ids left out of IDs: at most
	// MaxSkippedIDs are listed, each cut to MaxCellWidth (runs.Cut).
	MoreIDs int
}

// IDCount is an id and how many records named it.
type IDCount struct {
	ID    string
	Count int
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
}

// TestResult is the outcome of one contract test (tenet test).
type TestResult struct {
	Contract string // the contract's name
	Name     string // the test block's label
	Passed   bool
	// Problems say how the labels differ from those expected, or why the
	// test's run could not be judged; empty when Passed.
	Problems []string
	// OriginFile and OriginLine locate the test's run when it was read.
	OriginFile string
	OriginLine int
}

// Input is what Build computes a Document from.
type Input struct {
	Command   string
	Version   string
	Inputs    []string
	Contracts []Contract
	Records   []runs.Record
	// Declared holds, per contract name, its tasks, cases and attempt rules
	// (nil: take them from the records).
	Declared map[string]metrics.Declared
	// Programs are the loaded contracts whose gates apply.
	Programs []*eval.Program
	Metrics  metrics.Options
	// MaxListed bounds the run references the Document lists, all lists
	// together: the disagreements and unknown labels of Agreement, the
	// HitRuns and UnknownRuns of Checks (with the Violations, which hold
	// the witnesses of those HitRuns) and the Denied runs of Audit. One
	// reference is one entry of one of those lists (metrics.Listed counts
	// a run's). Runs are listed in key order, each in all its lists or in
	// none, until the first run whose references would exceed MaxListed;
	// it and every later run are only counted (the More fields). 0 (or
	// less): no bound. tenet passes DefaultMaxListed unless told otherwise
	// (--report-max-items).
	MaxListed int
}

// DefaultMaxListed is the MaxListed of tenet eval, report and compare
// (--report-max-items): enough to read or grep the first runs of every
// kind of problem, and, at a few hundred bytes per reference in the
// largest format, a report of at most a few hundred KiB whatever the
// corpus. The runs file names every run.
const DefaultMaxListed = 1000

// Build computes the metrics, agreement, checks, violations, audit, gates
// and leaderboard of the records, and the failures and exit code they give
// (DESIGN §7, §9). Metric errors are reported in Document.Errors, never
// returned: a report is written even then. It is NewBuilder(in).Document():
// a Builder fed the same records in key order gives the same Document.
func Build(in Input) *Document { return NewBuilder(in).Document() }

// finish adds to d, whose metrics, agreement, checks, violations and audit
// are set, the gates and leaderboard, the failures, the metric errors
// (merr, Compute's error) and the exit code.
func finish(d *Document, in Input, merr error) {
	cs := d.Conditions
	for _, p := range in.Programs {
		d.Gates = append(d.Gates, p.Gates(ofContract(cs, p.Bundle.Manifest.Contract), d.Checks)...)
	}
	contracts := map[string]bool{}
	for _, c := range cs {
		contracts[c.Contract] = true
	}
	if len(contracts) > 1 {
		d.Leaderboard = metrics.Leaderboard(cs)
	}
	for _, c := range d.Checks {
		for _, inv := range c.Invariants {
			if inv.Hits > 0 {
				d.Failures = append(d.Failures, fmt.Sprintf("invariant %s violated on %s of %s in %s",
					inv.Name, count(inv.Hits, "run"), count(c.Runs, "run"), c.Name()))
			}
			// Fail closed: an invariant that could not be decided may
			// hide a violation (e.g. an argument of an unexpected type).
			if inv.Unknown > 0 {
				d.Failures = append(d.Failures, fmt.Sprintf("invariant %s undecided on %s of %s in %s",
					inv.Name, count(inv.Unknown, "run"), count(c.Runs, "run"), c.Name()))
			}
		}
	}
	for _, g := range d.Gates {
		if !g.Passed && !g.NoRuns {
			d.Failures = append(d.Failures, GateFailure(g))
		}
	}
	if merr != nil {
		d.Errors = strings.Split(merr.Error(), "\n")
	}
	var names []lookAlikeSource
	for _, c := range d.Checks {
		names = append(names, lookAlikeSource{c.Contract, c.Condition})
	}
	d.Warnings = lookAlikeWarnings(names)
	// Without conditions (the metrics failed as a whole) every gate lacks
	// runs: merr says why, once.
	if len(cs) > 0 {
		d.Errors = append(d.Errors, gateErrors(in.Programs, cs, d.Gates)...)
	}
	d.setExitCode()
}

// BuildTests returns the Document of tenet test: one contract and its
// tests' results.
func BuildTests(version string, c Contract, tests []TestResult) *Document {
	d := &Document{Command: CommandTest, Version: version, Contracts: []Contract{c}, Tests: tests}
	for _, t := range tests {
		if !t.Passed {
			d.Failures = append(d.Failures, fmt.Sprintf("test %q failed", t.Name))
		}
	}
	d.setExitCode()
	return d
}

// BuildComparison returns the Document of tenet compare.
func BuildComparison(version string, inputs []string, nruns int, c *metrics.Comparison) *Document {
	return &Document{Command: CommandCompare, Version: version, Inputs: sorted(inputs), Runs: nruns, Comparison: c}
}

// CutComparison bounds the ids c names to maxListed in all (0 or less: no
// bound), in document order: transition by transition, the lost ids then
// the gained ones, the first ones of each list kept and the rest counted in
// MoreLostIDs and MoreGainedIDs. It returns the budget it applied (0 for
// none), for Document.MaxListed.
func CutComparison(c *metrics.Comparison, maxListed int) int {
	if maxListed <= 0 {
		return 0
	}
	left := maxListed
	cut := func(ids []string, more *int) []string {
		n := min(len(ids), left)
		left -= n
		*more += len(ids) - n
		return ids[:n:n]
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		t.LostIDs = cut(t.LostIDs, &t.MoreLostIDs)
		t.GainedIDs = cut(t.GainedIDs, &t.MoreGainedIDs)
	}
	return maxListed
}

// sorted returns a sorted copy: a report does not depend on the order
// files were named in.
func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func (d *Document) setExitCode() {
	switch {
	case len(d.Errors) > 0:
		d.ExitCode = 2
	case len(d.Failures) > 0:
		d.ExitCode = 1
	default:
		d.ExitCode = 0
	}
}

// GateFailure is the one-line message for a failed gate requirement:
// "gate release failed for gpt-4o: metrics.targeted_asr <= 0.1: is false
// (targeted_asr = 0.5000)", as the gates table says it.
func GateFailure(g eval.GateResult) string {
	return fmt.Sprintf("gate %s failed for %s: %s: %s", g.Gate, g.Condition, g.Requirement, g.Reason)
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
			v.Witness = append(v.Witness, WitnessStep{Step: s, Item: w[s], Tool: toolOf(r, w[s])})
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

// ofContract keeps the conditions of one contract.
func ofContract(cs []metrics.Condition, contract string) []metrics.Condition {
	var out []metrics.Condition
	for _, c := range cs {
		if c.Contract == contract {
			out = append(out, c)
		}
	}
	return out
}

// cutNote is the line a format writes under a list that leaves out n
// entries, some of them because the Document's budget (MaxListed) cut the
// list: "… and 374,454 more violations: the runs file names every
// run with its origin FILE:LINE; tenet explain CONTRACT --run FILE:LINE
// FILE explains one" (the runs file holds labels, not transcripts: explain
// judges the run again from its transcript record, which the origin
// names). noun is the plural of what the list holds.
func cutNote(n int, noun string) string {
	if n == 1 {
		// "violations" → "violation", "unknown results" → "unknown
		// result", "runs with calls …" → "run with calls …".
		words := strings.Split(noun, " ")
		for i, w := range words {
			if strings.HasSuffix(w, "s") {
				words[i] = strings.TrimSuffix(w, "s")
				break
			}
		}
		noun = strings.Join(words, " ")
	}
	return fmt.Sprintf("… and %s more %s: the runs file names every run with its origin FILE:LINE; tenet explain CONTRACT --run FILE:LINE FILE explains one", thousands(n), noun)
}

// moreNote is the line under a list of which a format shows shown entries
// of the listed ones, the Document having cut cut more: "… and N more"
// when only the format left entries out, cutNote when the budget did; ""
// when nothing was left out.
func moreNote(listed, shown, cut int, noun string) string {
	switch {
	case cut > 0:
		return cutNote(listed-shown+cut, noun)
	case listed > shown:
		return fmt.Sprintf("… and %d more", listed-shown)
	}
	return ""
}

// thousands renders n with commas between groups of three digits:
// "374,454".
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// count renders "1 run", "3 runs".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
