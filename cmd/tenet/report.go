package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/historycmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/runsout"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

func reportCmd() *cobra.Command {
	var contract string
	var mf cliflags.Metrics
	var maxRecord int
	var rf reportFlags
	var trust cliflags.Trust
	var cf cliflags.Cache
	var fo cliflags.FailOn
	var hf cliflags.History
	var ro runsout.Flag
	cmd := &cobra.Command{
		Use:   "report [--contract DIR|X.tnb] RUNS.jsonl...",
		Short: "Recompute metrics from runs files (labels from tenet or any harness)",
		Long:  help("report"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := mf.Check(); err != nil {
				return err
			}
			if err := paths.CheckInputs(args); err != nil {
				return err
			}
			inputs := args
			if contract != "" {
				inputs = append(append([]string{contract}, args...), lang.SourceFiles(contract)...)
			}
			if err := rf.Check(inputs); err != nil {
				return err
			}
			if err := ro.Check(inputs, rf.Out); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			if maxRecord < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", maxRecord)
			}
			hist, err := historycmd.Prepare(&hf) // a database that cannot be used is refused before reading
			if err != nil {
				return err
			}
			defer hist.Close()
			// The trust flags are checked before any runs file is read: a
			// key that cannot apply is a usage error, whatever the runs.
			var pol bundle.Policy
			if contract == "" {
				pol, err = trust.RunsPolicy("To verify them, report with --contract X.tnb, the signed bundle that judged them: the bundle is checked against the key and every run must name its id.")
			} else {
				pol, err = trust.Policy()
			}
			if err != nil {
				return err
			}
			recs, at, err := runs.ReadFilesAt(runs.ReadOptions{MaxRecordBytes: maxRecord, Foreign: decisionlog.Foreign}, args...)
			if err != nil {
				return readRunsFailed(cmd, err)
			}
			ro.Note(stderr, cmd.CommandPath(), contract, recs)
			var progs []*eval.Program
			if contract != "" {
				if progs, err = loadPrograms(contract, stderr, pol, cf.Cache(), true); err != nil {
					return err
				}
			}
			// Under a trust flag the runs must prove which bundle judged
			// them; otherwise a run without a bundle field (labels from
			// another harness, or a field stripped) passes, counted.
			unnamed, err := assemble.CheckRuns(recs, at, args, progs, pol.IDs, trust.InForce(pol))
			if err != nil {
				return refused(stderr, err)
			}
			if unnamed > 0 {
				fmt.Fprintf(stderr, "%s: warning: %d of %d runs carry no bundle id (labels from another harness, or the field removed): nothing shows they were judged by the contract's bundle; --verify-key, %s or --expect-bundle-id refuses them\n",
					cmd.CommandPath(), unnamed, len(recs), cliflags.VerifyKeyEnv)
			}
			opts := mf.Options()
			if decisionlog.AnyRead(recs) && !cmd.Flags().Changed("unknown") {
				opts.Unknown = metrics.UnknownBounds // a decision log holds no outcomes (docs/cli.md)
			}
			d := assemble.Build(assemble.Input{
				Command: report.CommandReport, Version: compiler.Version, Inputs: args,
				Programs: progs, Metrics: opts, MaxListed: rf.MaxItems, RunsFiles: args, Policy: fo.Policy,
			}, recs)
			if n, in := decisionlog.Undecided(recs); n > 0 {
				// The audit cannot count them: without this, a log of such
				// lines reads as calls 0.
				d.Warnings = append(d.Warnings, fmt.Sprintf("%d decision-log %s decided no call (an entry with an error, no decision) in %d %s: the authorization audit does not count them; each run's utility reason names its first such line",
					n, runs.Plural(n, "line", "lines"), in, runs.Plural(in, "run", "runs")))
			}
			if err := hist.Gate(d, recs); err != nil {
				return err
			}
			outputs, err := ro.Write(cmd.OutOrStdout(), recs) // --out: the runs merged
			defer outputs.Abort()
			if err != nil {
				return err
			}
			rf.Record = hist.Recorder(cmd, recs, assemble.Given(progs), args, nil)
			return rf.write(cmd, d, outputs)
		},
	}
	cmd.Flags().IntVar(&maxRecord, "max-record-bytes", runs.DefaultMaxRecordBytes, "longest runs-file record (line) accepted, in bytes")
	cmd.Flags().StringVar(&contract, "contract", "", "take task and case sets and gates from this contract (directory, directory of contracts, or bundle)")
	mf.Add(cmd, "unknown labels: refuse (the condition's metrics are an error) or bounds (every rate as [low, high] over the unknowns)")
	rf.Add(cmd)
	rf.AddMaxItems(cmd)
	trust.Add(cmd)
	cf.Add(cmd)
	fo.Add(cmd, report.CommandReport)
	hf.Add(cmd)
	ro.Add(cmd)
	return cmd
}

// refused prints err, the runs a command refuses each at its file:line,
// and returns exit 2.
func refused(stderr io.Writer, err error) error {
	fmt.Fprintln(stderr, err)
	return exitError{exitBad}
}
