package assemble

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
)

// ContractLabels refuses runs that do not carry what their contract (one
// of progs: SameBundles has already refused runs of any other) judges on
// every run, each at its file and line, in the order of the files: exactly
// the contract's invariants and failure classes (each true, false, or null
// with its reason in unknown: an undecided one is written, never left
// out), and, on an attacked run, exposed exactly when the threat model
// declares an exposure criterion. utility, attack_success and side_effect
// are required by the runs format itself (Record.Validate).
//
// Without this, a run whose invariants were removed counted as violating
// none, so a gate on an invariant passed where the full runs fail it; and
// a name the contract does not declare was reported as if it did.
func ContractLabels(recs []runs.Record, at []runs.Pos, files []string, progs []*eval.Program) error {
	byContract := map[string]*eval.Program{}
	for _, p := range progs {
		byContract[p.Bundle.Manifest.Contract] = p
	}
	var bad []string
	for _, i := range fileOrder(at, files) {
		r := recs[i]
		p := byContract[r.Key.Contract]
		if p == nil {
			continue // refused by SameBundles
		}
		why := runLabelGaps(r, p.Bundle)
		if why == "" {
			continue
		}
		if len(bad) == maxRefusedRuns {
			bad = append(bad, "…")
			break
		}
		bad = append(bad, fmt.Sprintf("%s: run %s %s", at[i], r.Key, why))
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s\nunder --contract every run carries what the contract judges on every run, as tenet eval writes it (an undecided invariant or failure class is null, with its reason in unknown): re-run tenet eval with the contract, or report without --contract", strings.Join(bad, "\n"))
}

// runLabelGaps says what run r lacks or carries beyond what contract b
// judges ("" when it matches), as the rest of a sentence after its key.
func runLabelGaps(r runs.Record, b *bundle.Bundle) string {
	var invs, fails []string
	for _, inv := range b.Plan.Invariants {
		invs = append(invs, inv.Name)
	}
	for _, f := range b.Plan.Failures {
		fails = append(fails, f.Name)
	}
	contract := runs.Safe(b.Manifest.Contract)
	var why []string
	why = append(why, nameGaps("invariant", "invariants", r.Invariants, invs, contract)...)
	why = append(why, nameGaps("failure class", "failure classes", r.Failures, fails, contract)...)
	if r.Key.Attacked() {
		declared := b.Manifest.ThreatModel.Exposure != bundle.NoExpr
		switch {
		case declared && !r.HasExposed:
			why = append(why, fmt.Sprintf("has no label exposed, which the threat model of contract %s declares", contract))
		case !declared && r.HasExposed:
			why = append(why, fmt.Sprintf("has a label exposed, but contract %s declares no exposure criterion", contract))
		}
	}
	return strings.Join(why, "; ")
}

// nameGaps compares the names a run carries in one field (invariants or
// failures; what and whats name one and several) with those the contract
// declares: the missing ones, then the undeclared ones, each list sorted
// and cut to a few names.
func nameGaps(what, whats string, got map[string]runs.Label, want []string, contract string) []string {
	declared := map[string]bool{}
	var missing, extra []string
	for _, n := range want {
		declared[n] = true
		if _, ok := got[n]; !ok {
			missing = append(missing, n)
		}
	}
	for n := range got {
		if !declared[n] {
			extra = append(extra, n)
		}
	}
	var out []string
	if len(missing) > 0 {
		out = append(out, fmt.Sprintf("carries no %s %s, which contract %s declares", runs.Plural(len(missing), what, whats), nameList(missing), contract))
	}
	if len(extra) > 0 {
		out = append(out, fmt.Sprintf("carries %s %s, which contract %s does not declare", runs.Plural(len(extra), what, whats), nameList(extra), contract))
	}
	return out
}

// nameList renders names sorted, safe for a terminal, at most three of
// them and a count of the rest.
func nameList(names []string) string {
	sort.Strings(names)
	var out []string
	for i, n := range names {
		if i == 3 {
			out = append(out, fmt.Sprintf("and %d more", len(names)-3))
			break
		}
		out = append(out, runs.Safe(n))
	}
	return strings.Join(out, ", ")
}
