package report

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// gateErrors returns the gates of progs that could not be evaluated for
// lack of runs, one line each: a gate listing a condition no run has (a
// misspelt condition, or runs judged by another contract), and a contract
// with gates but no run at all (its gates would otherwise pass by not
// being evaluated). A gate that was not evaluated is not a failed gate
// (exit 1) nor a passed one: it is bad input (exit 2), in tenet eval and
// tenet report alike, since both build their Document here.
func gateErrors(progs []*eval.Program, cs []metrics.Condition, gates []eval.GateResult) []string {
	var out []string
	seen := map[[2]string]bool{}
	for _, g := range gates {
		k := [2]string{g.Gate, g.Condition}
		if !g.NoRuns || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, fmt.Sprintf("gate %s lists condition %s, which has no runs: the gate was not evaluated (is the condition misspelt, or were the runs judged by another contract?)",
			g.Gate, runs.Safe(g.Condition)))
	}
	for _, p := range progs {
		name := p.Bundle.Manifest.Contract
		if len(p.Bundle.Plan.Gates) == 0 || len(ofContract(cs, name)) > 0 {
			continue
		}
		var names []string
		for _, g := range p.Bundle.Plan.Gates {
			names = append(names, g.Name)
		}
		out = append(out, fmt.Sprintf("no run is of contract %s: its gates (%s) were not evaluated", runs.Safe(name), strings.Join(names, ", ")))
	}
	return out
}
