package metrics

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/attackagg"
	"github.com/tenetlang/tenet/eval/runs"
)

// Attacks as conditions (docs/metrics.md "Attacks as conditions"). A run
// made under a named attack (runs.Key.Attack) belongs to the condition
// (pipeline, attack); the pipeline's benign runs, which carry no attack,
// are the benign side of each of those conditions: they are stored and
// judged once, and counted in each. Keys order the attack right after the
// pipeline (runs.Key.Compare), so a pipeline's benign runs arrive before
// its attacks' runs, and Pipeline below can hand them to each attack's
// Group while holding one pipeline at a time.
//
// An attack_aggregate (AttackAggregate) adds, for a pipeline that ran two
// or more attacks, one more condition whose security cases combine the
// case's labels over the attacks by the aggregate's rules: AgentDojo's
// "max over attacks" is attack_success any, utility all.

// AttackAggregate is a contract's attack_aggregate block (eval/attackagg
// combines a case's runs by it).
type AttackAggregate = attackagg.Aggregate

// groupKey is the key naming the condition of g (sorted by key): its
// first record's, with the attack of its attacked runs (benign runs carry
// none and come first).
func groupKey(g []runs.Record) runs.Key {
	k := g[0].Key
	for _, r := range g {
		if r.Key.Attack != "" {
			k.Attack = r.Key.Attack
			break
		}
	}
	return k
}

// hasAttack reports whether a run of g names an attack.
func hasAttack(g []runs.Record) bool {
	return slices.ContainsFunc(g, func(r runs.Record) bool { return r.Key.Attack != "" })
}

// Pipeline splits the runs of one (contract, pipeline), added in key order,
// into the Groups of its conditions: one per attack (benign runs handed to
// each), the pipeline alone when no attack is named, and one per
// attack_aggregate when it ran two or more attacks. It holds the
// pipeline's benign runs (to hand them to each attack's Group) and, when
// the contract declares aggregates, what the metrics read of its attacked
// runs (to combine them): memory grows with one pipeline's runs, not with
// the number of pipelines.
type Pipeline struct {
	contract, pipeline string
	aggs               []AttackAggregate
	rules              AttemptRules
	n                  int
	last               runs.Key
	section            string // the attack of the runs being added
	benign             []heldRun
	cur                *Group // the condition being filled; nil until it has a run of its own
	done               []*Group
	aggGroups          []*Group                 // the aggregates' tallies, fed every run
	attacked           map[string][]runs.Record // per attack, the valid attacked runs (for aggregates)
	broken             []string                 // runs the aggregates cannot combine
}

type heldRun struct {
	r    runs.Record
	list bool
}

// NewPipeline returns an empty Pipeline; aggs are the contract's attack
// aggregates (Declared.Aggregates) and rules its attempt rules.
func NewPipeline(contract, pipeline string, aggs []AttackAggregate, rules AttemptRules) *Pipeline {
	p := &Pipeline{contract: contract, pipeline: pipeline, aggs: aggs, rules: rules, attacked: map[string][]runs.Record{}}
	for _, a := range aggs {
		g := newGroup(contract, pipeline, a.Name)
		g.aggregate = true
		p.aggGroups = append(p.aggGroups, g)
	}
	return p
}

// Contract and Condition name the pipeline.
func (p *Pipeline) Contract() string  { return p.contract }
func (p *Pipeline) Condition() string { return p.pipeline }

// Add adds a run, listed in the tallies' lists or not (Group.Add,
// Group.AddUnlisted). Runs come in key order; Add refuses a run of another
// pipeline or one out of order.
func (p *Pipeline) Add(r runs.Record, list bool) error {
	k := r.Key
	if k.Contract != p.contract || k.Condition != p.pipeline {
		return fmt.Errorf("metrics: run %s added to pipeline %s", k, runs.ConditionName(p.contract, p.pipeline))
	}
	if p.n > 0 && k.Compare(p.last) < 0 {
		return fmt.Errorf("metrics: run %s added after run %s: runs are added in key order", k, p.last)
	}
	p.n++
	p.last = k
	if k.Attack != p.section {
		p.endSection()
		p.section = k.Attack
	}
	for _, g := range p.aggGroups {
		g.tally(r, list)
	}
	if k.Attack == "" && !k.Attacked() {
		p.benign = append(p.benign, heldRun{r, list})
		if p.cur != nil {
			return p.cur.add(r, list)
		}
		return nil
	}
	if len(p.aggs) > 0 {
		if k.Attacked() && r.Validate() == nil && (len(p.attacked[k.Attack]) == 0 || p.attacked[k.Attack][len(p.attacked[k.Attack])-1].Key != k) {
			p.attacked[k.Attack] = append(p.attacked[k.Attack], slim(r))
		} else {
			p.broken = append(p.broken, k.String())
		}
	}
	if p.cur == nil {
		p.cur = newGroup(p.contract, p.pipeline, k.Attack)
		for _, b := range p.benign {
			if err := p.cur.add(b.r, b.list); err != nil {
				return err
			}
		}
	}
	return p.cur.add(r, list)
}

func (p *Pipeline) endSection() {
	if p.cur != nil {
		p.done = append(p.done, p.cur)
		p.cur = nil
	}
}

// End returns the pipeline's Groups, in order: the pipeline alone (its
// benign runs and the attacked runs that name no attack) when it has
// such attacked runs or no attack at all, each attack's, then each
// aggregate's when two or more attacks ran. The Pipeline must not be used
// after it.
func (p *Pipeline) End() []*Group {
	p.endSection()
	if len(p.done) == 0 {
		g := NewGroup(p.contract, p.pipeline)
		for _, b := range p.benign {
			_ = g.add(b.r, b.list) // benign runs of this pipeline, in key order
		}
		p.done = append(p.done, g)
	}
	if len(p.done) < 2 {
		return p.done
	}
	attacks := make([]string, 0, len(p.done))
	for _, g := range p.done {
		attacks = append(attacks, g.attack)
	}
	rules, rerr := p.rules.withDefaults()
	for i, a := range p.aggs {
		g := p.aggGroups[i]
		for _, b := range p.benign {
			g.recs = append(g.recs, slim(b.r))
		}
		var combined []runs.Record
		if rerr != nil {
			g.errs = []error{rerr}
		} else if len(p.broken) > 0 {
			g.errs = []error{fmt.Errorf("attack_aggregate %s combines only valid runs with one run per key, and %s %s not (see the attacks' own conditions)",
				runs.Safe(a.Name), strings.Join(attackagg.CutList(p.broken), ", "), runs.Plural(len(p.broken), "is", "are"))}
		} else {
			combined, g.errs = attackagg.Combine(a, attackagg.Rules{Utility: rules.Utility, SideEffect: rules.SideEffect, Exposed: rules.Exposed}, attacks, p.attacked)
		}
		g.recs = append(g.recs, combined...)
		p.done = append(p.done, g)
	}
	return p.done
}

// slim is what the metrics read of a valid run (as Group keeps it). It
// keeps GoalTask: the pipeline's goal-task runs are benign runs the
// aggregate shares with each attack's condition, and without the mark
// they would count as benign runs of undeclared tasks there.
func slim(r runs.Record) runs.Record {
	return runs.Record{Key: r.Key, Bundle: r.Bundle, GoalTask: r.GoalTask, Utility: r.Utility, AttackSuccess: r.AttackSuccess, SideEffect: r.SideEffect,
		Exposed: r.Exposed, HasExposed: r.HasExposed, AttemptBudget: r.AttemptBudget}
}

// pipelineGroups splits one pipeline's runs g (sorted by key) into its
// conditions' Groups (Pipeline), for Compute and Compare.
func pipelineGroups(g []runs.Record, declared map[string]Declared) []*Group {
	d := declared[g[0].Key.Contract]
	p := NewPipeline(g[0].Key.Contract, g[0].Key.Condition, d.Aggregates, d.Rules)
	for _, r := range g {
		if err := p.Add(r, true); err != nil {
			panic(err) // g is one pipeline's runs in key order
		}
	}
	return p.End()
}

// conditionRecs splits recs into each condition's runs, sorted by key:
// groups, with a pipeline whose runs name attacks split by attack (no
// aggregates: Compare reads runs only, without a contract).
func conditionRecs(recs []runs.Record) [][]runs.Record {
	var out [][]runs.Record
	for _, g := range groups(recs) {
		if !hasAttack(g) {
			out = append(out, g)
			continue
		}
		for _, pg := range pipelineGroups(g, nil) {
			out = append(out, pg.recs)
		}
	}
	return out
}
