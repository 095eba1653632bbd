package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/paths"
)

func compareCmd() *cobra.Command {
	var reference, defended string
	var maxRecord int
	var rf reportFlags
	var trust trustFlags
	cmd := &cobra.Command{
		Use:   "compare --reference C1 --defended C2 RUNS.jsonl...",
		Short: "Paired comparison of two conditions: transitions per task and case, McNemar p-values",
		Long: `Compare two conditions of one contract on the same tasks and cases (docs/metrics.md),
from runs files: benign utility paired on tasks; utility under attack,
attack success, side effect and secure utility paired on cases. Per
property: kept_success, lost, gained, kept_failure, both rates, gain and
loss rates, net effect, the exact McNemar p-value, and the lost and gained
ids. A condition is named condition, or contract:condition.

Refused (exit 2) when the task or case ids differ, the runs name different
bundles or attempt budgets, a condition has unknown labels or any other
metric error, or more than one repetition. See docs/metrics.md.

compare reads no bundle, so it cannot check a signature: --verify-key or
TENET_VERIFY_KEY is an error (check the runs with tenet report --contract
X.tnb first). --expect-bundle-id refuses every run whose bundle field is
not one of the ids. See docs/bundle.md, "Signing".`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := paths.CheckInputs(args); err != nil {
				return err
			}
			if err := rf.check(args); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			if maxRecord < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", maxRecord)
			}
			pol, err := trust.runsPolicy("compare reads no bundle, so it cannot check one: check the runs with tenet report --contract X.tnb (the signed bundle that judged them), then compare them with --expect-bundle-id and that bundle's id, leaving out --verify-key and " + verifyKeyEnv + ".")
			if err != nil {
				return err
			}
			recs, at, err := runs.ReadFilesAt(runs.ReadOptions{MaxRecordBytes: maxRecord}, args...)
			if err != nil {
				return readRunsFailed(cmd, err)
			}
			if err := assemble.CheckIDs(recs, at, args, pol.IDs); err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				return exitError{exitBad}
			}
			c, err := metrics.Compare(recs, reference, defended, metrics.Options{})
			if err != nil {
				for _, line := range strings.Split(err.Error(), "\n") {
					fmt.Fprintf(stderr, "%s: refused: %s\n", cmd.CommandPath(), line)
				}
				return exitError{exitBad}
			}
			return rf.write(cmd, report.BuildComparison(compiler.Version, args, len(recs), &c, rf.maxItems))
		},
	}
	cmd.Flags().IntVar(&maxRecord, "max-record-bytes", runs.DefaultMaxRecordBytes, "longest runs-file record (line) accepted, in bytes")
	cmd.Flags().StringVar(&reference, "reference", "", "the reference condition (e.g. the undefended model)")
	cmd.Flags().StringVar(&defended, "defended", "", "the defended condition")
	rf.add(cmd)
	rf.addMaxItems(cmd)
	trust.addRunsOnly(cmd)
	cmd.MarkFlagRequired("reference")
	cmd.MarkFlagRequired("defended")
	return cmd
}
