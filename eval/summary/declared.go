package summary

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// Declared returns a contract's declared task and case sets (the metric
// denominators |T| and |C|, docs/metrics.md), its attempt budget and the
// rules that combine a case's attempts, its attack aggregates, its goal
// tasks and optional sets, from its bundle.
func Declared(b *bundle.Bundle) metrics.Declared {
	tm := b.Manifest.ThreatModel
	d := metrics.Declared{
		AttemptBudget: tm.AttemptBudget,
		Rules:         metrics.AttemptRules{Utility: tm.AttemptUtility, SideEffect: tm.AttemptSideEffect, Exposed: tm.AttemptExposed},
	}
	for _, a := range tm.AttackAggregates {
		d.Aggregates = append(d.Aggregates, metrics.AttackAggregate{Name: a.Name, AttackSuccess: a.AttackSuccess, Utility: a.Utility,
			SideEffect: a.SideEffect, Exposed: a.Exposed})
	}
	for _, t := range b.Plan.Tasks {
		d.Tasks = append(d.Tasks, t.ID)
	}
	for _, c := range b.Plan.Cases {
		d.Cases = append(d.Cases, runs.Case{Task: c.Task, Goal: c.Goal})
	}
	d.GoalTasks = b.Plan.GoalTasks
	for _, o := range b.Plan.Optional {
		set := metrics.OptionalSet{Label: o.Label, GoalTasks: o.GoalTasks}
		for _, c := range o.Cases {
			set.Cases = append(set.Cases, runs.Case{Task: c.Task, Goal: c.Goal})
		}
		d.Optional = append(d.Optional, set)
	}
	return d
}
