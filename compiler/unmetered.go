package compiler

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/costbound"
)

// checkedExpr is what the unmetered bounds of an expression are computed
// from: the environment it was checked in and its checked AST.
type checkedExpr struct {
	env *cel.Env
	ast *cel.Ast
}

// unmetered records, per criterion and step expression, its static cost
// bound over each run size rung while below the run cost limit
// (bundle.Expr.Unmetered, compiler/costbound): the expressions that eval
// may evaluate without the runtime cost tracker. It runs once every
// expression, constant and profile is in the bundle (the bounds depend on
// the bundle's largest constant), and not at all when an expression had an
// error (the bundle is not written then).
func (c *compiler) unmetered() {
	if len(c.checked) != len(c.b.Exprs) || c.diags.HasErrors() {
		return
	}
	consts := costbound.Consts(c.b)
	for i := range c.b.Exprs {
		e := &c.b.Exprs[i]
		if !costbound.Applies(e.Env) {
			continue
		}
		bounds, err := costbound.Bounds(c.checked[i].env, c.checked[i].ast, consts, c.b.Plan.RunCostLimit)
		if err != nil {
			c.errorf("internal-error", hcl.Range{Filename: e.Range.File, Start: hcl.Pos{Line: e.Range.Line, Column: e.Range.Column}, End: hcl.Pos{Line: e.Range.EndLine, Column: e.Range.EndColumn}}, "Internal error", fmt.Sprintf("Bounding the cost of the %s of %s: %v.", kindWords(e.Kind), e.Owner, err))
			continue
		}
		e.Unmetered = bounds
	}
}
