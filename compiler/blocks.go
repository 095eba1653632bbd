package compiler

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/compiler/gatekeys"
	"github.com/tenetlang/tenet/lang"
)

// invariants checks the assert form of every invariant block, the
// contract's and its imports' (named ns.name).
func (c *compiler) invariants() {
	type scoped struct {
		inv *lang.Invariant
		s   *scope
	}
	byName := map[string]scoped{}
	for _, s := range c.scopes {
		for _, inv := range s.mod.Invariants {
			byName[s.prefix()+inv.Name.Value] = scoped{inv, s}
		}
	}
	for _, n := range sortedKeys(byName) {
		inv, s := byName[n].inv, byName[n].s
		p := bundle.InvariantPlan{Name: n, Severity: "medium", Holds: c.criterion(s, inv.Assert, inv.Trace, "assert", "invariant "+n, true)}
		if inv.Description != nil {
			p.Description = inv.Description.Value
		}
		if inv.Severity != nil {
			p.Severity = inv.Severity.Value
		}
		c.b.Plan.Invariants = append(c.b.Plan.Invariants, p)
	}
}

// failures checks every failure class, the contract's and its imports'
// (named ns.name).
func (c *compiler) failures() {
	type scoped struct {
		f *lang.Failure
		s *scope
	}
	byName := map[string]scoped{}
	for _, s := range c.scopes {
		for _, f := range s.mod.Failures {
			byName[s.prefix()+f.Name.Value] = scoped{f, s}
		}
	}
	for _, n := range sortedKeys(byName) {
		f, s := byName[n].f, byName[n].s
		p := bundle.FailurePlan{Name: n, When: c.criterion(s, f.When, f.Trace, "when", "failure "+n, false)}
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
	gateEnv, err := celenv.NewGate()
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
			idx, _ := c.check(env{gateEnv, celenv.KindGate, nil}, r, "require", fmt.Sprintf("gate %s (requirement %d)", n, i+1), nil, types.BoolType)
			if idx != bundle.NoExpr {
				if parsed, iss := gateEnv.Parse(r.Text); iss.Err() == nil {
					var failures []string
					for _, f := range c.b.Plan.Failures {
						failures = append(failures, f.Name)
					}
					c.diags = append(c.diags, gatekeys.Check(r, parsed, failures)...)
				}
				p.Require = append(p.Require, idx)
			}
		}
		c.b.Plan.Gates = append(c.b.Plan.Gates, p)
	}
}
