package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/paths"
)

func compareCmd() *cobra.Command {
	var reference, defended string
	var maxRecord int
	var rf reportFlags
	var trust cliflags.Trust
	cmd := &cobra.Command{
		Use:   "compare --reference C1 --defended C2 RUNS.jsonl...",
		Short: "Paired comparison of two conditions: transitions per task and case, McNemar p-values",
		Long:  help("compare"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := paths.CheckInputs(args); err != nil {
				return err
			}
			if err := rf.Check(args); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			if maxRecord < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", maxRecord)
			}
			pol, err := trust.RunsPolicy("compare reads no bundle, so it cannot check one: check the runs with tenet report --contract X.tnb (the signed bundle that judged them), then compare them with --expect-bundle-id and that bundle's id, leaving out --verify-key and " + cliflags.VerifyKeyEnv + ".")
			if err != nil {
				return err
			}
			recs, at, err := runs.ReadFilesAt(runs.ReadOptions{MaxRecordBytes: maxRecord, Foreign: decisionlog.Foreign}, args...)
			if err != nil {
				return readRunsFailed(cmd, err)
			}
			if err := assemble.CheckIDs(recs, at, args, pol.IDs); err != nil {
				return refused(stderr, err)
			}
			c, err := metrics.Compare(recs, reference, defended, metrics.Options{})
			if err != nil {
				for _, line := range strings.Split(err.Error(), "\n") {
					fmt.Fprintf(stderr, "%s: refused: %s\n", cmd.CommandPath(), line)
				}
				return exitError{exitBad}
			}
			return rf.write(cmd, report.BuildComparison(compiler.Version, args, len(recs), &c, rf.MaxItems), nil)
		},
	}
	cmd.Flags().IntVar(&maxRecord, "max-record-bytes", runs.DefaultMaxRecordBytes, "longest runs-file record (line) accepted, in bytes")
	cmd.Flags().StringVar(&reference, "reference", "", "the reference condition (e.g. the undefended model)")
	cmd.Flags().StringVar(&defended, "defended", "", "the defended condition")
	rf.Add(cmd)
	rf.AddMaxItems(cmd)
	trust.AddRunsOnly(cmd)
	cmd.MarkFlagRequired("reference")
	cmd.MarkFlagRequired("defended")
	return cmd
}
