package report

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteGates writes one line per gate requirement and condition:
//
//	gates
//	gate     condition  result  requirement
//	release  gpt-4o     FAILED  metrics.targeted_asr <= 0.10: is false (targeted_asr = 0.5000)
//	release  gpt-4o     ok      metrics.benign_utility >= 0.60
//	strict   gtp-4o     NOT RUN metrics.benign_utility == 1.0: no runs of this condition were evaluated
//
// NOT RUN: the gate lists a condition that has no runs (an error, exit 2).
// Nothing is written when there are no gates.
func WriteGates(w io.Writer, gs []GateResult) error {
	if len(gs) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "\ngates")
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	row(tw, []string{"gate", "condition", "result", "requirement"})
	for _, g := range gs {
		result, req := "ok", g.Requirement
		switch {
		case g.NoRuns:
			result, req = "NOT RUN", g.Requirement+": "+g.Reason
		case !g.Passed:
			result, req = "FAILED", g.Requirement+": "+g.Reason
		}
		row(tw, []string{g.Gate, g.Condition, result, req})
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}
