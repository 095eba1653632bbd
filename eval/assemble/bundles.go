package assemble

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
)

// CheckRuns refuses the runs that tenet report cannot report: against
// progs (--contract), CheckContractRuns; without them, runs whose bundle
// field is not one of ids (CheckIDs; no ids: any) and runs of one contract
// judged by several bundles (MixedBundles).
func CheckRuns(recs []runs.Record, at []runs.Pos, files []string, progs []*eval.Program, ids []string, strict string) (unnamed int, err error) {
	if len(progs) > 0 {
		return CheckContractRuns(recs, at, files, progs, strict)
	}
	if err := CheckIDs(recs, at, files, ids); err != nil {
		return 0, err
	}
	return 0, MixedBundles(recs)
}

// CheckContractRuns refuses the runs that tenet report --contract cannot
// report against progs (the contracts loaded from --contract), each at its
// file and line (at[i] is where recs[i] was read; files are the runs files
// as given), in the order of the files: first runs of another contract or
// judged by another bundle (SameBundles), then runs that do not carry what
// their contract judges on every run (ContractLabels). strict names the
// trust flag in force, "" for none. unnamed counts the runs of a contract
// without a bundle field that passed (not strict).
func CheckContractRuns(recs []runs.Record, at []runs.Pos, files []string, progs []*eval.Program, strict string) (unnamed int, err error) {
	unnamed, err = SameBundles(recs, at, files, progs, strict)
	if err != nil {
		return 0, err
	}
	if err := ContractLabels(recs, at, files, progs); err != nil {
		return 0, err
	}
	return unnamed, nil
}

// SameBundles refuses runs that --contract cannot report, each at its file
// and line (at[i] is where recs[i] was read, files are the runs files as
// given), in the order of the files: runs of another contract (or
// of none: labels from elsewhere without a contract field), whose tasks,
// cases and gates are not the contract's, so its gates would be skipped,
// not evaluated; and runs the contract would have judged with another
// bundle, whose labels may not be the contract's. Runs of the contract
// labelled elsewhere (no bundle field) are refused when strict (a trust
// flag is in force, strict names it: the field is all that ties a run to
// the verified bundle), and otherwise pass and are counted in unnamed.
func SameBundles(recs []runs.Record, at []runs.Pos, files []string, progs []*eval.Program, strict string) (unnamed int, err error) {
	ids := map[string]string{}
	var names []string
	for _, p := range progs {
		ids[p.Bundle.Manifest.Contract] = p.ID
		names = append(names, runs.Safe(p.Bundle.Manifest.Contract))
	}
	var bad []string
	others, missing := false, false
	for _, i := range fileOrder(at, files) {
		r := recs[i]
		id, ok := ids[r.Key.Contract]
		if ok && r.Bundle == id {
			continue
		}
		if ok && r.Bundle == "" && strict == "" {
			unnamed++
			continue
		}
		if len(bad) == 3 {
			bad = append(bad, "…")
			break
		}
		switch {
		case !ok:
			others = true
			of := "of contract " + runs.Safe(r.Key.Contract)
			if r.Key.Contract == "" {
				of = "of no contract (its record has no contract field)"
			}
			bad = append(bad, fmt.Sprintf("%s: run %s is %s, not of --contract %s", at[i], r.Key, of, strings.Join(names, ", ")))
		case r.Bundle == "":
			missing = true
			bad = append(bad, fmt.Sprintf("%s: run %s has no bundle field, so nothing shows it was judged by the contract's bundle %s, as %s requires", at[i], r.Key, id, strict))
		default:
			bad = append(bad, fmt.Sprintf("%s: run %s was judged by %s, not by the contract's bundle %s", at[i], r.Key, r.Bundle, id))
		}
	}
	if len(bad) == 0 {
		return unnamed, nil
	}
	hint := "re-run tenet eval with the contract, or report without --contract"
	switch {
	case others:
		hint = "report the runs of each contract with that contract, or without --contract"
	case missing:
		hint = "re-run tenet eval with the contract's bundle (it writes the bundle field), or report labels from another harness without " + strict
	}
	return 0, fmt.Errorf("%s\n%s", strings.Join(bad, "\n"), hint)
}

// MixedBundles refuses runs of one contract judged by different bundles
// (different versions of the contract, or of tenet): their labels need not
// mean the same, so their metrics would mix two contracts under one name.
// Runs labelled elsewhere (no bundle) pass.
func MixedBundles(recs []runs.Record) error {
	type first struct {
		id  string
		run runs.Key
	}
	seen := map[string][]first{} // contract → its bundles, in run order
	var contracts []string
	for _, r := range recs {
		if r.Bundle == "" {
			continue
		}
		fs := seen[r.Key.Contract]
		if len(fs) == 0 {
			contracts = append(contracts, r.Key.Contract)
		}
		known := false
		for _, f := range fs {
			known = known || f.id == r.Bundle
		}
		if !known {
			seen[r.Key.Contract] = append(fs, first{r.Bundle, r.Key})
		}
	}
	var bad []string
	for _, c := range contracts {
		fs := seen[c]
		if len(fs) < 2 {
			continue
		}
		name := "contract " + c
		if c == "" {
			name = "the runs without a contract"
		}
		var ids []string
		for i, f := range fs {
			if i == 3 {
				ids = append(ids, fmt.Sprintf("and %d more", len(fs)-3))
				break
			}
			ids = append(ids, fmt.Sprintf("%s (e.g. run %s)", f.id, f.run))
		}
		bad = append(bad, fmt.Sprintf("runs of %s were judged by %d bundles: %s", name, len(fs), strings.Join(ids, ", ")))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s\ntheir labels may come from different versions of the contract: report each bundle's runs apart, or re-run tenet eval with one bundle", strings.Join(bad, "\n"))
	}
	return nil
}
