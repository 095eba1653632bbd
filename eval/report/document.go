package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
)

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
	Version string   // the compiler version (compiler.Version), not the build's: docs/release.md
	Inputs  []string // the files read, as named on the command line, sorted

	// Contracts are the contracts that judged transcripts (tenet eval) or
	// whose tests ran (tenet test); empty for tenet report and compare.
	Contracts []Contract
	// Runs counts the records reported (judged by tenet eval, or read from
	// runs files).
	Runs int
	// MaxListed is the budget of entries of each kind of list of runs
	// (Input.MaxListed, summary.NewCollector); 0: unlimited, every list is whole. A list that was
	// cut says how many it left out in its More field (MoreViolations,
	// tally.CheckCount.MoreHitRuns, …); the counts are never cut.
	MaxListed int

	Conditions []metrics.Condition
	// Agreement compares the labels computed with those the transcripts
	// carry; nil when no run carries a given label.
	Agreement []tally.Agreement
	Checks    []tally.Checks
	// Violations lists the runs on which an invariant did not hold, sorted
	// by run key then invariant, with the witness of its forbid pattern:
	// every such run, or with MaxListed those of the runs listed (one per
	// entry of the Checks' HitRuns). MoreViolations counts the (run,
	// invariant) pairs left out, so len(Violations) + MoreViolations is the
	// number of violations, the sum of the invariants' Hits.
	Violations     []Violation
	MoreViolations int
	Audit          []tally.AuditCounts
	Gates          []GateResult
	// Leaderboard pools each condition over contracts; nil unless the runs
	// come from more than one contract.
	Leaderboard []leaderboard.Row
	Comparison  *metrics.Comparison // tenet compare only
	Tests       []TestResult        // tenet test only
	// Profiles counts, per contract, condition and profile, the labels a
	// profile flips (tenet eval --profile; profiles.go); nil without one.
	Profiles []summary.ProfileFlips

	// Failures are the one-line reasons behind exit code 1 — a violated
	// invariant, a failed gate requirement, a failed contract test — as
	// printed on stderr.
	Failures []string
	// Errors are the reasons behind exit code 2 that leave a report to
	// write: metrics that could not be computed (unknown labels, missing
	// runs), one line each.
	Errors []string
	// ExitCode is the command's exit status: 2 with Errors, else 1 with
	// Failures, else 0 (docs/cli.md).
	ExitCode int
	// Warnings do not change the exit code: conditions or contracts whose
	// names differ only by white space, Unicode normalisation or
	// look-alike characters (lookAlikeWarnings), and decision-log lines
	// that decided no call (tenet report), one line each, as printed on
	// stderr.
	Warnings []string
	// Cases says, one line per condition whose denominators are the
	// declared tasks and cases that ran (metrics.CasesObserved, tenet
	// --cases observed), how many of the declared ones ran (CasesLine);
	// empty otherwise. It does not change the exit code.
	Cases []string

	// Unselected counts the records no contract selected (tenet eval
	// only, set by eval/assemble.Evaluate; nil for the other commands).
	Unselected *Unselected
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

// Violation is one invariant that did not hold on one run, with the
// witness of its forbid pattern (summary.Violation).
type Violation = summary.Violation

// WitnessStep is the item a pattern step matched (summary.WitnessStep).
type WitnessStep = summary.WitnessStep

// GateResult is the outcome of one requirement of one gate for one
// condition (summary.GateResult), as eval/gates evaluates it.
type GateResult = summary.GateResult

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

// Input is what Build assembles a Document from: what a command computed.
// Build computes nothing: the metrics come computed (summary.Collector),
// the gates evaluated (eval/gates).
type Input struct {
	Command   string
	Version   string
	Inputs    []string
	Contracts []Contract
	// Results are the metrics, agreement, checks, violations, audit and
	// leaderboard of the records, their lists cut to MaxListed
	// (summary.NewCollector).
	Results summary.Results
	// Gates are the results of the contracts' gates against
	// Results.Conditions, and GateErrors the gates that could not be
	// evaluated for lack of runs (eval/gates.Evaluate).
	Gates      []GateResult
	GateErrors []string
	// MaxListed is the budget per kind of list Results was computed with
	// (summary.NewCollector): 0 (or less) for none. tenet passes
	// DefaultMaxListed unless told otherwise (--report-max-items).
	MaxListed int
}

// DefaultMaxListed is the MaxListed of tenet eval, report and compare
// (--report-max-items): enough to read or grep the first runs of every
// kind of problem, and, at a few hundred bytes per reference in the
// largest format, a report of at most a few hundred KiB whatever the
// corpus. The runs file names every run.
const DefaultMaxListed = 1000

// Build assembles the Document of in: its parts as computed, and the
// failures, errors and exit code they give (docs/cli.md, exit codes).
// Metric errors (in.Results.Err) are reported in Document.Errors, never
// returned: a report is written even then.
func Build(in Input) *Document {
	res := in.Results
	d := &Document{
		Command:        in.Command,
		Version:        in.Version,
		Inputs:         sorted(in.Inputs),
		Contracts:      in.Contracts,
		Runs:           res.Runs,
		MaxListed:      max(in.MaxListed, 0),
		Conditions:     res.Conditions,
		Agreement:      res.Agreement,
		Checks:         res.Checks,
		Violations:     res.Violations,
		MoreViolations: res.MoreViolations,
		Audit:          res.Audit,
		Gates:          in.Gates,
		Leaderboard:    res.Leaderboard,
	}
	for _, c := range d.Checks {
		for _, inv := range c.Invariants {
			if inv.Hits > 0 {
				d.Failures = append(d.Failures, fmt.Sprintf("invariant %s violated on %s of %s in %s",
					inv.Name, Count(inv.Hits, "run"), Count(c.Runs, "run"), c.Name()))
			}
			// Fail closed: an invariant that could not be decided may
			// hide a violation (e.g. an argument of an unexpected type).
			if inv.Unknown > 0 {
				d.Failures = append(d.Failures, fmt.Sprintf("invariant %s undecided on %s of %s in %s",
					inv.Name, Count(inv.Unknown, "run"), Count(c.Runs, "run"), c.Name()))
			}
		}
	}
	for _, g := range d.Gates {
		if !g.Passed && !g.NoRuns {
			d.Failures = append(d.Failures, GateFailure(g))
		}
	}
	if res.Err != nil {
		d.Errors = strings.Split(res.Err.Error(), "\n")
	}
	var names []lookAlikeSource
	for _, c := range d.Checks {
		names = append(names, lookAlikeSource{c.Contract, c.Condition})
	}
	d.Warnings = lookAlikeWarnings(names)
	d.Cases = casesLines(d.Conditions)
	d.Errors = append(d.Errors, in.GateErrors...)
	d.setExitCode()
	return d
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

// BuildComparison returns the Document of tenet compare: the comparison c
// of nruns runs read from inputs, its ids cut to maxListed in all
// (CutComparison; 0 or less: no bound).
func BuildComparison(version string, inputs []string, nruns int, c *metrics.Comparison, maxListed int) *Document {
	listed := CutComparison(c, maxListed)
	return &Document{Command: CommandCompare, Version: version, Inputs: sorted(inputs), Runs: nruns, Comparison: c, MaxListed: listed}
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
func GateFailure(g GateResult) string {
	return fmt.Sprintf("gate %s failed for %s: %s: %s", g.Gate, g.Condition, g.Requirement, g.Reason)
}

// CutNote is the line a format writes under a list that leaves out n
// entries, some of them because the Document's budget (MaxListed) cut the
// list: "… and 374,454 more violations: the runs file names every
// run with its origin FILE:LINE; tenet explain CONTRACT --run FILE:LINE
// FILE explains one" (the runs file holds labels, not transcripts: explain
// judges the run again from its transcript record, which the origin
// names). noun is the plural of what the list holds.
func CutNote(n int, noun string) string {
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

// MoreNote is the line under a list of which a format shows shown entries
// of the listed ones, the Document having cut cut more: "… and N more"
// when only the format left entries out, CutNote when the budget did; ""
// when nothing was left out.
func MoreNote(listed, shown, cut int, noun string) string {
	switch {
	case cut > 0:
		return CutNote(listed-shown+cut, noun)
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

// Count renders "1 run", "3 runs".
func Count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
