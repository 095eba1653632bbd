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
	asts := make([]*cel.Ast, len(c.checked))
	for i, ce := range c.checked {
		asts[i] = ce.ast
	}
	bounds, err := costbound.Plan(c.b, asts, func(i int) (*cel.Env, error) { return c.checked[i].env, nil })
	if err != nil {
		c.errorf("internal-error", hcl.Range{}, "Internal error", fmt.Sprintf("Bounding the cost of the expressions: %v.", err))
		return
	}
	for i := range c.b.Exprs {
		c.b.Exprs[i].Unmetered = bounds[i]
	}
}
