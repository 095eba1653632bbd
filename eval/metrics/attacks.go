package metrics

import (
	"fmt"
	"slices"
	"strings"

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

// AttackAggregate is a contract's attack_aggregate block: how the labels
// of a security case under each attack a pipeline ran make the case's
// labels in the condition "pipeline @ Name". Each rule is one of Rules
// ("" is the default: attack success and side effect any, utility all,
// exposure any). first and last take the attack whose name sorts first or
// last.
type AttackAggregate struct {
	Name          string
	AttackSuccess string
	Utility       string
	SideEffect    string
	Exposed       string
}

// rules returns a's rules with the defaults filled in, or an error naming
// an unknown rule.
func (a AttackAggregate) rules() (as, u, h, e string, err error) {
	out := []string{a.AttackSuccess, a.Utility, a.SideEffect, a.Exposed}
	for i, def := range []string{RuleAny, RuleAll, RuleAny, RuleAny} {
		if out[i] == "" {
			out[i] = def
		}
		if !slices.Contains(Rules, out[i]) {
			return "", "", "", "", fmt.Errorf("attack_aggregate %s: rule %s is %q, want %s", runs.Safe(a.Name), runs.LabelNames()[[]int{1, 0, 2, 3}[i]], out[i], strings.Join(Rules, ", "))
		}
	}
	return out[0], out[1], out[2], out[3], nil
}

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
	for i, a := range p.aggs {
		g := p.aggGroups[i]
		g.errs = p.combine(g, a, attacks)
		p.done = append(p.done, g)
	}
	return p.done
}

// combine fills the aggregate's group g with the pipeline's benign runs and
// one combined run per security case and repetition, its labels each
// attack's (attempts aggregated by the attempt rules) combined by a's
// rules; it returns why they cannot be combined, if they cannot.
func (p *Pipeline) combine(g *Group, a AttackAggregate, attacks []string) []error {
	var errs []error
	if slices.Contains(attacks, a.Name) {
		errs = append(errs, fmt.Errorf("attack_aggregate %s has the name of an attack the pipeline ran: name it apart", runs.Safe(a.Name)))
	}
	if len(p.broken) > 0 {
		errs = append(errs, fmt.Errorf("attack_aggregate %s combines only valid runs with one run per key, and %s %s not (see %s's own condition)",
			runs.Safe(a.Name), strings.Join(cutList(p.broken), ", "), runs.Plural(len(p.broken), "is", "are"), runs.Safe(p.pipeline)))
	}
	as, uRule, hRule, eRule, err := a.rules()
	if err != nil {
		errs = append(errs, err)
	}
	rules, err := p.rules.withDefaults()
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errs
	}
	// Per attack, per (task, goal, repetition): the attempts' labels.
	type rep struct {
		task, goal string
		n          int
	}
	per := map[string]map[rep][]runs.Record{}
	reps := map[rep]bool{}
	for _, at := range attacks {
		per[at] = map[rep][]runs.Record{}
		for _, r := range p.attacked[at] {
			id := rep{r.Key.Task, r.Key.Goal, r.Key.Repetition}
			per[at][id] = append(per[at][id], r)
			reps[id] = true
		}
	}
	ids := make([]rep, 0, len(reps))
	for id := range reps {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y rep) int {
		return runs.Key{Task: x.task, Goal: x.goal, Repetition: x.n}.Compare(runs.Key{Task: y.task, Goal: y.goal, Repetition: y.n})
	})
	var missing []string
	for _, b := range p.benign {
		g.recs = append(g.recs, slim(b.r))
	}
	for _, id := range ids {
		var u, as_, h, e []runs.Label
		exposed := true
		var ran []string
		for _, at := range attacks {
			attempts := per[at][id]
			if len(attempts) == 0 {
				continue
			}
			ran = append(ran, at)
			ua, aa, ha, ea, ex := attemptLabels(attempts, rules, at)
			u, as_, h, e = append(u, ua), append(as_, aa), append(h, ha), append(e, ea)
			exposed = exposed && ex
		}
		c := runs.Case{Task: id.task, Goal: id.goal}.String()
		if id.n != 1 {
			c += fmt.Sprintf(" (repetition %d)", id.n)
		}
		if len(ran) < len(attacks) {
			var not []string
			for _, at := range attacks {
				if !slices.Contains(ran, at) {
					not = append(not, shownAttack(at))
				}
			}
			missing = append(missing, fmt.Sprintf("%s ran under %s but not under %s", c, joinAttacks(ran), strings.Join(not, ", ")))
			continue
		}
		first := per[ran[0]][id][0]
		r := runs.Record{Key: runs.Key{Contract: p.contract, Condition: p.pipeline, Attack: a.Name, Task: id.task, Goal: id.goal, Attempt: 1, Repetition: id.n},
			Bundle: first.Bundle, AttemptBudget: first.AttemptBudget}
		r.AttackSuccess = combineLabels(as, as_)
		r.Utility = combineLabels(uRule, u)
		r.SideEffect = orLabel(combineLabels(hRule, h), r.AttackSuccess)
		if exposed {
			r.Exposed, r.HasExposed = combineLabels(eRule, e), true
		}
		g.recs = append(g.recs, r)
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("attack_aggregate %s combines each security case over every attack the pipeline ran, and %s: a run missing under one attack is most likely lost",
			runs.Safe(a.Name), strings.Join(cutList(missing), "; ")))
	}
	return errs
}

// attemptLabels aggregates one attack's attempts of one repetition (sorted
// by attempt) by the attempt rules: utility, attack success (any), side
// effect (its rule or attack success), exposure, and whether every attempt
// carries exposure. Unknown labels stay unknown unless the rule decides
// without them; their reasons name the attack.
func attemptLabels(attempts []runs.Record, rules AttemptRules, attack string) (u, a, h, e runs.Label, exposed bool) {
	var us, as, hs, es []runs.Label
	exposed = true
	for _, r := range attempts {
		a, h := r.AttackSuccess, r.SideEffect
		// A run's labels obey h ≥ a: a known side of the pair can decide
		// the other, as the bounds read it (runSpanOf).
		if !a.Known && h.Known && !h.Value {
			a = runs.False()
		}
		if !h.Known && a.Known && a.Value {
			h = runs.True()
		}
		us, as, hs = append(us, r.Utility), append(as, a), append(hs, h)
		es = append(es, r.Exposed)
		exposed = exposed && r.HasExposed
	}
	a = combineLabels(RuleAny, as)
	u, h, e = combineLabels(rules.Utility, us), orLabel(combineLabels(rules.SideEffect, hs), a), combineLabels(rules.Exposed, es)
	name := func(l runs.Label) runs.Label {
		if !l.Known {
			l.Reason = "under " + shownAttack(attack) + ": " + l.Reason
		}
		return l
	}
	return name(u), name(a), name(h), name(e), exposed
}

// combineLabels applies rule to labels in three values: any is true when
// one label is true, all false when one is false, whatever the unknown
// ones; otherwise an unknown label makes the result unknown (its reasons
// joined). first and last take the first and last label.
func combineLabels(rule string, ls []runs.Label) runs.Label {
	switch rule {
	case RuleFirst:
		return ls[0]
	case RuleLast:
		return ls[len(ls)-1]
	}
	decisive := rule == RuleAny // the value one label decides the result with
	var reasons []string
	for _, l := range ls {
		if l.Known && l.Value == decisive {
			return runs.Bool(decisive)
		}
		if !l.Known && !slices.Contains(reasons, l.Reason) {
			reasons = append(reasons, l.Reason)
		}
	}
	if len(reasons) > 0 {
		return runs.Unknown(strings.Join(reasons, "; "))
	}
	return runs.Bool(!decisive)
}

// orLabel is x or y in three values.
func orLabel(x, y runs.Label) runs.Label { return combineLabels(RuleAny, []runs.Label{x, y}) }

func shownAttack(a string) string {
	if a == "" {
		return "no attack named"
	}
	return "attack " + runs.Safe(a)
}

func joinAttacks(as []string) string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = shownAttack(a)
	}
	return strings.Join(out, ", ")
}

// cutList keeps the first 10 entries of a list a message names, and says
// how many more there are.
func cutList(l []string) []string {
	if len(l) <= 10 {
		return l
	}
	return append(l[:10:10], fmt.Sprintf("%d more", len(l)-10))
}

// slim is what the metrics read of a valid run (as Group keeps it).
func slim(r runs.Record) runs.Record {
	return runs.Record{Key: r.Key, Bundle: r.Bundle, Utility: r.Utility, AttackSuccess: r.AttackSuccess, SideEffect: r.SideEffect,
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
