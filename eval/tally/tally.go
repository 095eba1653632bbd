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
