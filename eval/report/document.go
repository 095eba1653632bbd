package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/failpolicy"
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
	// RunsFiles name every run (Input.RunsFiles): where a cut list's note
	// points (RunsFiles.CutNote).
	RunsFiles RunsFiles

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
	// ListPassed has the table list the tests that passed too (tenet
	// test -v); by default it lists the failed ones and the counts.
	ListPassed bool
	// Profiles counts, per contract, condition and profile, the labels a
	// profile flips (tenet eval --profile; profiles.go); nil without one.
	Profiles []summary.ProfileFlips

	// Failures are the one-line reasons behind exit code 1 — a violated
	// invariant, a failed gate requirement, a failed contract test — as
	// printed on stderr: those Policy counts.
	Failures []string
	// NotFailing are the failures Policy leaves out (--fail-on,
	// --fail-on-severity): reported, one line each ending with why it does
	// not fail the run, but not behind the exit code.
	NotFailing []string
	// Policy says which failures fail the run; its zero value, every one
	// (SetPolicy).
	Policy failpolicy.Policy
	// Errors are the reasons behind exit code 2 that leave a report to
	// write: metrics that could not be computed (unknown labels, missing
	// runs), one line each.
	Errors []string
	// ExitCode is the command's exit status: 2 with Errors, else 1 with
	// Failures (those Policy counts), else 0 (docs/cli.md).
	ExitCode int
	// Warnings do not change the exit code: conditions or contracts whose
	// names differ only by white space, Unicode normalisation or
	// look-alike characters (lookAlikeWarnings), and decision-log lines
	// that decided no call (tenet report), one line each, as printed on
	// stderr.
	Warnings []string
	// Notes are facts the summary states that need no attention, one line
	// each: the recorded evaluation a passing no_case_lost gate compared
	// with (tenet --no-case-lost), so that a CI log shows its baseline.
	// They do not change the exit code; the other formats have the gate.
	Notes []string
	// Cases says, one line per condition whose denominators are the
	// declared tasks and cases that ran (metrics.CasesObserved, tenet
	// --cases observed), how many of the declared ones ran (CasesLine);
	// empty otherwise. It does not change the exit code.
	Cases []string

	// Sources say where the contracts are written (tenet eval, and tenet
	// report with --contract): the lines the sarif and github formats
	// point at. Empty otherwise.
	Sources []Source

	// Unselected counts the records no contract selected (tenet eval
	// only, set by eval/assemble.Evaluate; nil for the other commands).
	Unselected *Unselected

	// Shard says the report covers one shard of several (tenet eval
	// --shard i/n with n > 1; nil otherwise): its metrics are over that
	// shard's runs only, with the declared tasks and cases that ran as
	// denominators, and its gates are not evaluated (ShardLine).
	Shard *Shard

	// failures are every failure, whatever the Policy, in the order of
	// Failures: SetPolicy sorts them into Failures and NotFailing, by the
	// invariants' severities.
	failures   []failure
	severities failpolicy.Severities
}

// Shard is shard Index of Count (eval/shard).
type Shard struct {
	Index, Count int
}

// ShardLine says what a shard's report covers, "" for a whole one.
func ShardLine(d *Document) string {
	if d.Shard == nil {
		return ""
	}
	return fmt.Sprintf("shard %d of %d: the runs whose task falls in it; metrics over those (the declared tasks and cases that ran), gates not evaluated: tenet report over every shard's runs file gives the whole",
		d.Shard.Index, d.Shard.Count)
}

// failure is one failure of a Document: its kind and, for an invariant,
// its contract and name.
type failure struct {
	kind                failpolicy.Kind
	contract, invariant string
	line                string
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
	// RunsFiles are the runs files that name every run: tenet eval's
	// --out (none without it), the files tenet report reads.
	RunsFiles []string
	// Sources are the contracts' source locations (Document.Sources).
	Sources []Source
	// Policy says which failures fail the run (Document.Policy), and
	// Severities the severities of the contracts' invariants, by which
	// Policy.MinSeverity decides (none known: every invariant fails).
	Policy     failpolicy.Policy
	Severities failpolicy.Severities
	// Shard is Document.Shard.
	Shard *Shard
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
		RunsFiles:      in.RunsFiles,
		Conditions:     res.Conditions,
		Agreement:      res.Agreement,
		Checks:         res.Checks,
		Violations:     res.Violations,
		MoreViolations: res.MoreViolations,
		Audit:          res.Audit,
		Gates:          in.Gates,
		Leaderboard:    res.Leaderboard,
		Sources:        in.Sources,
		Shard:          in.Shard,
		severities:     in.Severities,
	}
	for _, c := range d.Checks {
		for _, inv := range c.Invariants {
			if inv.Hits > 0 {
				d.failures = append(d.failures, failure{failpolicy.Invariants, c.Contract, inv.Name, fmt.Sprintf("invariant %s violated on %s of %s in %s",
					inv.Name, Count(inv.Hits, "run"), Count(c.Runs, "run"), c.Name())})
			}
			// Fail closed: an invariant that could not be decided may
			// hide a violation (e.g. an argument of an unexpected type).
			if inv.Unknown > 0 {
				d.failures = append(d.failures, failure{failpolicy.Invariants, c.Contract, inv.Name, fmt.Sprintf("invariant %s undecided on %s of %s in %s",
					inv.Name, Count(inv.Unknown, "run"), Count(c.Runs, "run"), c.Name())})
			}
		}
	}
	for _, g := range d.Gates {
		if !g.Passed && !g.NoRuns {
			d.failures = append(d.failures, failure{kind: failpolicy.Gates, line: GateFailure(g)})
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
	d.Cases = casesLines(d.Conditions, d.Shard != nil)
	d.Errors = append(d.Errors, in.GateErrors...)
	d.SetPolicy(in.Policy)
	return d
}

// BuildTests returns the Document of tenet test: one contract and its
// tests' results.
func BuildTests(version string, c Contract, tests []TestResult) *Document {
	return BuildTestsOf(version, []Contract{c}, tests)
}

// BuildTestsOf returns the Document of tenet test on several contracts (a
// directory of contracts): their tests' results in contract order, each
// naming its contract (TestResult.Contract). A failure names the
// contract when there are several.
func BuildTestsOf(version string, cs []Contract, tests []TestResult) *Document {
	d := &Document{Command: CommandTest, Version: version, Contracts: cs, Tests: tests}
	for _, t := range tests {
		switch {
		case t.Passed:
		case len(cs) > 1:
			d.failures = append(d.failures, failure{kind: failpolicy.Tests, line: fmt.Sprintf("test %q of contract %s failed", t.Name, t.Contract)})
		default:
			d.failures = append(d.failures, failure{kind: failpolicy.Tests, line: fmt.Sprintf("test %q failed", t.Name)})
		}
	}
	d.SetPolicy(failpolicy.Policy{})
	return d
}

// BuildComparison returns the Document of tenet compare: the comparison c
// of nruns runs read from inputs (the runs files), its ids cut to maxListed in all
// (CutComparison; 0 or less: no bound).
func BuildComparison(version string, inputs []string, nruns int, c *metrics.Comparison, maxListed int) *Document {
	listed := CutComparison(c, maxListed)
	return &Document{Command: CommandCompare, Version: version, Inputs: sorted(inputs), Runs: nruns, Comparison: c, MaxListed: listed, RunsFiles: inputs}
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

// SetPolicy sorts d's failures by p into Failures (those that fail the
// run) and NotFailing (the others, each line followed by why), and sets
// the exit code: 2 with Errors, whatever p; else 1 with Failures; else 0.
// The failures are those Build or BuildTests found (kept whatever the
// policy, so that it can be set again): a Document assembled by hand has
// none for it to sort.
func (d *Document) SetPolicy(p failpolicy.Policy) {
	d.Policy, d.Failures, d.NotFailing = p, nil, nil
	for _, f := range d.failures {
		if fails, note := d.Fails(f.kind, f.contract, f.invariant); fails {
			d.Failures = append(d.Failures, f.line)
		} else {
			d.NotFailing = append(d.NotFailing, f.line+" "+note)
		}
	}
	switch {
	case len(d.Errors) > 0:
		d.ExitCode = 2
	case len(d.Failures) > 0:
		d.ExitCode = 1
	default:
		d.ExitCode = 0
	}
}

// Fails reports whether a failure of kind (of the invariant named, of
// contract, for failpolicy.Invariants) fails the run under d's Policy;
// when it does not, note says why (failpolicy.Policy.Fails). Renderers ask
// it to show such a failure as reported but not failing.
func (d *Document) Fails(kind failpolicy.Kind, contract, invariant string) (fails bool, note string) {
	return d.Policy.Fails(kind, d.severities.Of(contract, invariant), failpolicy.KindsOf(d.Command))
}

// GateFailure is the one-line message for a failed gate requirement:
// "gate release failed for gpt-4o: metrics.targeted_asr <= 0.1: is false
// (targeted_asr = 0.5000)", as the gates table says it.
func GateFailure(g GateResult) string {
	return fmt.Sprintf("gate %s failed for %s: %s: %s", g.Gate, g.Condition, g.Requirement, g.Reason)
}

// RunsFiles are the runs files that name every run of a Document: the
// file tenet eval wrote (--out; none without it), or those tenet report and
// compare read. The note under a list the Document's budget cut points the
// reader there (CutNote), so it must be the truth about this report: a
// runs file that was not written is not offered.
type RunsFiles []string

// maxNamedRunsFiles is how many runs files a cut note names; past it,
// "RUNSFILE..." stands for them.
const maxNamedRunsFiles = 3

// CutNote is the line a format writes under a list that leaves out n
// entries, some of them because the Document's budget (MaxListed) cut the
// list, with how to see them all, which depends on the runs files:
//
//	… and 374,454 more violations: runs.jsonl names every run; tenet explain runs.jsonl KEY explains one
//	… and 374,454 more violations: write every run with --out runs.jsonl; then tenet explain runs.jsonl KEY explains one
//
// (tenet explain reads the runs file; with --contract it judges the run
// again from the transcript record its origin names). noun is the plural
// of what the list holds.
func (f RunsFiles) CutNote(n int, noun string) string {
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
	return fmt.Sprintf("… and %s more %s: %s", thousands(n), noun, f.where())
}

// where says which runs files name every run and how to explain one.
func (f RunsFiles) where() string {
	switch {
	case len(f) == 0:
		return "write every run with --out runs.jsonl; then tenet explain runs.jsonl KEY explains one"
	case len(f) == 1:
		return fmt.Sprintf("%s names every run; tenet explain %s KEY explains one", f[0], shellArg(f[0]))
	case len(f) <= maxNamedRunsFiles:
		args := make([]string, len(f))
		for i, file := range f {
			args[i] = shellArg(file)
		}
		return fmt.Sprintf("the runs files name every run; tenet explain %s KEY explains one", strings.Join(args, " "))
	}
	return fmt.Sprintf("the %d runs files name every run; tenet explain RUNSFILE... KEY explains one", len(f))
}

// shellArg quotes a file name that holds more than letters, digits and
// . _ - / + @ : for a shell.
func shellArg(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/+@:", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// MoreNote is the line under a list of which a format shows shown entries
// of the listed ones, the Document having cut cut more: "… and N more"
// when only the format left entries out, CutNote when the budget did; ""
// when nothing was left out.
func (f RunsFiles) MoreNote(listed, shown, cut int, noun string) string {
	switch {
	case cut > 0:
		return f.CutNote(listed-shown+cut, noun)
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
