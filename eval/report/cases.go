package report

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/metrics"
)

// CasesLine is the line every format gives a condition whose denominators
// were taken under metrics.CasesObserved (--cases observed), so that a
// rate over the cases that ran is never read as one over the contract's
// declared cases:
//
//	cases: observed — banking:gpt-4o: 16 of 144 declared security cases ran, 16 of 16 declared tasks ran; its metrics and gates are over those
//
// "" for any other condition (declared, or without declarations), whose
// denominators are what they always were.
func CasesLine(c metrics.Condition) string {
	if c.Cases != metrics.CasesObserved {
		return ""
	}
	return fmt.Sprintf("cases: %s — %s: %d of %d declared security cases ran, %d of %d declared tasks ran; its metrics and gates are over those",
		metrics.CasesObserved, ShownName(c.Name()), c.DeclaredCases-c.LeftOutCases, c.DeclaredCases, c.DeclaredTasks-c.LeftOutTasks, c.DeclaredTasks)
}

// casesLines is CasesLine of every condition that has one, in order
// (Document.Cases).
func casesLines(conds []metrics.Condition) []string {
	var out []string
	for _, c := range conds {
		if line := CasesLine(c); line != "" {
			out = append(out, line)
		}
	}
	return out
}
