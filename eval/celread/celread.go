// Package celread says what a checked CEL expression reads of one of its
// variables: the fields it selects (v.field), and whether it may read the
// variable as a whole. eval uses it for the metrics a gate reads and for
// the record members a source's select reads (select before decoding).
package celread

import (
	"sort"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
)

// Fields lists the fields selected from variable v in an expression
// (v.field, has(v.field)), sorted and without duplicates.
func Fields(a *cel.Ast, v string) []string {
	seen := map[string]bool{}
	var out []string
	ast.PreOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() != ast.SelectKind {
			return
		}
		sel := x.AsSelect()
		if op := sel.Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == v && !seen[sel.FieldName()] {
			seen[sel.FieldName()] = true
			out = append(out, sel.FieldName())
		}
	}))
	sort.Strings(out)
	return out
}

// Use is what an expression reads of a variable: the fields it selects,
// and Whole when it uses the variable otherwise (v[k], size(v), a
// comprehension over it), which could reach any field.
type Use struct {
	Fields []string
	Whole  bool
}

// UseOf finds the Use of variable v in a checked expression. A
// comprehension variable named v makes it whole or adds fields: never
// fewer reads than the expression makes.
func UseOf(a *cel.Ast, v string) Use {
	u := Use{Fields: Fields(a, v)}
	idents, selected := 0, 0
	ast.PreOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		switch x.Kind() {
		case ast.IdentKind:
			if x.AsIdent() == v {
				idents++
			}
		case ast.SelectKind:
			if op := x.AsSelect().Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == v {
				selected++
			}
		}
	}))
	u.Whole = idents > selected
	return u
}
