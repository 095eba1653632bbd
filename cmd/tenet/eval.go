package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/atomicfile"
)

func evalCmd() *cobra.Command {
	var opt eval.Options
	var out, unknown string
	var rf reportFlags
	cmd := &cobra.Command{
		Use:   "eval (DIR|X.tnb) FILES...",
		Short: "Judge transcripts with a contract and report metrics",
		Long: `Judge transcripts with a contract (a directory, compiled in memory, or a
bundle built by 'tenet build') and report the metrics of DESIGN §7 per
condition, and agreement with labels the transcripts carry.

Bad input (a malformed record, a record the source cannot map, a duplicate
run) is reported as file:line and nothing else is written: exit 2.
Unknown labels make the metrics of their condition refuse: exit 2.
A violated invariant or a failed gate requirement exits 1, each named on
stderr and in the report, whatever its format.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkUnknownFlag(unknown); err != nil {
				return err
			}
			if opt.Workers < 0 {
				return fmt.Errorf("--workers %d: want 0 (one per CPU) or more", opt.Workers)
			}
			if opt.Transcript.MaxRecordBytes < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", opt.Transcript.MaxRecordBytes)
			}
			stderr := cmd.ErrOrStderr()
			files := args[1:]
			if err := checkInputs(files); err != nil {
				return err
			}
			inputs := append(append([]string{args[0]}, files...), contractFiles(args[0])...)
			if err := rf.check(inputs); err != nil {
				return err
			}
			if out != "" {
				if err := checkOutput(out, inputs); err != nil {
					return err
				}
				if rf.out != "" && sameFile(out, rf.out) {
					return fmt.Errorf("--out and --report-out name the same file %s", out)
				}
			}
			progs, err := loadPrograms(args[0], stderr)
			if err != nil {
				return err
			}
			prog := newProgress(stderr, files, passes(progs, opt))
			opt.Progress = prog.update
			// One pass per transcript format reads every file; each
			// contract's source selects its records.
			results, err := eval.EvalCollection(progs, files, opt)
			prog.done()
			if err != nil {
				return err
			}
			var contracts []report.Contract
			var all []runs.Record
			bad := 0
			for i, p := range progs {
				res := results[i]
				for _, e := range res.Errors {
					fmt.Fprintln(stderr, e)
				}
				bad += len(res.Errors)
				contracts = append(contracts, report.ContractOf(p, res))
				all = append(all, res.Records...)
			}
			if bad > 0 {
				return fmt.Errorf("%s; nothing written", count(bad, "bad record"))
			}
			if out != "" {
				if err := writeRuns(out, all); err != nil {
					return err
				}
			}
			declared := map[string]metrics.Declared{}
			for _, p := range progs {
				declared[p.Bundle.Manifest.Contract] = p.Declared()
			}
			d := report.Build(report.Input{
				Command: report.CommandEval, Version: compiler.Version, Inputs: files,
				Contracts: contracts, Records: all, Declared: declared, Programs: progs,
				Metrics: metrics.Options{Unknown: unknown},
			})
			return rf.write(cmd, d)
		},
	}
	cmd.Flags().StringVar(&opt.Source, "source", "", "source block to map records with (default: the contract's only source)")
	cmd.Flags().StringVar(&opt.Format, "transcript-format", "", "transcript format (default: the source's format)")
	cmd.Flags().StringVar(&opt.Grant, "grant", "", "audit calls against this grant (default: the source's grant)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the labelled runs (JSONL, docs/runs-format.md) to this file, atomically")
	cmd.Flags().IntVar(&opt.Transcript.MaxRecordBytes, "max-record-bytes", transcript.DefaultMaxRecordBytes, "longest transcript record (line) accepted, in bytes")
	cmd.Flags().IntVar(&opt.Workers, "workers", 0, "goroutines that decode and judge records (0: one per CPU); the output does not depend on it")
	cmd.Flags().StringVar(&unknown, "unknown", metrics.UnknownRefuse, "unknown labels: refuse (metrics of their condition refuse) or bounds (every rate as [low, high])")
	rf.add(cmd)
	return cmd
}

// writeRuns streams the runs file to a temporary file renamed over out; on
// any error out is left as it was and the temporary file is removed.
func writeRuns(out string, recs []runs.Record) error {
	f, err := atomicfile.Create(out, 0o644)
	if err != nil {
		return err
	}
	if err := runs.Write(f, recs); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// passes is how many times the files are read: once per transcript format
// of the contracts (a contract whose source is in error counts for nothing:
// the evaluation fails before reading).
func passes(progs []*eval.Program, opt eval.Options) int {
	formats := map[string]bool{}
	for _, p := range progs {
		src, err := p.Source(opt.Source)
		if err != nil {
			continue
		}
		f := opt.Format
		if f == "" {
			f = src.Format
		}
		formats[f] = true
	}
	return max(len(formats), 1)
}
