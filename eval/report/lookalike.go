package report

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// maxLookAlikeNames bounds the names one warning lists (the rest are
// counted), and maxLookAlikeWarnings the warnings of one kind, so that a
// runs file of 200,000 look-alike conditions cannot make a report of them.
const (
	maxLookAlikeNames    = 10
	maxLookAlikeWarnings = 20
)

// lookAlikeWarnings warns of conditions (and contracts) whose names differ
// only by white space, Unicode normalisation or look-alike characters
// (runs.LookAlikes): they are reported apart, as the names differ, but
// print nearly the same, so the reader is told which rows look alike and
// why. Names are not merged: which one is right is the user's call.
// Conditions are compared across contracts, as the leaderboard pools
// conditions by name.
//
//	conditions gpt-4o, "gpt-4o " differ only by white space: they are reported as different conditions
func lookAlikeWarnings(checks []lookAlikeSource) []string {
	var conds, contracts []string
	for _, c := range checks {
		conds = append(conds, c.Condition)
		contracts = append(contracts, c.Contract)
	}
	var out []string
	for _, k := range []struct {
		plural string
		names  []string
	}{{"contracts", contracts}, {"conditions", conds}} {
		groups := runs.LookAlikes(k.names)
		for i, g := range groups {
			if i == maxLookAlikeWarnings {
				out = append(out, fmt.Sprintf("… and %d more groups of look-alike %s", len(groups)-i, k.plural))
				break
			}
			var shown []string
			for j, n := range g.Names {
				if j == maxLookAlikeNames {
					shown = append(shown, fmt.Sprintf("and %d more", len(g.Names)-j))
					break
				}
				shown = append(shown, runs.Printable(n))
			}
			out = append(out, fmt.Sprintf("%s %s differ only by %s: they are reported as different %s",
				k.plural, strings.Join(shown, ", "), g.Differ, k.plural))
		}
	}
	return out
}

// lookAlikeSource is a (contract, condition) of a report.
type lookAlikeSource struct{ Contract, Condition string }
