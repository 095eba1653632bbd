package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

func reportCmd() *cobra.Command {
	var format, unknown string
	cmd := &cobra.Command{
		Use:   "report RUNS.jsonl...",
		Short: "Recompute metrics from runs files (labels from tenet or any harness)",
		Long: `Recompute the metrics of DESIGN §7 from runs files (docs/runs-format.md):
labels written by 'tenet eval --out' or by any other harness. The task and
case sets are those present in the files. Invalid files are refused with
file:line and the run named: exit 2.

Unknown labels make the metrics of their condition refuse (exit 2), unless
--unknown=bounds: then every rate is reported as the interval over all
assignments of the unknown labels, with the number of unknowns it reads.
See docs/metrics.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" {
				return fmt.Errorf("unknown --format %q: this version writes table", format)
			}
			if err := checkUnknownFlag(unknown); err != nil {
				return err
			}
			if err := checkInputs(args); err != nil {
				return err
			}
			recs, err := runs.ReadFiles(args...)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "%v\n", err)
				return exitError{exitBad}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d runs from %d %s\n", len(recs), len(args), plural(len(args), "file", "files"))
			return writeResults(cmd.OutOrStdout(), cmd.ErrOrStderr(), recs, nil, nil, metrics.Options{Unknown: unknown})
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "report format: table")
	cmd.Flags().StringVar(&unknown, "unknown", metrics.UnknownRefuse, "unknown labels: refuse (the condition's metrics are an error) or bounds (every rate as [low, high] over the unknowns)")
	return cmd
}

// checkUnknownFlag checks the value of --unknown.
func checkUnknownFlag(v string) error {
	if v != metrics.UnknownRefuse && v != metrics.UnknownBounds {
		return fmt.Errorf("unknown --unknown %q: want %s or %s", v, metrics.UnknownRefuse, metrics.UnknownBounds)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
