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
// first, deterministically). It is ten times the longest a run the cost
// limit stops was measured to take (about 2 s of CPU for the default limit
// of 10^7 on a 40 MB record crafted against the common invariants), since
// on a loaded machine the wall clock runs several times the CPU time: a
// run the cost model bounds must not depend on it. See
// eval.Program.RunTimeout and docs/robustness.md.
const defaultRunTimeout = 20 * time.Second

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
