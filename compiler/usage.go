package compiler

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
)

// usage records which params, predicates and tools the contract's
// expressions refer to, for the unused-declaration warnings.
type usage struct {
	params, preds, tools map[string]bool
	allParams            bool            // `params` used as a whole value
	strings              map[string]bool // string literals: a tool is named by c.tool == 'name'
}

func newUsage() *usage {
	return &usage{params: map[string]bool{}, preds: map[string]bool{}, tools: map[string]bool{}, strings: map[string]bool{}}
}

// record walks a checked expression.
func (u *usage) record(a *cel.Ast) {
	root := a.NativeRep().Expr()
	selected := map[int64]bool{} // identifiers that are the operand of a recorded select
	ast.PreOrderVisit(root, ast.NewExprVisitor(func(x ast.Expr) {
		switch x.Kind() {
		case ast.SelectKind:
			sel := x.AsSelect()
			op := sel.Operand()
			if op.Kind() != ast.IdentKind {
				return
			}
			switch op.AsIdent() {
			case "params":
				u.params[sel.FieldName()] = true
			case "pred":
				u.preds[sel.FieldName()] = true
			case "tools":
				u.tools[sel.FieldName()] = true
			default:
				return
			}
			selected[op.ID()] = true
		case ast.LiteralKind:
			if s, ok := x.AsLiteral().(types.String); ok {
				u.strings[string(s)] = true
			}
		}
	}))
	ast.PreOrderVisit(root, ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() == ast.IdentKind && x.AsIdent() == "params" && !selected[x.ID()] {
			u.allParams = true
		}
	}))
}

// warnUnused reports params, predicates and tools no expression uses, and
// grants allowing operations no tool performs.
func (c *compiler) warnUnused() {
	u := c.used
	if !u.allParams {
		for _, p := range c.mod.Params {
			if !u.params[p.Name.Value] {
				c.warnf("unused-param", p.Name.Range, "Unused parameter", fmt.Sprintf("No expression reads params.%s.", p.Name.Value))
			}
		}
	}
	for _, p := range c.mod.Predicates {
		if !u.preds[p.Name.Value] {
			c.warnf("unused-predicate", p.Name.Range, "Unused predicate", fmt.Sprintf("No expression uses pred.%s.", p.Name.Value))
		}
	}
	vectors := map[string]bool{}
	if tm := c.mod.ThreatModel; tm != nil {
		for _, v := range tm.InjectionVectors {
			vectors[v.Value] = true
		}
	}
	granted := map[string]bool{} // operations some grant allows: the audit reads those tools' calls
	for _, g := range c.mod.Grants {
		for _, a := range g.Allows {
			granted[a.Operation.Value] = true
		}
	}
	ops := map[string]bool{}
	for _, t := range c.mod.Tools {
		ops[t.Operation.Value] = true
		n := t.Name.Value
		if !u.tools[n] && !u.strings[n] && !vectors[n] && !granted[t.Operation.Value] {
			c.warnf("unused-tool", t.Name.Range, "Unused tool",
				fmt.Sprintf("No expression names tool %q (tools.%s, or '%s' in a string), the threat model does not list it and no grant allows its operation.", n, n, n))
		}
	}
	for _, g := range c.mod.Grants {
		for _, a := range g.Allows {
			if c.hasOperation(a.Operation.Value) && !ops[a.Operation.Value] {
				c.warnf("grant-unused-operation", a.Operation.Range, "Grant on an operation no tool has",
					fmt.Sprintf("Grant %q allows %q, but no declared tool performs that operation.", g.Name.Value, a.Operation.Value))
			}
		}
	}
}
