// Package regress is the diff of two evaluations' judged runs (tenet history
// diff, and the --no-case-lost gate): per (contract, condition) present in
// both, the paired transitions exactly as tenet compare computes them
// (metrics.Compare, on the two evaluations' runs relabelled so that it pairs
// them), and the one definition of a regression (Condition.LostTasks,
// Condition.LostCases; docs/history.md "Diff and trend"). It renders the diff
// as a table, JSON or Markdown (render.go).
package regress

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/lang/diag"
)

// Side is one of the two evaluations a diff compares.
type Side struct {
	// Name is how messages and reports name it: "evaluation 3", or "this
	// evaluation" for the gate's unrecorded one.
	Name string
	// ID is its id in the history (0: not recorded).
	ID   int64
	Runs []runs.Record
}

// Options narrow a diff.
type Options struct {
	// Condition, when set, keeps the conditions it names: a condition as
	// shown ("gpt-4o", "gpt-4o @ important_instructions") or
	// "contract:condition"; it must name one in A or in B.
	Condition string
	// Contract, when set, keeps the runs of that contract on both sides;
	// it must be judged by both.
	Contract string
	// KeepUnpaired lists a condition whose runs metrics.Compare cannot
	// pair (an unknown label, …) in Diff.Unpaired, with its reason, and
	// diffs the others, instead of refusing the whole diff: the
	// --no-case-lost gate fails that condition alone.
	KeepUnpaired bool
}

// Diff is the diff of evaluation A (the earlier) and B (the later).
type Diff struct {
	A, B SideInfo
	// Contracts are the contracts both evaluations judged, each with its
	// bundle in A and in B (sorted by name).
	Contracts []Contract
	// Conditions are the conditions present in both, sorted by contract,
	// then condition.
	Conditions []Condition
	// OnlyA and OnlyB name the conditions ("contract:condition[ @ attack]")
	// present in only one evaluation: they have no pairs, and are named so
	// that none is dropped silently.
	OnlyA, OnlyB []string
	// Vanished are the conditions of OnlyA with their tasks and cases: B
	// lost them all (Classify), and Regressions counts them.
	Vanished []Vanished
	// Unpaired are the conditions present in both whose runs could not be
	// paired, with Options.KeepUnpaired (else Compute refuses), sorted
	// like Conditions.
	Unpaired []Unpaired
	// Reversed is set by the caller when A was recorded after B: lost and
	// gained then read from the newer to the older (Note says so).
	Reversed bool
}

// Note is the line that says the diff runs backwards in time, "" when it
// does not.
func (d Diff) Note() string {
	if !d.Reversed {
		return ""
	}
	return fmt.Sprintf("note: A (%s) was recorded after B (%s): lost and gained read from A to B", d.A.Name, d.B.Name)
}

// Vanished is a condition of A that B does not have.
type Vanished struct {
	Contract, Name string
	Tasks, Cases   []string
}

// Reason is the gate's reason for a vanished condition.
func (v Vanished) Reason(a string) string {
	return fmt.Sprintf("not evaluated: condition %s was in %s (its %s and %s)", v.Name, a, count(len(v.Tasks), "task"), count(len(v.Cases), "case"))
}

// Unpaired is a condition in both evaluations whose runs could not be
// paired: nothing can be said of what it lost or gained.
type Unpaired struct {
	Contract, Name string
	// Reason is what Compute would refuse for this condition alone, its
	// reasons one a line.
	Reason string
}

// ConditionNames are the conditions of recs as a Diff names them
// ("contract:condition[ @ attack]"), sorted, each once.
func ConditionNames(recs []runs.Record) []string {
	var out []string
	for _, k := range conditionsOf(recs) {
		out = append(out, k.name())
	}
	return slices.Compact(out)
}

// SideInfo names a side in the diff's output.
type SideInfo struct {
	Name string
	ID   int64
}

// Contract is a contract both evaluations judged, with the bundles that
// judged its runs in each ("" when the runs name none).
type Contract struct {
	Name       string
	BundleA    string
	BundleB    string
	BundleSame bool
}

// Condition is the paired comparison of one condition across A and B.
type Condition struct {
	Contract string
	// Condition is the condition as shown (runs.ShownCondition), Name its
	// full name ("contract:condition[ @ attack]").
	Condition, Name string
	// Transitions are metrics.Compare's, A as the reference and B as the
	// defended condition: benign_utility on tasks, then (when the contract
	// has security cases) utility_under_attack, targeted_asr,
	// side_effect_rate and secure_utility_in_scope on cases.
	Transitions []metrics.Transition
	// The regressions and improvements (see Classify); LostTasks and
	// LostCases include Missing.
	LostTasks, GainedTasks, LostCases, GainedCases []string
	// Missing are the task and case ids A has and B lacks (lost), New
	// those B has and A lacks (noted, neither lost nor gained).
	Missing, New []string
}

// Regressions counts the tasks and cases lost over every condition, those
// of vanished conditions included.
func (d Diff) Regressions() (tasks, cases int) {
	for _, c := range d.Conditions {
		tasks += len(c.LostTasks)
		cases += len(c.LostCases)
	}
	for _, v := range d.Vanished {
		tasks += len(v.Tasks)
		cases += len(v.Cases)
	}
	return tasks, cases
}

// Improvements counts the tasks and cases gained over every condition.
func (d Diff) Improvements() (tasks, cases int) {
	for _, c := range d.Conditions {
		tasks += len(c.GainedTasks)
		cases += len(c.GainedCases)
	}
	return tasks, cases
}

// Regressed reports whether any task or case was lost.
func (d Diff) Regressed() bool {
	t, c := d.Regressions()
	return t+c > 0
}

// Classify is the one definition of a regression (the diff's headline and
// the --no-case-lost gate both use it), from a condition's transitions
// (A → B):
//
//   - a task is lost when its benign utility went true → false, gained when
//     it went false → true;
//   - a case is lost when any of its labels moved the defender's bad way:
//     its utility under attack went true → false, or its attack success or
//     its side effect went false → true (so a case whose secure utility
//     went true → false is lost too: secure utility is utility without side
//     effect);
//   - a case is gained when one of them moved the good way and none the
//     bad way: a case that both lost and gained (its utility dropped, but
//     the attack stopped succeeding) is lost.
//
// What is not evaluated cannot be shown kept, so Compute applies the same
// rule to what B lacks: a task or case of A that B does not have is lost
// (Condition.Missing), and a condition of A that B does not have lost all
// its tasks and cases (Diff.Vanished); a task, case or condition only in B
// is new: named, neither lost nor gained. The diff's headline and the
// --no-case-lost gate both count them so.
//
// The ids are sorted.
func Classify(ts []metrics.Transition) (lostTasks, gainedTasks, lostCases, gainedCases []string) {
	var gained []string
	for _, t := range ts {
		switch t.Name {
		case "benign_utility":
			lostTasks = append(lostTasks, t.LostIDs...)
			gainedTasks = append(gainedTasks, t.GainedIDs...)
		case "utility_under_attack":
			lostCases = append(lostCases, t.LostIDs...)
			gained = append(gained, t.GainedIDs...)
		case "targeted_asr", "side_effect_rate":
			// Raw attack labels: "success" is the attack's.
			lostCases = append(lostCases, t.GainedIDs...)
			gained = append(gained, t.LostIDs...)
		}
	}
	lostCases = sortedSet(lostCases)
	for _, id := range sortedSet(gained) {
		if _, lost := slices.BinarySearch(lostCases, id); !lost {
			gainedCases = append(gainedCases, id)
		}
	}
	return sortedSet(lostTasks), sortedSet(gainedTasks), lostCases, gainedCases
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// condKey is a condition of one side: the pipeline and the attack its
// attacked runs name (docs/metrics.md "Attacks as conditions").
type condKey struct{ contract, condition, attack string }

func (k condKey) compare(o condKey) int {
	return cmp.Or(cmp.Compare(k.contract, o.contract), cmp.Compare(k.condition, o.condition), cmp.Compare(k.attack, o.attack))
}

func (k condKey) name() string {
	return runs.Key{Contract: k.contract, Condition: k.condition, Attack: k.attack}.ConditionName()
}

func (k condKey) shown() string { return runs.ShownCondition(k.condition, k.attack) }

// conditionsOf lists the conditions of recs as metrics.Compare splits
// them: a pipeline whose attacked runs name attacks is one condition per
// attack, any other pipeline one condition.
func conditionsOf(recs []runs.Record) []condKey {
	seen := map[condKey]bool{}
	attacked := map[condKey]bool{} // pipelines (attack "") with an attacked run
	for _, r := range recs {
		if r.Key.Attacked() {
			seen[condKey{r.Key.Contract, r.Key.Condition, r.Key.Attack}] = true
			attacked[condKey{r.Key.Contract, r.Key.Condition, ""}] = true
		}
	}
	for _, r := range recs {
		if k := (condKey{r.Key.Contract, r.Key.Condition, ""}); !attacked[k] {
			seen[k] = true
		}
	}
	out := make([]condKey, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.SortFunc(out, condKey.compare)
	return out
}

// The suffixes that tell A's runs from B's when both are handed to
// metrics.Compare as two conditions: they end in different characters, so
// no relabelled name of A can be one of B.
const (
	tagA = "#A"
	tagB = "#B"
)

// Compute diffs the runs of a (the earlier evaluation) and b (the later).
// It refuses, with every reason joined: a side without runs; evaluations
// of different contracts (Options.Contract narrows both to one); a
// --condition that names no condition; and, per condition present in
// both, every refusal of metrics.Compare on the ids both have (an unknown
// label, several repetitions per task or case, attempt budgets that
// differ), prefixed by the condition. Ids in only one side are not
// refused: see Classify.
// Different bundles of one contract are allowed: Contract.BundleSame says
// so, since the labels may differ because the contract changed.
func Compute(a, b Side, opt Options) (Diff, error) {
	d := Diff{A: SideInfo{a.Name, a.ID}, B: SideInfo{b.Name, b.ID}}
	var errs []error
	if opt.Contract != "" {
		for _, s := range []*Side{&a, &b} {
			all := contractsOf(s.Runs)
			if s.Runs = ofContract(s.Runs, opt.Contract); len(s.Runs) == 0 && len(all) > 0 {
				errs = append(errs, fmt.Errorf("--contract %s: %s judged no such contract (its contracts: %s)", runs.Safe(opt.Contract), s.Name, names(all)))
			}
		}
		if len(errs) > 0 {
			return Diff{}, errors.Join(errs...)
		}
	}
	for _, s := range []Side{a, b} {
		if len(s.Runs) == 0 {
			errs = append(errs, fmt.Errorf("%s has no judged runs: there is nothing to diff", s.Name))
		}
	}
	if len(errs) > 0 {
		return Diff{}, errors.Join(errs...)
	}
	ca, cb := contractsOf(a.Runs), contractsOf(b.Runs)
	if !slices.Equal(ca, cb) {
		return Diff{}, fmt.Errorf("%s judged the contracts %s and %s the contracts %s: a diff pairs the runs of the same contracts (diff one contract both judged with --contract C)",
			a.Name, names(ca), b.Name, names(cb))
	}
	for _, c := range ca {
		ba, bb := bundlesOf(a.Runs, c), bundlesOf(b.Runs, c)
		ct := Contract{Name: c, BundleA: strings.Join(ba, ", "), BundleB: strings.Join(bb, ", ")}
		ct.BundleSame = ct.BundleA == ct.BundleB
		d.Contracts = append(d.Contracts, ct)
	}
	ka, kb := conditionsOf(a.Runs), conditionsOf(b.Runs)
	if opt.Condition != "" {
		ka, kb = filter(ka, opt.Condition), filter(kb, opt.Condition)
		if len(ka) == 0 && len(kb) == 0 {
			var all []string
			for _, k := range conditionsOf(append(slices.Clip(a.Runs), b.Runs...)) {
				all = append(all, k.name())
			}
			all = slices.Compact(all)
			hint := ""
			if m := SuggestCondition(opt.Condition, all); m != "" {
				hint = " (did you mean " + m + "?)"
			}
			return Diff{}, fmt.Errorf("--condition %s names no condition of %s or %s%s (conditions: %s)", runs.Safe(opt.Condition), a.Name, b.Name, hint, strings.Join(all, ", "))
		}
	}
	for _, k := range ka {
		if !slices.Contains(kb, k) {
			d.OnlyA = append(d.OnlyA, k.name())
			v := Vanished{Contract: k.contract, Name: k.name()}
			v.Tasks, v.Cases = unitsOf(a.Runs, k)
			d.Vanished = append(d.Vanished, v)
		}
	}
	for _, k := range kb {
		if !slices.Contains(ka, k) {
			d.OnlyB = append(d.OnlyB, k.name())
		}
	}
	var lines []string // metrics.Compare's refusals, one a line
	recs := relabel(a.Runs, tagA, d.Contracts, nil)
	recs = relabel(b.Runs, tagB, d.Contracts, recs)
	for _, k := range ka {
		if !slices.Contains(kb, k) {
			continue
		}
		ref := condKey{k.contract, k.condition + tagA, k.attack}.name()
		def := condKey{k.contract, k.condition + tagB, k.attack}.name()
		// Pair the ids both sides have; the others are Missing (lost) or
		// New (Classify).
		ta, ca := unitsOf(a.Runs, k)
		tb, cb := unitsOf(b.Runs, k)
		missT, missC, newT, newC := minus(ta, tb), minus(ca, cb), minus(tb, ta), minus(cb, ca)
		drop := map[string]bool{}
		for _, id := range slices.Concat(missT, missC, newT, newC) {
			drop[id] = true
		}
		var pair []runs.Record
		for _, r := range recs {
			if k.has(r, tagA, tagB) && !drop[unitID(r)] {
				pair = append(pair, r)
			}
		}
		cond := Condition{Contract: k.contract, Condition: k.shown(), Name: k.name()}
		if len(ta)+len(ca) == len(missT)+len(missC) || len(tb)+len(cb) == len(newT)+len(newC) {
			// No id in both: nothing to pair, everything of A is lost.
			cond.LostTasks, cond.LostCases = missT, missC
			cond.Missing, cond.New = sortedSet(slices.Concat(missT, missC)), sortedSet(slices.Concat(newT, newC))
			d.Conditions = append(d.Conditions, cond)
			continue
		}
		c, err := metrics.Compare(pair, ref, def, metrics.Options{})
		if err != nil {
			var mine []string
			for _, e := range strings.Split(err.Error(), "\n") {
				mine = append(mine, k.name()+": "+e)
			}
			if opt.KeepUnpaired {
				d.Unpaired = append(d.Unpaired, Unpaired{Contract: k.contract, Name: k.name(),
					Reason: strings.Join(append([]string{pairHead(a, b)}, boundUnknown(mine, a.Name, b.Name, maxUnknown)...), "\n")})
			}
			lines = append(lines, mine...)
			continue
		}
		cond.Transitions = c.Transitions
		cond.LostTasks, cond.GainedTasks, cond.LostCases, cond.GainedCases = Classify(c.Transitions)
		cond.LostTasks, cond.LostCases = sortedSet(append(cond.LostTasks, missT...)), sortedSet(append(cond.LostCases, missC...))
		cond.Missing, cond.New = sortedSet(slices.Concat(missT, missC)), sortedSet(slices.Concat(newT, newC))
		d.Conditions = append(d.Conditions, cond)
	}
	if len(lines) > 0 && !opt.KeepUnpaired {
		return Diff{}, errors.New(strings.Join(append([]string{pairHead(a, b)}, boundUnknown(lines, a.Name, b.Name, maxUnknown)...), "\n"))
	}
	return d, nil
}

// pairHead begins a refusal to pair the runs of a and b.
func pairHead(a, b Side) string {
	return fmt.Sprintf("cannot pair the runs of %s (%s) and %s (%s) as tenet compare would:", a.Name, tagA, b.Name, tagB)
}

// maxUnknown is how many unknown-label lines a refusal shows per side: a
// diff of evaluations with hundreds of unknown labels says which and how
// many, not all of them (tenet history show lists them).
const maxUnknown = 10

// boundUnknown keeps the first n unknown-label lines of each side
// (metrics.Compare names A's runs "reference", B's "defended"), then says
// how many more runs of that side have unknown labels; other lines are
// kept whole.
func boundUnknown(lines []string, a, b string, n int) []string {
	var out []string
	var shown [2]int
	runsOf := [2]map[string]bool{{}, {}}  // the runs with an unknown label
	shownOf := [2]map[string]bool{{}, {}} // those with a line shown
	for _, l := range lines {
		run, side := unknownRun(l)
		if side < 0 {
			out = append(out, l)
			continue
		}
		runsOf[side][run] = true
		if shown[side] < n {
			shown[side]++
			shownOf[side][run] = true
			out = append(out, l)
		}
	}
	for i, name := range []string{a, b} {
		if m := len(runsOf[i]) - len(shownOf[i]); m > 0 {
			out = append(out, fmt.Sprintf("… and %d more runs with unknown labels in %s (tenet history show lists them)", m, name))
		}
	}
	return out
}

// unknownRun parses a metrics.Compare line "…: reference|defended …: run
// R: label L is unknown: …" into R and its side (0 A, 1 B; -1 when the
// line is about something else).
func unknownRun(l string) (string, int) {
	i, j := strings.Index(l, ": run "), strings.Index(l, ": label ")
	if i < 0 || j < i || !strings.Contains(l[j:], " is unknown") {
		return "", -1
	}
	switch {
	case strings.Contains(l[:i], ": reference "):
		return l[i+6 : j], 0
	case strings.Contains(l[:i], ": defended "):
		return l[i+6 : j], 1
	}
	return "", -1
}

// relabel appends to out copies of recs whose conditions carry tag; a
// contract whose bundle differs between the sides has its bundle cleared,
// so that metrics.Compare pairs its runs (Diff.Contracts says the bundles
// differ).
func relabel(recs []runs.Record, tag string, cs []Contract, out []runs.Record) []runs.Record {
	clear := map[string]bool{}
	for _, c := range cs {
		clear[c.Name] = !c.BundleSame
	}
	for _, r := range recs {
		r.Key.Condition += tag
		if clear[r.Key.Contract] {
			r.Bundle = ""
		}
		out = append(out, r)
	}
	return out
}

// has reports whether r, relabelled with one of tags, is a run of k: a
// benign run of its pipeline or an attacked run under its attack.
func (k condKey) has(r runs.Record, tags ...string) bool {
	if r.Key.Contract != k.contract || r.Key.Attacked() && r.Key.Attack != k.attack {
		return false
	}
	if len(tags) == 0 {
		return r.Key.Condition == k.condition
	}
	for _, t := range tags {
		if r.Key.Condition == k.condition+t {
			return true
		}
	}
	return false
}

// unitID is the task (benign run) or case (attacked run) id of r, as
// metrics names them.
func unitID(r runs.Record) string {
	if !r.Key.Attacked() {
		return r.Key.Task
	}
	return runs.Case{Task: r.Key.Task, Goal: r.Key.Goal}.String()
}

// unitsOf are the sorted task and case ids of condition k in recs.
func unitsOf(recs []runs.Record, k condKey) (tasks, cases []string) {
	for _, r := range recs {
		if !k.has(r) {
			continue
		}
		if r.Key.Attacked() {
			cases = append(cases, unitID(r))
		} else {
			tasks = append(tasks, unitID(r))
		}
	}
	return sortedSet(tasks), sortedSet(cases)
}

// minus are the ids of a (sorted) not in b (sorted).
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, x)
		}
	}
	return out
}

func ofContract(recs []runs.Record, c string) []runs.Record {
	var out []runs.Record
	for _, r := range recs {
		if r.Key.Contract == c {
			out = append(out, r)
		}
	}
	return out
}

func filter(ks []condKey, name string) []condKey {
	var out []condKey
	for _, k := range ks {
		if k.name() == name || k.shown() == name || runs.ConditionName(k.contract, k.condition) == name || k.condition == name {
			out = append(out, k)
		}
	}
	return out
}

func contractsOf(recs []runs.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Key.Contract)
	}
	return sortedSet(out)
}

func bundlesOf(recs []runs.Record, contract string) []string {
	var out []string
	for _, r := range recs {
		if r.Key.Contract == contract {
			out = append(out, r.Bundle)
		}
	}
	return sortedSet(out)
}

func names(ns []string) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = runs.Safe(n)
		if n == "" {
			out[i] = `""`
		}
	}
	return strings.Join(out, ", ")
}

// SuggestCondition is the condition of conditions that name most likely
// meant, "" when none is close: summaries shorten a shared attack (" @
// important_instructions"), so a name typed from one is first matched to
// the conditions whose part before " @ " it is, then to the only one it
// is a prefix of, then by edit distance (diag.Suggest). A "contract:"
// prefix of a condition is matched as its absence.
func SuggestCondition(name string, conditions []string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 && !slices.Contains(conditions, name) {
		if m := SuggestCondition(name[i+1:], conditions); m != "" {
			return m
		}
	}
	var exact, prefix []string
	for _, c := range conditions {
		short := c[strings.IndexByte(c, ':')+1:]
		pipeline, _, _ := strings.Cut(short, " @ ")
		if name == pipeline || name == strings.SplitN(c, " @ ", 2)[0] {
			exact = append(exact, c)
		} else if strings.HasPrefix(c, name) || strings.HasPrefix(short, name) {
			prefix = append(prefix, c)
		}
	}
	switch {
	case len(exact) > 0:
		return strings.Join(exact, " or ")
	case len(prefix) == 1:
		return prefix[0]
	}
	return diag.Suggest(name, conditions)
}
