package compiler

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
)

// invariants checks the assert form of every invariant block.
func (c *compiler) invariants() {
	byName := map[string]*lang.Invariant{}
	for _, inv := range c.mod.Invariants {
		byName[inv.Name.Value] = inv
	}
	for _, n := range sortedKeys(byName) {
		inv := byName[n]
		p := bundle.InvariantPlan{Name: n, Severity: "medium", Assert: c.checkBool(inv.Assert, "assert", "invariant "+n)}
		if inv.Description != nil {
			p.Description = inv.Description.Value
		}
		if inv.Severity != nil {
			p.Severity = inv.Severity.Value
		}
		c.b.Plan.Invariants = append(c.b.Plan.Invariants, p)
	}
}

// failures checks every failure class.
func (c *compiler) failures() {
	byName := map[string]*lang.Failure{}
	for _, f := range c.mod.Failures {
		byName[f.Name.Value] = f
	}
	for _, n := range sortedKeys(byName) {
		f := byName[n]
		p := bundle.FailurePlan{Name: n, When: c.checkBool(f.When, "when", "failure "+n)}
		if f.Description != nil {
			p.Description = f.Description.Value
		}
		c.b.Plan.Failures = append(c.b.Plan.Failures, p)
	}
}

// gates checks every gate requirement in the gate environment (metrics,
// condition).
func (c *compiler) gates() {
	if len(c.mod.Gates) == 0 {
		return
	}
	env, err := celenv.NewGate()
	if err != nil {
		c.errorf("internal-error", c.mod.Gates[0].Range, "Internal error", err.Error())
		return
	}
	byName := map[string]*lang.Gate{}
	for _, g := range c.mod.Gates {
		byName[g.Name.Value] = g
	}
	for _, n := range sortedKeys(byName) {
		g := byName[n]
		p := bundle.GatePlan{Name: n}
		if g.Description != nil {
			p.Description = g.Description.Value
		}
		for _, cond := range g.Conditions {
			p.Conditions = append(p.Conditions, cond.Value)
		}
		sort.Strings(p.Conditions)
		for i, r := range g.Require {
			idx, _ := c.check(env, celenv.KindGate, r, "require", fmt.Sprintf("gate %s (requirement %d)", n, i+1), nil, types.BoolType)
			if idx != bundle.NoExpr {
				p.Require = append(p.Require, idx)
			}
		}
		c.b.Plan.Gates = append(c.b.Plan.Gates, p)
	}
}
