// Package assemble turns judged runs, and the contracts that judged them,
// into a report.Document: it feeds the records to a summary.Collector,
// evaluates the contracts' gates on the metrics (eval/gates) and hands
// both to report.Build, which computes nothing. tenet eval and tenet
// report build their Documents here, so the two agree byte for byte on
// the same runs. Before a report, CheckRuns refuses the runs it cannot
// report: against contracts (CheckContractRuns) another contract's,
// another bundle's, or runs lacking labels the contract judges on every
// run; without them, runs of a bundle not expected (CheckIDs,
// --expect-bundle-id) and runs of one contract judged by several bundles
// (MixedBundles). Evaluate is the whole flow of tenet eval, shared with
// the root package's Evaluate: transcript files judged by the contracts
// (eval/pipeline, its sorters spilling near the runs file: SortDirNear),
// the judged runs streamed in key order to the runs file and to an
// Assembler, or the bad records as a *BadRecordsError.
//
// It imports compiler/bundle (the labels a contract judges on every run),
// eval (the loaded contracts and what happened to the records they read),
// eval/failpolicy (the invariants' severities), eval/pipeline, eval/gates, eval/metrics, eval/report, eval/runs,
// eval/summary and internal/progress; nothing below it imports it.
package assemble

import (
	"errors"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/gates"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	"github.com/tenetlang/tenet/eval/summary"
)

// Input is what a Document is assembled from, besides the records.
type Input struct {
	Command   string // one of the report.Command constants
	Version   string
	Inputs    []string
	Contracts []report.Contract
	// Programs are the loaded contracts: their gates are evaluated, and
	// their tasks, cases and attempt rules (eval.Program.Declared) are the
	// metrics'. None: the tasks and cases are those of the records, and
	// there are no gates.
	Programs []*eval.Program
	Metrics  metrics.Options
	// MaxListed bounds the entries of each kind of list the Document holds
	// (summary.NewCollector); 0 or less: no bound.
	MaxListed int
	// Profiles are the profiles the runs were also judged under (tenet
	// eval --profile): the Document counts the labels each flips
	// (summary.FlipCounter).
	Profiles []string
	// NoViolations leaves the Document's Violations out (nil, and
	// MoreViolations 0): the table does not show them, and on a corpus of
	// many conditions they are a large part of what the report holds
	// (summary.Collector.SkipViolations). Only for the table format.
	NoViolations bool
	// RunsFiles are the runs files that name every run: tenet eval's
	// --out (none without it), those tenet report reads. A list the
	// budget cut points there (report.RunsFiles.CutNote).
	RunsFiles []string
	// Policy says which failures fail the run (report.Document.Policy);
	// the invariants' severities it may need come from Programs.
	Policy failpolicy.Policy
	// Shard, when not the whole, is the shard the runs are of (set by
	// Evaluate from Options.Shard): the gates, which hold for the whole
	// evaluation, are not evaluated, and the Document says so.
	Shard shard.Shard
}

// Assembler builds a Document from records added one at a time in key
// order (runs.Key.Compare), as a runsort.Sorted yields them, holding one
// condition's records at a time (summary.Collector).
type Assembler struct {
	in    Input
	c     *summary.Collector
	flips *summary.FlipCounter
}

// New returns an Assembler for in with no record added.
func New(in Input) *Assembler {
	c := summary.NewCollector(in.declared(), in.Metrics, in.MaxListed)
	if in.NoViolations {
		c.SkipViolations()
	}
	return &Assembler{in: in, c: c, flips: summary.NewFlipCounter(in.Profiles)}
}

// declared is each program's tasks, cases and attempt rules by contract
// name; nil without programs.
func (in Input) declared() map[string]metrics.Declared {
	if len(in.Programs) == 0 {
		return nil
	}
	declared := map[string]metrics.Declared{}
	for _, p := range in.Programs {
		declared[p.Bundle.Manifest.Contract] = summary.Declared(p.Bundle)
	}
	return declared
}

// Add adds one record; records come in key order (summary.Collector.Add).
func (a *Assembler) Add(r runs.Record) error {
	a.flips.Add(r)
	return a.c.Add(r)
}

// Document returns the report of the records added. The Assembler must
// not be used after it.
func (a *Assembler) Document() *report.Document {
	d := document(a.in, a.c.Results())
	d.Profiles = a.flips.Result()
	return d
}

// document evaluates the gates on res and builds the Document.
func document(in Input, res summary.Results) *report.Document {
	var gs []report.GateResult
	var gerrs []string
	var sh *report.Shard
	if in.Shard.Whole() {
		gs, gerrs = gates.Evaluate(in.Programs, res.Conditions, res.Checks)
	} else {
		sh = &report.Shard{Index: in.Shard.Index, Count: in.Shard.Count}
		if errors.Is(res.Err, summary.ErrNoRuns) {
			// A shard may hold no case (more shards than cases): not an
			// error of its own; the merged report says whether the whole
			// has runs.
			res.Err = nil
		}
	}
	return report.Build(report.Input{
		Command: in.Command, Version: in.Version, Inputs: in.Inputs, Contracts: in.Contracts,
		Results: res, Gates: gs, GateErrors: gerrs, MaxListed: in.MaxListed, RunsFiles: in.RunsFiles, Sources: Sources(in.Programs),
		Policy: in.Policy, Severities: severities(in.Programs), Shard: sh,
	})
}

// severities are the severities of the programs' invariants, by contract
// name (the runs' contract) and invariant name. A severity the bundle
// spells in no known way stays unknown, which fails closed.
func severities(progs []*eval.Program) failpolicy.Severities {
	out := failpolicy.Severities{}
	for _, p := range progs {
		m := map[string]failpolicy.Severity{}
		for _, inv := range p.Bundle.Plan.Invariants {
			m[inv.Name], _ = failpolicy.ParseSeverity(inv.Severity)
		}
		out[p.Bundle.Manifest.Contract] = m
	}
	return out
}

// Build returns the Document of recs, in any order: the one an Assembler
// fed them in key order gives.
func Build(in Input, recs []runs.Record) *report.Document {
	d := document(in, summary.Collect(recs, in.declared(), in.Metrics, in.MaxListed))
	flips := summary.NewFlipCounter(in.Profiles)
	for _, r := range recs {
		flips.Add(r)
	}
	d.Profiles = flips.Result()
	return d
}
