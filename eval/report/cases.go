package report

import (
	"fmt"
	"strings"

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
	return fmt.Sprintf("cases: %s — %s: %d of %d declared security cases ran, %d of %d declared tasks ran",
		metrics.CasesObserved, ShownName(c.Name()), c.DeclaredCases-c.LeftOutCases, c.DeclaredCases, c.DeclaredTasks-c.LeftOutTasks, c.DeclaredTasks) + CasesTail
}

// CasesTail ends CasesLine: what the counts are the denominators of. A
// shard's report says ShardCasesTail instead (Document.ConditionLines):
// a shard evaluates no gate.
const (
	CasesTail      = "; its metrics and gates are over those"
	ShardCasesTail = "; its metrics are over those (no gates are evaluated on a shard)"
)

// ConditionLines is ConditionLines(c) as d's report gives it: on a shard
// (d.Shard), the cases line says that no gate is evaluated.
func (d *Document) ConditionLines(c metrics.Condition) []string {
	return shardLines(ConditionLines(c), d.Shard != nil)
}

// shardLines turns the cases lines among lines into a shard's when
// sharded (in place).
func shardLines(lines []string, sharded bool) []string {
	if sharded {
		for i, l := range lines {
			if rest, ok := strings.CutSuffix(l, CasesTail); ok && strings.HasPrefix(l, "cases: ") {
				lines[i] = rest + ShardCasesTail
			}
		}
	}
	return lines
}

// ConditionLines are the lines every format gives a condition beside its
// rates: CasesLine, a line per optional set it did not run (left out, not
// an error):
//
//	cases v1.2 not run under workspace:gpt-4o: 320 security cases and 8 goal tasks left out
//
// and its goal_task_utility, which is over its goal tasks, never T or C:
//
//	goal tasks — banking:gpt-4o: goal_task_utility 0.5556 (5/9) [0.2667, 0.8112] over 9 goal tasks, apart from |T| and |C|
func ConditionLines(c metrics.Condition) []string {
	var out []string
	if line := CasesLine(c); line != "" {
		out = append(out, line)
	}
	for _, l := range c.LeftOut {
		name := "cases " + l.Label
		var parts []string
		if l.Cases > 0 {
			parts = append(parts, fmt.Sprintf("%d security %s", l.Cases, plural(l.Cases, "case", "cases")))
		}
		if l.GoalTasks > 0 || l.Cases == 0 {
			parts = append(parts, fmt.Sprintf("%d goal %s", l.GoalTasks, plural(l.GoalTasks, "task", "tasks")))
		}
		if l.Cases == 0 {
			name = "goal tasks"
		}
		out = append(out, fmt.Sprintf("%s not run under %s: %s left out", name, ShownName(c.Name()), strings.Join(parts, " and ")))
	}
	if c.GoalTasks > 0 && c.OK() {
		s := c.GoalTaskUtility
		cell := s.Low.Rate.String()
		if !s.Exact() {
			cell = boundsCell(s)
		}
		out = append(out, fmt.Sprintf("goal tasks — %s: %s %s %s over %d goal %s, apart from |T| and |C|",
			ShownName(c.Name()), metrics.GoalTaskUtilityName, cell, s.Wilson, c.GoalTasks, plural(c.GoalTasks, "task", "tasks")))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// casesLines is ConditionLines of every condition, in order
// (Document.Cases), a shard's when sharded.
func casesLines(conds []metrics.Condition, sharded bool) []string {
	var out []string
	for _, c := range conds {
		out = append(out, ConditionLines(c)...)
	}
	return shardLines(out, sharded)
}
