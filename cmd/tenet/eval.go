package main

import (
	"bytes"
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
			prog := newProgress(stderr, files, len(progs))
			opt.Progress = prog.update
			// Each contract reads every file; its source selects its records.
			var contracts []report.Contract
			var all []runs.Record
			bad := 0
			for _, p := range progs {
				res, err := p.EvalFiles(files, opt)
				prog.next()
				if err != nil {
					prog.done()
					return err
				}
				for _, e := range res.Errors {
					prog.clear()
					fmt.Fprintln(stderr, e)
				}
				bad += len(res.Errors)
				contracts = append(contracts, report.ContractOf(p, res))
				all = append(all, res.Records...)
			}
			prog.done()
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
	cmd.Flags().StringVar(&unknown, "unknown", metrics.UnknownRefuse, "unknown labels: refuse (metrics of their condition refuse) or bounds (every rate as [low, high])")
	rf.add(cmd)
	return cmd
}
