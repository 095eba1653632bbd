package metrics

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/stats"
)

// This file holds what a contract declares beside T and C: goal tasks
// (goals also run directly as user tasks, whose utility gives
// goal_task_utility, never a rate over T or C) and optional sets (case
// sets a condition may lack as a whole). docs/metrics.md gives the rules.

// OptionalSet is a set of declared security cases (an optional cases
// block) or goal tasks (an optional goal_tasks block) that a condition may
// lack as a whole: with no run of any of them, the condition leaves them
// out and says so; with one, every member is expected as usual.
type OptionalSet struct {
	Label     string // the cases block's label; "goal_tasks" for the goal_tasks block
	Cases     []runs.Case
	GoalTasks []string
}

// LeftOutSet is an optional set a condition did not run, left out of its
// C (Cases security cases) or of its goal tasks (GoalTasks).
type LeftOutSet struct {
	Label            string
	Cases, GoalTasks int
}

// GoalTaskUtilityName is the rate of the goal-task runs (docs/metrics.md).
const GoalTaskUtilityName = "goal_task_utility"

// splitGoalTasks separates the goal-task runs (runs.Record.GoalTask) of a
// condition sorted by key from the others. A goal-task run that shares its
// key with another run stays with the others, where it is reported as a
// duplicate.
func splitGoalTasks(g []runs.Record) (others, goalTasks []runs.Record) {
	for i, r := range g {
		dup := (i > 0 && g[i-1].Key == r.Key) || (i+1 < len(g) && g[i+1].Key == r.Key)
		if r.GoalTask && !dup {
			goalTasks = append(goalTasks, r)
		} else {
			others = append(others, r)
		}
	}
	return others, goalTasks
}

// withoutUnrun returns decl without the optional sets of which the
// condition ran nothing (others: its runs but the goal-task runs), and
// those sets; decl itself is not modified. A goal left with no case by the
// sets left out leaves the goal tasks too when its goal task did not run:
// the sets are what a version added (its goals with their cases), and a
// corpus of an older version runs neither.
func withoutUnrun(decl *Declared, others, goalTasks []runs.Record) (*Declared, []LeftOutSet) {
	var left []LeftOutSet
	d := *decl
	ranGoalTask := func(t string) bool {
		return slices.ContainsFunc(goalTasks, func(r runs.Record) bool { return r.Key.Task == t })
	}
	for _, set := range decl.Optional {
		if slices.ContainsFunc(set.Cases, func(cs runs.Case) bool { return hasCase(others, cs) }) ||
			slices.ContainsFunc(set.GoalTasks, ranGoalTask) {
			continue
		}
		d.Cases = slices.DeleteFunc(slices.Clone(d.Cases), func(cs runs.Case) bool { return slices.Contains(set.Cases, cs) })
		n := len(d.GoalTasks)
		d.GoalTasks = slices.DeleteFunc(slices.Clone(d.GoalTasks), func(t string) bool {
			viaCases := slices.ContainsFunc(set.Cases, func(cs runs.Case) bool { return cs.Goal == t }) &&
				!ranGoalTask(t) && !slices.ContainsFunc(d.Cases, func(cs runs.Case) bool { return cs.Goal == t })
			return slices.Contains(set.GoalTasks, t) || viaCases
		})
		left = append(left, LeftOutSet{Label: set.Label, Cases: len(set.Cases), GoalTasks: n - len(d.GoalTasks)})
	}
	return &d, left
}

// goalTaskUtility computes goal_task_utility into c from the condition's
// goal-task runs, with the same rules as benign utility (attempts by the
// utility rule, the mean over repetitions, unknown labels refused or
// bounded); its denominator is the declared goal tasks (those that ran
// under CasesObserved), or without declarations the goal tasks that ran.
// It returns the errors, each naming the goal tasks or runs concerned.
func goalTaskUtility(c *Condition, gts []runs.Record, decl *Declared, rules AttemptRules, opt Options) []error {
	var errs []error
	var valid []runs.Record
	for _, r := range gts {
		if err := r.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		valid = append(valid, r)
	}
	units, uerrs := arrange(gts)
	n, rerr := sameRepetitions(units, false)
	for _, err := range append(uerrs, rerr) {
		if err != nil {
			errs = append(errs, fmt.Errorf("goal tasks: %w", err))
		}
	}
	unknown := 0
	for _, r := range valid {
		if !r.Utility.Known {
			unknown++
			if opt.Unknown != UnknownBounds {
				errs = append(errs, UnknownLabelError{r.Key, string(runs.Utility), r.Utility.Reason})
			}
		}
	}
	ran := map[string]unit{}
	for _, u := range units {
		ran[u.task] = u
	}
	var ids []string
	if decl == nil {
		for _, u := range units {
			ids = append(ids, u.task)
		}
	} else {
		var missing, extra []string
		for _, t := range decl.GoalTasks {
			if _, ok := ran[t]; ok {
				ids = append(ids, t)
			} else {
				missing = append(missing, t)
			}
		}
		for _, u := range units {
			if !slices.Contains(decl.GoalTasks, u.task) {
				extra = append(extra, u.task)
			}
		}
		c.DeclaredGoalTasks = len(decl.GoalTasks)
		if opt.Cases == CasesObserved {
			c.LeftOutGoalTasks = len(missing)
		} else if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("declared goal tasks with no run: %s", strings.Join(missing, ", ")))
		}
		if len(extra) > 0 {
			errs = append(errs, fmt.Errorf("goal-task runs of undeclared goals: %s", strings.Join(extra, ", ")))
		}
	}
	c.GoalTasks, c.GoalTaskRepetitions = len(ids), n
	if len(errs) > 0 || len(ids) == 0 {
		return errs
	}
	var k span
	for _, t := range ids {
		k = k.add(sumUnit(ran[t], rules).U)
	}
	den := float64(len(ids))
	s := RateStats{Name: GoalTaskUtilityName, Unknown: unknown,
		Low: NullableRate{Rate{mean(k.lo, n), den}, true}, High: NullableRate{Rate{mean(k.hi, n), den}, true}}
	lo, hi := stats.Wilson(s.Low.Rate.Num, den), stats.Wilson(s.High.Rate.Num, den)
	s.Wilson = Interval{Low: lo.Low, High: hi.High, Valid: lo.Valid && hi.Valid}
	c.GoalTaskUtility = s
	return nil
}
