package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// defaultRunTimeout is tenet eval's run time limit: a backstop for
// criteria that do seconds of work on one run, which only pathological
// input makes them do (an AgentDojo run is judged in well under a
// millisecond; the run cost limit stops the shapes the cost model knows
// first, deterministically). See eval.Program.RunTimeout.
const defaultRunTimeout = 5 * time.Second

// addRunTimeout adds --run-timeout to a command that judges runs;
// checkRunTimeout refuses a negative value.
func addRunTimeout(cmd *cobra.Command, d *time.Duration) {
	cmd.Flags().DurationVar(d, "run-timeout", defaultRunTimeout, "wall-clock time one run may take to judge before its remaining labels are unknown (0: no limit)")
}

func checkRunTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("--run-timeout %s: want 0 (no limit) or more", d)
	}
	return nil
}
