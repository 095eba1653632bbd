package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/precommit"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/internal/synth"
)

// devCmd groups tools for tenet's own developers: hidden from help, not
// part of the documented interface, free to change.
func devCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:    "dev",
		Short:  "Tools for tenet's developers (unsupported, may change)",
		Hidden: true,
	}
	// precommit is the exception: the published hooks name it (precommit's doc).
	cmd.AddCommand(devSynthCmd(), precommit.Command(help, checkCmd().RunE))
	return cmd
}

func devSynthCmd() *cobra.Command {
	var (
		runs int
		seed int64
		out  string
	)
	cmd := &cobra.Command{
		Use:   "synth --runs N [--seed S] -o FILE",
		Short: "Write a synthetic AgentDojo banking corpus (JSONL) for benchmarks",
		Long:  help("dev-synth"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runs < 0 {
				return errors.New("--runs must be 0 or more")
			}
			if err := paths.CheckOutput(out, nil); err != nil {
				return err
			}
			start := time.Now()
			st, err := synth.WriteFile(out, runs, seed)
			if err != nil {
				return err
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d runs (%d attacked; utility %d, attack success %d, side effect %d), %d bytes, seed %d\n",
				out, st.Runs, st.Attacked, st.Utility, st.AttackSuccess, st.SideEffect, st.Bytes, seed)
			fmt.Fprintf(cmd.ErrOrStderr(), "%.2f s, %.0f MB/s\n", secs, float64(st.Bytes)/1e6/secs)
			return nil
		},
	}
	cmd.Flags().IntVar(&runs, "runs", 0, "number of runs to write (required)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "random seed")
	cmd.Flags().StringVarP(&out, "out", "o", "", "file to write (required)")
	cmd.MarkFlagRequired("runs")
	cmd.MarkFlagRequired("out")
	return cmd
}
