package report

import (
	"fmt"
	"io"

	"github.com/tenetlang/tenet/eval/summary"
)

// WriteProfiles writes the "profiles" section of the table report: per
// contract, condition and profile, how many paired runs' labels the
// profile flips (docs/report-formats.md, "Profiles"). Nothing without
// profiles.
func WriteProfiles(w io.Writer, flips []summary.ProfileFlips) {
	if len(flips) == 0 {
		return
	}
	// The label column is as wide as the longest label shown, so a report
	// without goal-task runs (no goal_task_utility row) keeps its bytes.
	width := 0
	for _, f := range flips {
		for _, l := range f.Labels {
			width = max(width, len(l.Label))
		}
	}
	fmt.Fprintln(w, "\nprofiles: labels flipped under each profile (condition+profile vs. condition, runs paired by task, goal, attempt, repetition)")
	for _, f := range flips {
		fmt.Fprintf(w, "  %s  %s  +%s  %s paired", ShownName(f.Contract), ShownName(f.Condition), ShownName(f.Profile), Count(f.Paired, "run"))
		if f.Unpaired > 0 {
			fmt.Fprintf(w, ", %d without a base run", f.Unpaired)
		}
		fmt.Fprintln(w)
		for _, l := range f.Labels {
			fmt.Fprintf(w, "    %-*s %s  true→false %d  false→true %d  known→unknown %d  unknown→known %d\n",
				width+1, l.Label, Count(l.Flipped(), "flip"), l.TrueToFalse, l.FalseToTrue, l.KnownToUnknown, l.UnknownToKnown)
		}
	}
}
