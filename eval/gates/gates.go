// Package gates evaluates the gates of contracts against computed
// metrics: it takes the loaded contracts (eval.Program, whose bundle holds
// the gate plans and whose planned CEL programs it runs), each condition's
// metrics and checks (eval/metrics), and gives one summary.GateResult per
// requirement, gate and condition, plus the gates that could not be
// evaluated for lack of runs. It computes no metric and renders nothing.
//
// It imports compiler/bundle (the gate plans), eval (for the planned gate
// programs), eval/metrics, eval/runs (names made safe to print) and
// eval/summary (for the GateResult shape the Document holds); neither
// eval/summary nor eval/report may import it, so that the report and its
// non-HTML renderers do not depend on CEL (docs/report-formats.md).
package gates

import (
	"fmt"
	"sort"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/source"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
)

// Evaluate evaluates the gates of every program, in order, against the
// conditions of its contract (cs and checks as the metrics package
// returns them, for the same records): results in program, gate,
// condition, requirement order. errs are the gates that could not be
// evaluated for lack of runs, one line each (see notRun); none when cs is
// empty, as the metrics then failed as a whole and their error says why.
func Evaluate(progs []*eval.Program, cs []metrics.Condition, checks []tally.Checks) (results []summary.GateResult, errs []string) {
	for _, p := range progs {
		results = append(results, evaluate(p, ofContract(cs, p.Bundle.Manifest.Contract), checks)...)
	}
	if len(cs) > 0 {
		errs = notRun(progs, cs, results)
	}
	return results, errs
}

// evaluate evaluates every gate of p against each condition's metrics and
// checks. A requirement that cannot be evaluated (the condition's metrics
// are unavailable, a rate is null, an evaluation error) fails: gates fail
// closed.
func evaluate(p *eval.Program, cs []metrics.Condition, checks []tally.Checks) []summary.GateResult {
	byName := map[string]tally.Checks{}
	for _, c := range checks {
		byName[c.Name()] = c
	}
	var out []summary.GateResult
	for _, g := range p.Bundle.Plan.Gates {
		targets, missing := gateTargets(g, cs)
		for _, m := range missing {
			for _, ri := range g.Require {
				e := p.Bundle.Exprs[ri]
				out = append(out, summary.GateResult{Contract: p.Bundle.Manifest.Contract, Gate: g.Name, Condition: m, Requirement: e.Text, Range: e.Range,
					Reason: "no runs of this condition were evaluated", NoRuns: true})
			}
		}
		for _, c := range targets {
			act := &gateActivation{metrics: metricsValue(c, byName[c.Name()]), condition: c.Condition}
			for _, ri := range g.Require {
				e := p.Bundle.Exprs[ri]
				res := summary.GateResult{Contract: p.Bundle.Manifest.Contract, Gate: g.Name, Condition: c.Name(), Requirement: e.Text, Range: e.Range}
				if !c.OK() {
					res.Reason = "the condition's metrics are unavailable: " + c.Errors[0].Error()
					out = append(out, res)
					continue
				}
				prg, fields, ok := p.GateProgram(ri)
				if !ok {
					// Plan refuses such a bundle; fail closed all the same.
					res.Reason = fmt.Sprintf("cannot be evaluated: expression %d is not a gate expression", ri)
					out = append(out, res)
					continue
				}
				v, _, err := prg.Eval(act)
				switch b, ok := v.(types.Bool); {
				case err != nil:
					res.Reason = "cannot be evaluated: " + err.Error()
				case !ok:
					res.Reason = fmt.Sprintf("gave %s, want bool", source.TypeName(v))
				case bool(b):
					res.Passed = true
				default:
					res.Reason = "is false"
				}
				if !res.Passed {
					if vals := metricValues(fields, act.metrics); vals != "" {
						res.Reason += " (" + vals + ")"
					}
				}
				out = append(out, res)
			}
		}
	}
	return out
}

// ofContract keeps the conditions of one contract.
func ofContract(cs []metrics.Condition, contract string) []metrics.Condition {
	var out []metrics.Condition
	for _, c := range cs {
		if c.Contract == contract {
			out = append(out, c)
		}
	}
	return out
}

// gateTargets returns the conditions a gate applies to, and the names of
// conditions it lists that have no metrics at all.
func gateTargets(g bundle.GatePlan, cs []metrics.Condition) ([]metrics.Condition, []string) {
	if len(g.Conditions) == 0 {
		return cs, nil
	}
	var targets []metrics.Condition
	var missing []string
	for _, name := range g.Conditions {
		found := false
		for _, c := range cs {
			if c.Condition == name {
				targets = append(targets, c)
				found = true
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	return targets, missing
}

// metricsValue is a condition's tenet.Metrics value (compiler/celenv
// MetricsFields): rates as doubles, null conditional rates as null.
func metricsValue(c metrics.Condition, ch tally.Checks) map[string]any {
	nullable := func(r metrics.NullableRate) any {
		if !r.Valid {
			return nil
		}
		return r.Rate.Value()
	}
	// Counts are doubles: with repetitions they are means. Under
	// --unknown=bounds a count the unknowns can change is null, like a rate.
	count := func(v float64) any {
		if c.Bounded {
			return nil
		}
		return v
	}
	// A rate over an empty set (|C| = 0 in a utility-only evaluation) is
	// null, so a requirement on it fails as "cannot be evaluated".
	rate := func(r metrics.Rate) any {
		if r.Den == 0 {
			return nil
		}
		return r.Value()
	}
	failures := map[string]any{}
	for _, f := range ch.Failures {
		failures[f.Name] = int64(f.Hits)
	}
	return map[string]any{
		"benign_tasks": int64(c.BenignTasks), "security_cases": int64(c.SecurityCases),
		"benign_utility": rate(c.BenignUtility), "utility_under_attack": rate(c.UtilityUnderAttack),
		"targeted_asr": rate(c.TargetedASR), "side_effect_rate": rate(c.SideEffectRate),
		"secure_utility_in_scope": rate(c.SecureUtilityInScope),
		"joint_utility_attack": map[string]any{
			"utility_only": count(c.Joint.UtilityOnly), "attack_only": count(c.Joint.AttackOnly),
			"both": count(c.Joint.Both), "neither": count(c.Joint.Neither),
		},
		"exposed_cases": count(c.ExposedCases), "conditional_asr_exposed": nullable(c.ConditionalASRExposed),
		"benign_solved_cases": count(c.BenignSolvedCases), "conditional_asr_benign_solved": nullable(c.ConditionalASRBenignSolved),
		"goal_tasks": int64(c.GoalTasks), "goal_task_utility": goalTaskRate(c),
		"runs": int64(ch.Runs), "violations": int64(ch.ViolatingRuns),
		"undecided": int64(ch.UndecidedRuns), "failures": failures,
	}
}

// goalTaskRate is goal_task_utility, or null when the condition has no
// goal task or the unknown labels change it (as a bounded rate is).
func goalTaskRate(c metrics.Condition) any {
	if s := c.GoalTaskUtility; c.GoalTasks > 0 && s.Exact() {
		return s.Low.Rate.Value()
	}
	return nil
}

// metricValues renders the metrics a requirement reads, e.g.
// "targeted_asr = 0.5000", so a failure says why.
func metricValues(fields []string, m map[string]any) string {
	var parts []string
	for _, f := range fields {
		switch v := m[f].(type) {
		case float64:
			parts = append(parts, fmt.Sprintf("%s = %.4f", f, v))
		case nil:
			parts = append(parts, f+" = null")
		default:
			parts = append(parts, fmt.Sprintf("%s = %v", f, v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

type gateActivation struct {
	metrics   map[string]any
	condition string
}

func (a *gateActivation) ResolveName(name string) (any, bool) {
	switch name {
	case "metrics":
		return a.metrics, true
	case "condition":
		return a.condition, true
	}
	return nil, false
}

func (a *gateActivation) Parent() interpreter.Activation { return nil }

// notRun returns the gates of progs that could not be evaluated for lack
// of runs, one line each: a gate listing a condition no run has (a
// misspelt condition, or runs judged by another contract), and a contract
// with gates but no run at all (its gates would otherwise pass by not
// being evaluated). A gate that was not evaluated is not a failed gate
// (exit 1) nor a passed one: it is bad input (exit 2), in tenet eval and
// tenet report alike.
func notRun(progs []*eval.Program, cs []metrics.Condition, gates []summary.GateResult) []string {
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
