package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/cmd/tenet/internal/historycmd"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

func evalCmd() *cobra.Command {
	var opt pipeline.Options
	var out string
	var mf cliflags.Metrics
	var rf reportFlags
	var lim cliflags.Limits
	var inf cliflags.Inputs
	var pf cliflags.Profiles
	var trust cliflags.Trust
	var cf cliflags.Cache
	var fo cliflags.FailOn
	var hf cliflags.History
	sortBytes := defaultSortBytes
	cmd := &cobra.Command{
		Use:   "eval (DIR|X.tnb) FILES...",
		Short: "Judge transcripts with a contract and report metrics",
		Long:  help("eval"),
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := mf.Check(); err != nil {
				return err
			}
			if !opt.Shard.Whole() && (hf.Record || hf.NoCaseLost) { // the history holds whole evaluations
				f, verb := "--no-case-lost", "gate"
				if hf.Record {
					f, verb = "--record", "record"
				}
				return fmt.Errorf("%s %ss a whole evaluation, not shard %s: %s the merged shards with tenet report --contract %s %s shard-*.jsonl (with this command's metric flags, e.g. --cases)", f, verb, opt.Shard, verb, args[0], f)
			}
			// Each worker holds up to a few records in flight: a bound keeps
			// a typo (--workers 99999999) from exhausting memory.
			if opt.Workers < 0 || opt.Workers > assemble.MaxWorkers {
				return fmt.Errorf("--workers %d: want 0 (one per CPU) to %d", opt.Workers, assemble.MaxWorkers)
			}
			if opt.Transcript.MaxRecordBytes < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", opt.Transcript.MaxRecordBytes)
			}
			if d := opt.Transcript.MaxDepth; d < 1 || d > transcript.DefaultMaxDepth {
				return fmt.Errorf("--max-depth %d: want 1 to %d", d, transcript.DefaultMaxDepth)
			}
			profiles, err := pf.Names()
			if err != nil {
				return err
			}
			if err := lim.Check(); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			list, err := inf.Expand(args[0], args[1:])
			if err != nil {
				return err
			}
			defer list.Close()
			files := list.Files
			inputs := append(append([]string{args[0]}, files...), lang.SourceFiles(args[0])...)
			if err := rf.Check(inputs); err != nil {
				return err
			}
			if out != "" && out != "-" {
				if err := paths.CheckOutput(out, inputs); err != nil {
					return err
				}
				if rf.Out != "" && paths.SameFile(out, rf.Out) {
					return fmt.Errorf("--out and --report-out name the same file %s", out)
				}
			}
			hist, err := historycmd.Prepare(&hf) // a database that cannot be used is refused before judging
			if err != nil {
				return err
			}
			defer hist.Close()
			pol, err := trust.Policy()
			if err != nil {
				return err
			}
			progs, err := loadPrograms(args[0], stderr, pol, cf.Cache(), true)
			if err != nil {
				return err
			}
			for _, p := range progs {
				lim.Apply(p) // before any run is judged
			}
			// The judged runs wait in sorters (memory bounded by
			// --sort-memory, the rest in temporary files next to --out):
			// they are streamed in key order to the runs file and, one
			// condition at a time, to the report.
			opt.SortBytes, opt.MaxErrors, opt.Context = sortBytes, maxBadRecords, cmd.Context()
			// The runs file and --report-out are one set: neither is
			// replaced unless both are written (a full disk while the
			// report is written must not leave a new runs file next to
			// an old report).
			var outputs atomicfile.Set
			defer outputs.Abort() // after Commit, a no-op
			in := assemble.EvalInput{Input: assemble.Input{Command: report.CommandEval, Version: compiler.Version,
				Inputs: args[1:], Programs: progs, Metrics: mf.Options(), MaxListed: rf.MaxItems, Profiles: profiles, NoViolations: rf.Tables(), Policy: fo.Policy},
				Files: files, Options: opt, Progress: stderr}
			in.Options.Open, in.Size, in.Keep = list.Open, list.Size, hf.Record || hf.NoCaseLost
			if out == "-" { // the report goes to --report-out (flagcheck)
				in.Runs = func() (io.Writer, error) { return cmd.OutOrStdout(), nil }
			} else if out != "" {
				in.Options.SortDir, in.RunsFiles = assemble.SortDirNear(out), []string{out}
				in.Runs = func() (io.Writer, error) { return outputs.Create(out, 0o644) }
			}
			ev, err := assemble.Evaluate(in)
			if bad := (*assemble.BadRecordsError)(nil); errors.As(err, &bad) {
				fmt.Fprintln(stderr, strings.Join(bad.Lines, "\n"))
				return fmt.Errorf("%s; nothing written", report.Count(bad.N, "bad record"))
			} else if err != nil {
				return err
			}
			if err := hist.Gate(ev.Document, ev.Runs); err != nil {
				return err
			}
			rf.Record = hist.Recorder(cmd, ev.Runs, nil, files, list.Open)
			return rf.write(cmd, ev.Document, &outputs)
		},
	}
	cliflags.AddReading(cmd, &opt.Source, &opt.Format)
	cmd.Flags().StringVar(&opt.Grant, "grant", "", "audit calls against this grant (default: the source's grant)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the labelled runs (JSONL, docs/runs-format.md) to this file, atomically (-: stdout, with --report-out FILE)")
	flagcheck.AcceptDash(cmd, "out")
	cmd.Flags().IntVar(&opt.Transcript.MaxRecordBytes, "max-record-bytes", transcript.DefaultMaxRecordBytes, "longest transcript record (line) accepted, in bytes")
	cmd.Flags().IntVar(&opt.Transcript.MaxDepth, "max-depth", transcript.DefaultMaxDepth, "deepest nesting of arrays and objects accepted in a transcript record (at most the default)")
	lim.Add(cmd)
	inf.Add(cmd)
	pf.Add(cmd)
	cmd.Flags().Var(&opt.Shard, "shard", "judge only shard i of n: the runs whose task (contract, condition, task) hashes to it; tenet report --out merges the shards' runs files (docs/scale-out.md)")
	cmd.Flags().IntVar(&opt.Workers, "workers", 0, "goroutines that decode and judge records (0: one per CPU); the output does not depend on it")
	cmd.Flags().IntVar(&sortBytes, "sort-memory", defaultSortBytes, "bytes of judged runs held in memory before they are sorted in temporary files (0: all in memory)")
	cmd.Flags().MarkHidden("sort-memory")
	mf.Add(cmd, "unknown labels: refuse (metrics of their condition refuse) or bounds (every rate as [low, high])")
	rf.Add(cmd)
	rf.AddMaxItems(cmd)
	trust.Add(cmd)
	cf.Add(cmd)
	fo.Add(cmd, report.CommandEval)
	hf.Add(cmd)
	return cmd
}

// defaultSortBytes is the memory tenet eval gives the judged runs (encoded)
// before it sorts them in temporary files (pipeline.Options.SortBytes).
const defaultSortBytes = 32 << 20

// maxBadRecords is how many bad records tenet eval names per contract (the
// first in input order); it counts the others, so that memory and stderr
// stay bounded however many there are.
const maxBadRecords = 100
