package cliflags

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval"
)

// DefaultRunTimeout is tenet eval's run time limit: a backstop for
// criteria that do seconds of work on one run, which only pathological
// input makes them do (an AgentDojo run is judged in well under a
// millisecond; the run cost limit stops the shapes the cost model knows
// first, deterministically). It is ten times the longest a run the cost
// limit stops was measured to take (about 2 s of CPU for the default limit
// of 10^7 on a 40 MB record crafted against the common invariants), since
// on a loaded machine the wall clock runs several times the CPU time: a
// run the cost model bounds must not depend on it. See
// eval.Program.RunTimeout and docs/robustness.md.
const DefaultRunTimeout = 20 * time.Second

// Limits are the limits of a command that judges runs:
// --max-pattern-threads (eval.Program.MaxPatternThreads) and --run-timeout
// (eval.Program.RunTimeout).
type Limits struct {
	Threads int
	Timeout time.Duration
}

// Add declares the flags on cmd.
func (l *Limits) Add(cmd *cobra.Command) {
	cmd.Flags().IntVar(&l.Threads, "max-pattern-threads", eval.MaxThreads, "pattern threads alive at one item of a run before the pattern's result is unknown")
	cmd.Flags().DurationVar(&l.Timeout, "run-timeout", DefaultRunTimeout, "wall-clock time one run may take to judge before its remaining labels are unknown (0: no limit)")
}

// Check refuses a thread budget below 1 and a negative time limit.
func (l *Limits) Check() error {
	if l.Threads < 1 {
		return fmt.Errorf("--max-pattern-threads %d: want at least 1", l.Threads)
	}
	if l.Timeout < 0 {
		return fmt.Errorf("--run-timeout %s: want 0 (no limit) or more", l.Timeout)
	}
	return nil
}

// Apply sets the limits of p, before any of its runs is judged.
func (l *Limits) Apply(p *eval.Program) {
	p.MaxPatternThreads, p.RunTimeout = l.Threads, l.Timeout
}
