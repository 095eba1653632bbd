package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/atomicfile"
)

func evalCmd() *cobra.Command {
	var opt eval.Options
	var out, format, unknown string
	cmd := &cobra.Command{
		Use:   "eval (DIR|X.tnb) FILES...",
		Short: "Judge transcripts with a contract and report metrics",
		Long: `Judge transcripts with a contract (a directory, compiled in memory, or a
bundle built by 'tenet build') and report the metrics of DESIGN §7 per
condition, and agreement with labels the transcripts carry.

Bad input (a malformed record, a record the source cannot map, a duplicate
run) is reported as file:line and nothing else is written: exit 2.
Unknown labels make the metrics of their condition refuse: exit 2.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkUnknownFlag(unknown); err != nil {
				return err
			}
			if format != "table" {
				return fmt.Errorf("unknown --format %q: this version writes table", format)
			}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := checkInputs(args[1:]); err != nil {
				return err
			}
			if out != "" {
				if err := checkOutput(out, append(append([]string{args[0]}, args[1:]...), contractFiles(args[0])...)); err != nil {
					return err
				}
			}
			progs, err := loadPrograms(args[0], stderr)
			if err != nil {
				return err
			}
			// Each contract reads every file; its source selects its records.
			var results []*eval.Result
			var all []runs.Record
			bad := 0
			for _, p := range progs {
				res, err := p.EvalFiles(args[1:], opt)
				if err != nil {
					return err
				}
				for _, e := range res.Errors {
					fmt.Fprintln(stderr, e)
				}
				bad += len(res.Errors)
				results = append(results, res)
				all = append(all, res.Records...)
			}
			if bad > 0 {
				return fmt.Errorf("%s; nothing written", count(bad, "bad record"))
			}
			if out != "" {
				var buf bytes.Buffer
				if err := runs.Write(&buf, all); err != nil {
					return err
				}
				if err := atomicfile.Write(out, buf.Bytes(), 0o644); err != nil {
					return err
				}
			}
			declared := map[string]metrics.Declared{}
			for i, p := range progs {
				b := p.Bundle
				fmt.Fprintf(stdout, "contract %s  %s\n", strings.TrimSpace(b.Manifest.Contract+" "+b.Manifest.Version), p.ID)
				writeStats(stdout, results[i])
				declared[b.Manifest.Contract] = p.Declared()
			}
			return writeResults(stdout, stderr, all, declared, progs, metrics.Options{Unknown: unknown})
		},
	}
	cmd.Flags().StringVar(&opt.Source, "source", "", "source block to map records with (default: the contract's only source)")
	cmd.Flags().StringVar(&opt.Format, "transcript-format", "", "transcript format (default: the source's format)")
	cmd.Flags().StringVar(&opt.Grant, "grant", "", "audit calls against this grant (default: the source's grant)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the labelled runs (JSONL, docs/runs-format.md) to this file, atomically")
	cmd.Flags().IntVar(&opt.Transcript.MaxRecordBytes, "max-record-bytes", transcript.DefaultMaxRecordBytes, "longest transcript record (line) accepted, in bytes")
	cmd.Flags().StringVar(&format, "format", "table", "report format: table")
	cmd.Flags().StringVar(&unknown, "unknown", metrics.UnknownRefuse, "unknown labels: refuse (metrics of their condition refuse) or bounds (every rate as [low, high])")
	return cmd
}

// writeStats says what happened to every record read.
func writeStats(w io.Writer, res *eval.Result) {
	skipped := 0
	for _, n := range res.Skipped {
		skipped += n
	}
	fmt.Fprintf(w, "%s judged, %d %s skipped, %d %s without messages\n", count(len(res.Records), "run"), skipped, plural(skipped, "record", "records"), res.Headers, plural(res.Headers, "header line", "header lines"))
	for _, s := range []eval.Skip{eval.NotSelected, eval.TaskNotDeclared, eval.GoalNotDeclared, eval.CaseNotDeclared} {
		n := res.Skipped[s]
		if n == 0 {
			continue
		}
		line := fmt.Sprintf("  %d %s", n, s)
		if ids := res.SkippedIDs[s]; len(ids) > 0 {
			var parts []string
			for _, id := range eval.SortedIDs(ids) {
				parts = append(parts, fmt.Sprintf("%s ×%d", id, ids[id]))
			}
			line += ": " + strings.Join(parts, ", ")
		}
		fmt.Fprintln(w, line)
	}
}

// writeResults prints metrics, agreement, invariant and failure-class
// counts and, with a program, its gates. Exit status: metric errors
// (unknown labels, missing runs) give 2; otherwise a violated invariant or a
// failed gate requirement gives 1, each named on stderr.
func writeResults(stdout, stderr io.Writer, recs []runs.Record, declared map[string]metrics.Declared, progs []*eval.Program, mopt metrics.Options) error {
	cs, merr := metrics.Compute(recs, declared, mopt)
	if len(cs) > 0 {
		fmt.Fprintln(stdout, "\nmetrics (DESIGN §7; rate (numerator/denominator))")
		if err := report.WriteMetrics(stdout, cs); err != nil {
			return err
		}
	}
	if as := metrics.Agree(recs); hasGiven(recs) {
		fmt.Fprintln(stdout, "\nagreement with given labels")
		if err := report.WriteAgreement(stdout, as); err != nil {
			return err
		}
	}
	checks := metrics.CountChecks(recs)
	if err := report.WriteChecks(stdout, checks); err != nil {
		return err
	}
	if err := report.WriteAudit(stdout, metrics.CountAudit(recs)); err != nil {
		return err
	}
	var gates []eval.GateResult
	for _, p := range progs {
		gates = append(gates, p.Gates(ofContract(cs, p.Bundle.Manifest.Contract), checks)...)
	}
	if err := report.WriteGates(stdout, gates); err != nil {
		return err
	}
	contracts := map[string]bool{}
	for _, c := range cs {
		contracts[c.Contract] = true
	}
	if len(contracts) > 1 {
		if err := report.WriteLeaderboard(stdout, metrics.Leaderboard(cs)); err != nil {
			return err
		}
	}
	failed := 0
	for _, c := range checks {
		for _, inv := range c.Invariants {
			if inv.Hits > 0 {
				fmt.Fprintf(stderr, "invariant %s violated on %s of %s in %s\n", inv.Name, count(inv.Hits, "run"), count(c.Runs, "run"), c.Name())
				failed++
			}
		}
	}
	for _, g := range gates {
		if !g.Passed {
			fmt.Fprintf(stderr, "gate %s failed for %s: %s %s\n", g.Gate, g.Condition, g.Requirement, g.Reason)
			failed++
		}
	}
	if merr != nil {
		return merr // bad input outranks failures: exit 2
	}
	if failed > 0 {
		return exitError{exitFailure}
	}
	return nil
}

func hasGiven(recs []runs.Record) bool {
	for _, r := range recs {
		if r.Given.Utility != nil || r.Given.AttackSuccess != nil || r.Given.SideEffect != nil {
			return true
		}
	}
	return false
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
