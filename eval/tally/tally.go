// Package tally counts, per (contract, condition), what a report shows of
// runs beside the rates: the agreement of tenet's labels with the labels
// another harness gave, the invariants and failure classes, and the
// authorization audit. It takes runs records (eval/runs) and gives counts;
// it computes no rate (eval/metrics does, and its Group feeds these
// accumulators run by run). It imports eval/runs only.
package tally

import "github.com/tenetlang/tenet/eval/runs"

// Groups splits records by (contract, condition): each group sorted by key
// (runs.SortRecords, so records with equal keys keep their order), the
// groups sorted by (contract, condition). It does not modify recs.
func Groups(recs []runs.Record) [][]runs.Record {
	sorted := append([]runs.Record(nil), recs...)
	runs.SortRecords(sorted)
	var gs [][]runs.Record
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].Key.Contract == sorted[i].Key.Contract && sorted[j].Key.Condition == sorted[i].Key.Condition {
			j++
		}
		gs = append(gs, sorted[i:j])
		i = j
	}
	return gs
}

// ConditionGroups splits records by condition as the metrics do
// (docs/metrics.md "Attacks as conditions"): by (contract, condition) as
// Groups does, and a condition whose attacked runs name attacks into one
// group per attack, each holding the condition's benign runs (which name
// none) and that attack's runs; the attacked runs that name no attack stay
// with the benign runs, as without attacks.
// Attack aggregates are the metrics' (they need the contract's rules).
func ConditionGroups(recs []runs.Record) [][]runs.Record {
	var out [][]runs.Record
	for _, g := range Groups(recs) {
		var benign []runs.Record
		sections := map[string][]runs.Record{}
		var order []string
		for _, r := range g {
			a := r.Key.Attack
			if a == "" && !r.Key.Attacked() {
				benign = append(benign, r)
				continue
			}
			if _, ok := sections[a]; !ok {
				order = append(order, a)
			}
			sections[a] = append(sections[a], r)
		}
		if len(order) == 0 || (len(order) == 1 && order[0] == "") {
			out = append(out, g) // no attack named: as without attacks
			continue
		}
		for _, a := range order {
			grp := append(append([]runs.Record(nil), benign...), sections[a]...)
			runs.SortRecords(grp)
			out = append(out, grp)
		}
	}
	return out
}

// groupName returns the contract, pipeline and attack of a
// ConditionGroups group (the attack of its attacked runs; benign runs
// name none).
func groupName(g []runs.Record) (contract, pipeline, attack string) {
	k := g[0].Key
	for _, r := range g {
		if r.Key.Attack != "" {
			return k.Contract, k.Condition, r.Key.Attack
		}
	}
	return k.Contract, k.Condition, ""
}
