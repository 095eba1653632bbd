// Package attackagg combines a security case's runs under the several
// attacks a pipeline ran into one run per case and repetition, by a
// contract's attack_aggregate rules (docs/metrics.md "Attacks as
// conditions"): AgentDojo's "max over attacks" is attack success any,
// utility all. It takes valid runs records and gives combined ones, labels
// in three values (unknown stays unknown unless a rule decides without
// it); eval/metrics computes the aggregate's condition from them. It
// imports eval/runs only.
package attackagg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// The rules, as the attempt rules (eval/metrics).
const (
	ruleAny   = "any"
	ruleAll   = "all"
	ruleFirst = "first"
	ruleLast  = "last"
)

var rules = []string{ruleAny, ruleAll, ruleFirst, ruleLast}

// Rules are the contract's attempt rules, defaults filled in: how one
// attack's attempts of a repetition combine before the attacks do.
type Rules struct {
	Utility, SideEffect, Exposed string
}

// Aggregate is a contract's attack_aggregate block: how the labels
// of a security case under each attack a pipeline ran make the case's
// labels in the condition "pipeline @ Name". Each rule is any, all, first or last
// ("" is the default: attack success and side effect any, utility all,
// exposure any). first and last take the attack whose name sorts first or
// last.
type Aggregate struct {
	Name          string
	AttackSuccess string
	Utility       string
	SideEffect    string
	Exposed       string
}

// rules returns a's rules with the defaults filled in, or an error naming
// an unknown rule.
func (a Aggregate) rules() (as, u, h, e string, err error) {
	out := []string{a.AttackSuccess, a.Utility, a.SideEffect, a.Exposed}
	for i, def := range []string{ruleAny, ruleAll, ruleAny, ruleAny} {
		if out[i] == "" {
			out[i] = def
		}
		if !slices.Contains(rules, out[i]) {
			return "", "", "", "", fmt.Errorf("attack_aggregate %s: rule %s is %q, want %s", runs.Safe(a.Name), runs.LabelNames()[[]int{1, 0, 2, 3}[i]], out[i], strings.Join(rules, ", "))
		}
	}
	return out[0], out[1], out[2], out[3], nil
}

// Combine returns one combined run per security case and repetition of a
// pipeline's attacked runs, given by attack (attacked[attack], each valid,
// one per key, in key order; attacks the attacks the pipeline ran, sorted):
// its key is the case's under the attack a.Name, attempt 1; its labels are
// each attack's (its attempts combined by the attempt rules, filled in)
// combined by a's rules. The errors say why the runs cannot be combined: a
// case or repetition run under some attacks and not others (a lost run),
// a.Name taken by an attack, a rule that is none of any, all, first, last.
func Combine(a Aggregate, attempt Rules, attacks []string, attacked map[string][]runs.Record) ([]runs.Record, []error) {
	var errs []error
	if slices.Contains(attacks, a.Name) {
		errs = append(errs, fmt.Errorf("attack_aggregate %s has the name of an attack the pipeline ran: name it apart", runs.Safe(a.Name)))
	}
	as, uRule, hRule, eRule, err := a.rules()
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errs
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
		for _, r := range attacked[at] {
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
	var out []runs.Record
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
			ua, aa, ha, ea, ex := attemptLabels(attempts, attempt, at)
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
		r := runs.Record{Key: runs.Key{Contract: first.Key.Contract, Condition: first.Key.Condition, Attack: a.Name, Task: id.task, Goal: id.goal, Attempt: 1, Repetition: id.n},
			Bundle: first.Bundle, AttemptBudget: first.AttemptBudget}
		r.AttackSuccess = combineLabels(as, as_)
		r.Utility = combineLabels(uRule, u)
		r.SideEffect = orLabel(combineLabels(hRule, h), r.AttackSuccess)
		if exposed {
			r.Exposed, r.HasExposed = combineLabels(eRule, e), true
		}
		out = append(out, r)
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("attack_aggregate %s combines each security case over every attack the pipeline ran, and %s: a run missing under one attack is most likely lost",
			runs.Safe(a.Name), strings.Join(CutList(missing), "; ")))
		return nil, errs
	}
	return out, nil
}

// attemptLabels aggregates one attack's attempts of one repetition (sorted
// by attempt) by the attempt rules: utility, attack success (any), side
// effect (its rule or attack success), exposure, and whether every attempt
// carries exposure. Unknown labels stay unknown unless the rule decides
// without them; their reasons name the attack.
func attemptLabels(attempts []runs.Record, rules Rules, attack string) (u, a, h, e runs.Label, exposed bool) {
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
	a = combineLabels(ruleAny, as)
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
	case ruleFirst:
		return ls[0]
	case ruleLast:
		return ls[len(ls)-1]
	}
	decisive := rule == ruleAny // the value one label decides the result with
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
func orLabel(x, y runs.Label) runs.Label { return combineLabels(ruleAny, []runs.Label{x, y}) }

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

// CutList keeps the first 10 entries of a list a message names, and says
// how many more there are.
func CutList(l []string) []string {
	if len(l) <= 10 {
		return l
	}
	return append(l[:10:10], fmt.Sprintf("%d more", len(l)-10))
}
