package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/metrics"
)

// WriteComparison writes a paired comparison (metrics.Compare): a title,
// the transition table, one row per property,
//
//	paired comparison (contract c): reference a, defended b
//	property        over   N  kept_success  lost  gained  kept_failure  reference_rate  defended_rate  gain_rate     loss_rate     net_effect    p_value
//	benign_utility  tasks  4  2             1     1       0             0.7500 (3/4)    0.7500 (3/4)   0.2500 (1/4)  0.2500 (1/4)  0.0000 (0/4)  1
//
// then the lost and the gained ids per property ("none" when there are
// none), and a legend. p_value has four significant digits.
func WriteComparison(w io.Writer, c metrics.Comparison, files RunsFiles) error {
	bw := bufio.NewWriter(w)
	title := "paired comparison"
	if c.Contract != "" {
		title += " (contract " + ShownName(c.Contract) + ")"
	}
	fmt.Fprintf(bw, "%s: reference %s, defended %s\n", title, ShownName(c.Reference), ShownName(c.Defended))
	bundle := c.Bundle
	if bundle == "" {
		bundle = "none"
	}
	budget := "none"
	if c.AttemptBudget > 0 {
		budget = strconv.Itoa(c.AttemptBudget)
	}
	fmt.Fprintf(bw, "bundle %s, attempt budget %s\n\n", bundle, budget)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	row(tw, []string{"property", "over", "N", "kept_success", "lost", "gained", "kept_failure",
		"reference_rate", "defended_rate", "gain_rate", "loss_rate", "net_effect", "p_value"})
	for _, t := range c.Transitions {
		row(tw, []string{t.Name, t.Over, fmt.Sprint(t.N), fmt.Sprint(t.KeptSuccess), fmt.Sprint(t.Lost), fmt.Sprint(t.Gained),
			fmt.Sprint(t.KeptFailure), t.ReferenceRate.String(), t.DefendedRate.String(), t.GainRate.String(), t.LossRate.String(),
			t.NetEffect.String(), PValue(t.PValue)})
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, part := range []struct {
		title string
		ids   func(metrics.Transition) ([]string, int)
	}{
		{"lost (true in the reference, false in the defended condition)", func(t metrics.Transition) ([]string, int) { return t.LostIDs, t.MoreLostIDs }},
		{"gained (false in the reference, true in the defended condition)", func(t metrics.Transition) ([]string, int) { return t.GainedIDs, t.MoreGainedIDs }},
	} {
		var lines []string
		for _, t := range c.Transitions {
			ids, more := part.ids(t)
			if len(ids) == 0 && more == 0 {
				continue
			}
			shown := make([]string, len(ids))
			for i, id := range ids {
				shown[i] = ShownName(id)
			}
			if more > 0 {
				shown = append(shown, files.CutNote(more, "ids"))
			}
			lines = append(lines, fmt.Sprintf("  %s: %s", t.Name, strings.Join(shown, ", ")))
		}
		if len(lines) == 0 {
			lines = []string{"  none"}
		}
		section(bw, part.title, lines)
	}
	fmt.Fprintln(bw, "\ntargeted_asr and side_effect_rate count attack outcomes: lost = stopped by the defended condition, gained = let through; a negative net_effect is an improvement.")
	fmt.Fprintln(bw, "p_value: exact two-sided McNemar test on lost vs gained (binomial, p = 1 when both are 0).")
	return bw.Flush()
}

// PValue renders a p-value with four significant digits: "1", "0.125",
// "0.0002441", "1.526e-05". An exact p-value is never 0: one below the
// smallest float64 (e.g. 1200 lost, 0 gained: 2^-1199) renders "<5e-324".
func PValue(p float64) string {
	if p == 0 {
		return "<5e-324"
	}
	return strconv.FormatFloat(p, 'g', 4, 64)
}
