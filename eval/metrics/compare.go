package metrics

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/stats"
)

// Comparison is a paired comparison of two conditions of one contract
// (docs/metrics.md, tenet compare): a reference (e.g. the undefended model) and a
// defended condition, on the same tasks and cases.
type Comparison struct {
	Contract  string
	Reference string // the reference condition (Key.Condition)
	Defended  string // the defended condition
	// Bundle is the bundle both conditions were judged by ("" when the runs
	// name none); AttemptBudget their attempt budget (0: none).
	Bundle        string
	AttemptBudget int
	// Transitions holds one table per property, in order: benign_utility
	// (paired on tasks), then utility_under_attack, targeted_asr,
	// side_effect_rate and secure_utility_in_scope (paired on cases; left
	// out when the contract has no security cases).
	Transitions []Transition
}

// Transition is the paired 2×2 table of one property: every id (a task, or
// a case "task/goal") counted once by its label in the reference and in the
// defended condition. The labels are the raw ones: for targeted_asr and
// side_effect_rate "success" is the attack's, so Lost counts the cases a
// defence stopped and Gained the ones it let through, and a negative
// NetEffect is an improvement.
type Transition struct {
	Name string // the metric: benign_utility, utility_under_attack, …
	Over string // "tasks" or "cases"
	N    int    // ids paired

	KeptSuccess int // true in both
	Lost        int // true in the reference, false in the defended condition
	Gained      int // false in the reference, true in the defended condition
	KeptFailure int // false in both

	ReferenceRate Rate // (KeptSuccess + Lost)/N
	DefendedRate  Rate // (KeptSuccess + Gained)/N
	GainRate      Rate // Gained/N
	LossRate      Rate // Lost/N
	NetEffect     Rate // (Gained − Lost)/N = DefendedRate − ReferenceRate
	// PValue is the exact two-sided McNemar p-value (stats.McNemarExact).
	PValue float64
	// LostIDs and GainedIDs name the ids behind Lost and Gained, sorted.
	// A report may bound them (report.CutComparison): MoreLostIDs and
	// MoreGainedIDs count the ids left out, so that Lost = len(LostIDs) +
	// MoreLostIDs and Gained = len(GainedIDs) + MoreGainedIDs.
	LostIDs, GainedIDs         []string
	MoreLostIDs, MoreGainedIDs int
}

// Compare pairs the conditions reference and defended of recs (docs/metrics.md).
// Each is named "contract:condition", or just "condition" when that is
// unique among the runs. Both are computed as Compute does (with the
// default attempt rules; recs are runs files, so T and C are the ids that
// have runs), then paired: benign utility on tasks, the case-level
// properties on cases, never mixed.
//
// It refuses, with every reason joined (errors.Join), when: a name matches
// no condition or several; both name the same condition; they belong to
// different contracts; either condition has a metric error (including an
// unknown label — whatever opt.Unknown says, since a pair with an unknown
// side has no transition); either has more than one repetition per task or
// case (McNemar's test pairs one label per id); the task or case ids differ
// (naming the ids only in one); the runs of a condition name several
// bundles, or the two name different bundles; the attempt budgets differ.
// The output depends only on the set of records, not their order.
func Compare(recs []runs.Record, reference, defended string, opt Options) (Comparison, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return Comparison{}, fmt.Errorf("metrics: %w", err)
	}
	opt.Unknown = UnknownRefuse
	gs := conditionRecs(recs)
	ref, rerr := findCondition(gs, reference)
	def, derr := findCondition(gs, defended)
	if err := errors.Join(rerr, derr); err != nil {
		return Comparison{}, err
	}
	rk, dk := groupKey(ref), groupKey(def)
	if rk.ConditionName() == dk.ConditionName() {
		return Comparison{}, fmt.Errorf("the reference and the defended condition are both %s: compare two conditions", rk.ConditionName())
	}
	if rk.Contract != dk.Contract {
		return Comparison{}, fmt.Errorf("the reference %s and the defended %s belong to different contracts (%s, %s): a paired comparison needs the same tasks and cases",
			rk.ConditionName(), dk.ConditionName(), contractName(rk.Contract), contractName(dk.Contract))
	}
	var errs []error
	var arr [2]*arranged
	for i, g := range [][]runs.Record{ref, def} {
		role := [2]string{"reference", "defended"}[i]
		c, a, err := computeGroup(g, recs, nil, opt)
		if err != nil {
			return Comparison{}, err
		}
		for _, e := range c.Errors {
			errs = append(errs, fmt.Errorf("%s %s: %w", role, c.Name(), e))
		}
		if a == nil {
			continue
		}
		if a.nT > 1 || a.nC > 1 {
			errs = append(errs, fmt.Errorf("%s %s has %d repetitions per task and %d per case: compare pairs one label per task or case (McNemar's test)", role, c.Name(), a.nT, a.nC))
		}
		if len(a.bundles) > 1 {
			errs = append(errs, fmt.Errorf("%s %s: its runs name %d bundles (%s): one condition is judged by one bundle", role, c.Name(), len(a.bundles), bundleNames(a.bundles)))
		}
		arr[i] = a
	}
	if arr[0] == nil || arr[1] == nil {
		return Comparison{}, errors.Join(errs...)
	}
	rn, dn := rk.ConditionName(), dk.ConditionName()
	ra, da := arr[0], arr[1]
	if e := idsDiffer("benign tasks", rn, dn, ids(ra.tasks), ids(da.tasks)); e != nil {
		errs = append(errs, e)
	}
	if e := idsDiffer("security cases", rn, dn, ids(ra.cases), ids(da.cases)); e != nil {
		errs = append(errs, e)
	}
	if len(ra.bundles) == 1 && len(da.bundles) == 1 && ra.bundles[0] != da.bundles[0] {
		errs = append(errs, fmt.Errorf("bundles differ: the reference %s was judged by %s, the defended %s by %s",
			rn, bundleNames(ra.bundles), dn, bundleNames(da.bundles)))
	}
	if ra.budget != da.budget {
		errs = append(errs, fmt.Errorf("attempt budgets differ: the reference %s has %s, the defended %s has %s", rn, budgetName(ra.budget), dn, budgetName(da.budget)))
	}
	if len(errs) > 0 {
		return Comparison{}, errors.Join(errs...)
	}

	cmp := Comparison{Contract: rk.Contract, Reference: runs.ShownCondition(rk.Condition, rk.Attack), Defended: runs.ShownCondition(dk.Condition, dk.Attack), Bundle: ra.bundles[0], AttemptBudget: ra.budget}
	// One repetition: every sum is the 0/1 label itself.
	benign := func(a *arranged) []int {
		var v []int
		for _, t := range a.tasks {
			v = append(v, sumUnit(t, a.rules).U.lo)
		}
		return v
	}
	caseLabels := func(a *arranged, get func(repSpan) span) []int {
		var v []int
		for _, cs := range a.cases {
			v = append(v, get(sumUnit(cs, a.rules)).lo)
		}
		return v
	}
	cmp.Transitions = append(cmp.Transitions, transition("benign_utility", "tasks", ids(ra.tasks), benign(ra), benign(da)))
	if len(ra.cases) > 0 {
		for _, p := range []struct {
			name string
			get  func(repSpan) span
		}{
			{"utility_under_attack", func(s repSpan) span { return s.U }},
			{"targeted_asr", func(s repSpan) span { return s.A }},
			{"side_effect_rate", func(s repSpan) span { return s.H }},
			{"secure_utility_in_scope", func(s repSpan) span { return s.S }},
		} {
			cmp.Transitions = append(cmp.Transitions, transition(p.name, "cases", ids(ra.cases), caseLabels(ra, p.get), caseLabels(da, p.get)))
		}
	}
	return cmp, nil
}

func transition(name, over string, ids []string, ref, def []int) Transition {
	t := Transition{Name: name, Over: over, N: len(ids)}
	for i, id := range ids {
		switch {
		case ref[i] == 1 && def[i] == 1:
			t.KeptSuccess++
		case ref[i] == 1:
			t.Lost++
			t.LostIDs = append(t.LostIDs, id)
		case def[i] == 1:
			t.Gained++
			t.GainedIDs = append(t.GainedIDs, id)
		default:
			t.KeptFailure++
		}
	}
	n := float64(t.N)
	t.ReferenceRate = Rate{float64(t.KeptSuccess + t.Lost), n}
	t.DefendedRate = Rate{float64(t.KeptSuccess + t.Gained), n}
	t.GainRate = Rate{float64(t.Gained), n}
	t.LossRate = Rate{float64(t.Lost), n}
	t.NetEffect = Rate{float64(t.Gained - t.Lost), n}
	t.PValue = stats.McNemarExact(t.Lost, t.Gained)
	return t
}

// findCondition returns the group named name: "contract:condition" as
// runs.ConditionName writes it, or a condition name matching one group.
func findCondition(gs [][]runs.Record, name string) ([]runs.Record, error) {
	var match [][]runs.Record
	var all []string
	for _, g := range gs {
		k := groupKey(g)
		all = append(all, k.ConditionName())
		if k.ConditionName() == name {
			return g, nil
		}
		if runs.ShownCondition(k.Condition, k.Attack) == name {
			match = append(match, g)
		}
	}
	switch len(match) {
	case 1:
		return match[0], nil
	case 0:
		return nil, fmt.Errorf("no condition %s in the runs (conditions: %s)", runs.Safe(name), strings.Join(all, ", "))
	}
	var names []string
	for _, g := range match {
		names = append(names, groupKey(g).ConditionName())
	}
	return nil, fmt.Errorf("condition %s is in several contracts (%s): name it as contract:condition", runs.Safe(name), strings.Join(names, ", "))
}

func ids(us []unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.id()
	}
	return out
}

// idsDiffer reports the ids only in one of two sorted lists.
func idsDiffer(what, ref, def string, a, b []string) error {
	var onlyA, onlyB []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			onlyB = append(onlyB, x)
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return nil
	}
	var parts []string
	if len(onlyA) > 0 {
		parts = append(parts, fmt.Sprintf("only in the reference %s: %s", ref, strings.Join(onlyA, ", ")))
	}
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("only in the defended %s: %s", def, strings.Join(onlyB, ", ")))
	}
	return fmt.Errorf("%s differ: %s", what, strings.Join(parts, "; "))
}

func bundleNames(bs []string) string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b
		if b == "" {
			out[i] = "no bundle"
		}
	}
	return strings.Join(out, ", ")
}

func contractName(c string) string {
	if c == "" {
		return `no contract ("")`
	}
	return runs.Safe(c)
}
