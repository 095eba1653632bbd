package stdlib

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/parser"
)

// expandFold expands the fold macro.
//
//	LIST.fold(acc, INIT, x, STEP)
//
// is a left fold: acc starts as INIT, and for each element x of LIST (each key
// when LIST is a map), in order, acc becomes STEP, which may use acc and x.
// The result is the final acc, so [1, 2, 3].fold(s, 0, x, s + x) is 6 and an
// empty LIST gives INIT. The type of the result is the type of INIT, and STEP
// must have the same type.
//
// The expansion is the standard CEL comprehension
//
//	__comprehension__(iterVar: x, iterRange: LIST, accuVar: acc,
//	                  accuInit: INIT, loopCondition: true,
//	                  loopStep: STEP, result: acc)
//
// so type-checking, evaluation and cost estimation treat it like the built-in
// macros. acc and x are in scope in STEP only; INIT and LIST are evaluated
// outside them.
//
// Errors (at parse time, at the offending argument): acc or x that is not a
// simple name ("fold: the accumulator (argument 1) must be a simple name",
// "fold: the element variable (argument 3) must be a simple name"), the same
// name for both ("fold: the accumulator and the element variable must differ,
// both are <name>"), and a name reserved for macro accumulators
// ("fold: <name> is reserved for macro accumulators").
//
// Example:
//
//	[1, 2, 3].fold(s, 0, x, s + x) // 6
func expandFold(mef cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *cel.Error) {
	acc, ok := simpleName(args[0])
	if !ok {
		return nil, mef.NewError(args[0].ID(), "fold: the accumulator (argument 1) must be a simple name")
	}
	x, ok := simpleName(args[2])
	if !ok {
		return nil, mef.NewError(args[2].ID(), "fold: the element variable (argument 3) must be a simple name")
	}
	if acc == x {
		return nil, mef.NewError(args[2].ID(), fmt.Sprintf("fold: the accumulator and the element variable must differ, both are %s", acc))
	}
	for i, name := range []string{acc, x} {
		if name == mef.AccuIdentName() || name == parser.AccumulatorName || name == parser.HiddenAccumulatorName {
			return nil, mef.NewError(args[2*i].ID(), fmt.Sprintf("fold: %s is reserved for macro accumulators", name))
		}
	}
	return mef.NewComprehension(target, x, acc, args[1], mef.NewLiteral(types.True), args[3], mef.NewIdent(acc)), nil
}

// simpleName returns the name of an unqualified identifier.
func simpleName(e ast.Expr) (string, bool) {
	if e.Kind() != ast.IdentKind {
		return "", false
	}
	name := e.AsIdent()
	if name == "" || name[0] == '.' {
		return "", false
	}
	return name, true
}

func foldSpec() spec {
	d := FunctionDoc{
		Name:       "fold",
		Kind:       "macro",
		Signatures: []Signature{{Text: "LIST.fold(acc, INIT, x, STEP) -> type of INIT"}},
		Summary:    "Left fold: accumulate over a list (or a map's keys) with an explicit accumulator.",
		Semantics: []string{
			"acc starts as INIT; for each element x of LIST, in order (each key when LIST is a map), acc becomes STEP, which may use acc and x. The result is the final acc; an empty LIST gives INIT.",
			"acc and x are simple names, in scope in STEP only. The result has the type of INIT, and STEP must have the same type; INIT may be a list or map literal that STEP rebuilds, e.g. replaying updates into records: `updates.fold(recs, [], u, recs.filter(r, r.id != u.id) + [u])`. With an empty literal INIT the element type is inferred from STEP; when STEP only selects fields of the accumulator's elements it is dyn (the replay has type list(dyn)).",
			"fold expands to a standard CEL comprehension (accumulator acc, loop condition true, step STEP, result acc), so type-checking, evaluation and cost tracking treat it like the built-in macros.",
			"Cost estimation prices each step with acc at the size of INIT and, when INIT is a list or map literal, bounds the result by one entry per element, as for map and filter. A STEP that iterates over a growing acc (as the replay above does) or adds several entries per element is therefore underestimated statically; runtime cost tracking charges the real cost.",
		},
		Errors: []string{
			"`fold: the accumulator (argument 1) must be a simple name` and `fold: the element variable (argument 3) must be a simple name` (parse errors at the argument).",
			"`fold: the accumulator and the element variable must differ, both are <name>`.",
			"`fold: <name> is reserved for macro accumulators` for __result__ or @result.",
			"A STEP whose type differs from INIT's fails to type-check, e.g. `expected type 'int' but found 'double'`.",
		},
		Examples: []Example{
			{Expr: `[1, 2, 3].fold(s, 0, x, s + x) == 6`, Result: "true"},
			{Expr: `["a", "b", "c"].fold(s, "", x, x + s)`, Result: `"cba"`},
			{Expr: `[].fold(s, 10, x, s + x)`, Result: "10"},
			{Expr: `[3, 1, 2].fold(m, {"max": 0, "n": 0}, x, {"max": x > m.max ? x : m.max, "n": m.n + 1})`, Result: `{"max": 3, "n": 3}`},
			{Expr: `[{"id": 1, "v": "a"}, {"id": 2, "v": "b"}, {"id": 1, "v": "c"}].fold(recs, [], u, recs.filter(r, r.id != u.id) + [u])`, Result: `[{"id": 2, "v": "b"}, {"id": 1, "v": "c"}]`},
			{Expr: `[1, 2].fold(s.t, 0, x, s + x)`, Error: "fold: the accumulator (argument 1) must be a simple name"},
			{Expr: `[1, 2].fold(s, 0, s, s + 1)`, Error: "fold: the accumulator and the element variable must differ, both are s"},
			{Expr: `[1, 2].fold(s, 0, x, 0.5)`, Error: "expected type 'int' but found 'double'"},
		},
		Cost: "That of the comprehension it expands to: LIST and INIT once, then STEP once per element. See the semantics for the limits of the static estimate.",
	}
	return spec{
		doc: d,
		decl: cel.Macros(cel.ReceiverMacro("fold", 4, expandFold,
			cel.MacroDocs(d.Summary),
			cel.MacroExamples(examplesOf(d)...))),
	}
}
