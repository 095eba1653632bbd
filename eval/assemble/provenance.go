// Provenance: which bundle judged each run of a runs file, checked
// against the bundle ids the caller expects (tenet's --expect-bundle-id).
// A runs record's bundle field is an unsigned claim: this check catches
// runs files mixed up or judged by another contract version, not forgery.

package assemble

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// maxRefusedRuns bounds the runs CheckIDs names in one refusal: the
// rest are counted.
const maxRefusedRuns = 10

// fileOrder returns the indexes of recs in the order they were read (the
// files as given, each line by line), so that refusals are listed as a
// reader of the files meets them: records are sorted by key, and at[i] is
// where recs[i] was read (as runs.ReadFilesAt gives them).
func fileOrder(at []runs.Pos, files []string) []int {
	rank := map[string]int{}
	for i, f := range files {
		if _, ok := rank[f]; !ok {
			rank[f] = i
		}
	}
	idx := make([]int, len(at))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(rank[at[a].File], rank[at[b].File]); c != 0 {
			return c
		}
		return cmp.Compare(at[a].Line, at[b].Line)
	})
	return idx
}

// CheckIDs refuses runs whose bundle field is not one of ids (tenet's
// --expect-bundle-id; none accepts every run), each at its file and line:
// a run without the field was judged by an unknown bundle, so it cannot be
// the expected one. at[i] is where recs[i] was read; files are the runs
// files as given. The error names at most maxRefusedRuns runs.
func CheckIDs(recs []runs.Record, at []runs.Pos, files, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	want := strings.Join(ids, " or ")
	var bad []string
	n := 0
	for _, i := range fileOrder(at, files) {
		r := recs[i]
		if slices.Contains(ids, r.Bundle) {
			continue
		}
		n++
		if len(bad) == maxRefusedRuns {
			continue
		}
		if r.Bundle == "" {
			bad = append(bad, fmt.Sprintf("%s: run %s has no bundle field: which bundle judged it is unknown, and --expect-bundle-id accepts only runs judged by %s", at[i], r.Key, want))
		} else {
			bad = append(bad, fmt.Sprintf("%s: run %s was judged by %s, not by the expected bundle %s (--expect-bundle-id)", at[i], r.Key, r.Bundle, want))
		}
	}
	if n == 0 {
		return nil
	}
	if n > len(bad) {
		bad = append(bad, fmt.Sprintf("… and %d more runs", n-len(bad)))
	}
	return fmt.Errorf("%s\n%d of %d runs refused: re-run tenet eval with the expected bundle (it writes the bundle field), or leave out the runs of other bundles", strings.Join(bad, "\n"), n, len(recs))
}
