package eval

import (
	"fmt"
	"sort"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/metrics"
)

// GateResult is the outcome of one requirement of one gate for one
// condition. A requirement that cannot be evaluated (the condition's
// metrics are unavailable, a rate is null, an evaluation error) fails:
// gates fail closed.
type GateResult struct {
	Gate        string
	Condition   string // the condition's display name (metrics.Condition.Name)
	Requirement string // the CEL text
	Range       bundle.Range
	Passed      bool
	Reason      string // why it failed, with the values of the metrics it reads
	// NoRuns marks a requirement of a condition the gate lists that has no
	// run at all: the gate was not evaluated, which is bad input (a typo in
	// the condition name, or runs of another contract), not a failed gate.
	NoRuns bool
}

// Gates evaluates every gate of the bundle against each condition's
// metrics and checks (both as returned by the metrics package, for the same
// records). Results are in gate, condition, requirement order.
func (p *Program) Gates(cs []metrics.Condition, checks []metrics.Checks) []GateResult {
	byName := map[string]metrics.Checks{}
	for _, c := range checks {
		byName[c.Name()] = c
	}
	var out []GateResult
	for _, g := range p.Bundle.Plan.Gates {
		targets, missing := gateTargets(g, cs)
		for _, m := range missing {
			for _, ri := range g.Require {
				e := p.Bundle.Exprs[ri]
				out = append(out, GateResult{Gate: g.Name, Condition: m, Requirement: e.Text, Range: e.Range,
					Reason: "no runs of this condition were evaluated", NoRuns: true})
			}
		}
		for _, c := range targets {
			act := &gateActivation{metrics: metricsValue(c, byName[c.Name()]), condition: c.Condition}
			for _, ri := range g.Require {
				e := p.Bundle.Exprs[ri]
				res := GateResult{Gate: g.Name, Condition: c.Name(), Requirement: e.Text, Range: e.Range}
				if !c.OK() {
					res.Reason = "the condition's metrics are unavailable: " + c.Errors[0].Error()
					out = append(out, res)
					continue
				}
				v, _, err := p.progs[ri].Eval(act)
				switch b, ok := v.(types.Bool); {
				case err != nil:
					res.Reason = "cannot be evaluated: " + err.Error()
				case !ok:
					res.Reason = fmt.Sprintf("gave %s, want bool", typeName(v))
				case bool(b):
					res.Passed = true
				default:
					res.Reason = "is false"
				}
				if !res.Passed {
					if vals := p.metricValues(ri, act.metrics); vals != "" {
						res.Reason += " (" + vals + ")"
					}
				}
				out = append(out, res)
			}
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
func metricsValue(c metrics.Condition, ch metrics.Checks) map[string]any {
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
		"benign_utility": rate(c.BenignUtility), "raw_attacked_utility": rate(c.RawAttackedUtility),
		"targeted_asr": rate(c.TargetedASR), "side_effect_rate": rate(c.SideEffectRate),
		"secure_utility_in_scope": rate(c.SecureUtilityInScope),
		"joint_utility_attack": map[string]any{
			"utility_only": count(c.Joint.UtilityOnly), "attack_only": count(c.Joint.AttackOnly),
			"both": count(c.Joint.Both), "neither": count(c.Joint.Neither),
		},
		"exposed_cases": count(c.ExposedCases), "conditional_asr_exposed": nullable(c.ConditionalASRExposed),
		"benign_solved_cases": count(c.BenignSolvedCases), "conditional_asr_benign_solved": nullable(c.ConditionalASRBenignSolved),
		"runs": int64(ch.Runs), "violations": int64(ch.ViolatingRuns),
		"undecided": int64(ch.UndecidedRuns), "failures": failures,
	}
}

// metricValues renders the metrics a requirement reads, e.g.
// "targeted_asr = 0.5000", so a failure says why.
func (p *Program) metricValues(expr int, m map[string]any) string {
	var parts []string
	for _, f := range p.gateFields[expr] {
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
