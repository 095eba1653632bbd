package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/leaderboard"
)

// WriteLeaderboard writes one row per condition pooled over contracts:
//
//	leaderboard (4 contracts: agentdojo-banking, agentdojo-slack, …)
//	condition  |T|  |C|  benign_utility   utility_under_attack  targeted_asr     secure_utility_in_scope
//	gpt-4o     97   97   0.6907 (67/97)   0.5052 (49/97)        0.4742 (46/97)   0.3093 (30/97)
//
// A rate that unknown labels can change prints as "[low, high]" with the
// count of unknowns; a condition whose metrics could not be computed for
// some contract prints its first error instead.
func WriteLeaderboard(w io.Writer, rows []leaderboard.Row) error {
	if len(rows) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	contracts := map[string]bool{}
	for _, r := range rows {
		for _, c := range r.Contracts {
			contracts[c] = true
		}
	}
	var cs []string
	for c := range contracts {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	fmt.Fprintf(bw, "\nleaderboard (%d contracts: %s; rates pooled over their tasks and cases)\n", len(cs), strings.Join(cs, ", "))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	row(tw, []string{"condition", "|T|", "|C|", "benign_utility", "utility_under_attack", "targeted_asr", "secure_utility_in_scope"})
	var errs []string
	for _, r := range rows {
		cells := []string{ShownName(r.Condition), fmt.Sprint(r.Tasks), fmt.Sprint(r.Cases)}
		if r.Err != nil {
			cells = []string{ShownName(r.Condition), "—", "—", "—", "—", "—", "—"}
			errs = append(errs, fmt.Sprintf("  %s: %s", ShownName(r.Condition), OneLine(r.Err.Error())))
		} else {
			for i := range leaderboard.Rates {
				if r.Low[i] == r.High[i] {
					cells = append(cells, r.Low[i].String())
				} else {
					cells = append(cells, fmt.Sprintf("[%.4f, %.4f]", r.Low[i].Value(), r.High[i].Value()))
				}
			}
		}
		row(tw, cells)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(errs) > 0 {
		section(bw, "leaderboard rows without rates", errs)
	}
	return bw.Flush()
}
