package summary

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// Declared returns a contract's declared task and case sets (the metric
// denominators |T| and |C|, docs/metrics.md), its attempt budget and the
// rules that combine a case's attempts, and its attack aggregates, from
// its bundle.
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
	return d
}
