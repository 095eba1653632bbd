package stdlib

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// overloadArg is the overload id of arg.
const overloadArg = "tenet_arg_map_string_dyn"

// arg reads a tool-call argument with a default.
//
//	arg(map(string, dyn), string, dyn) -> dyn
//
// arg(m, key, default) is m[key] when m has the key and its value is not
// null, and default otherwise. Tool-call arguments are maps in which models
// omit keys and send nulls, and c.args.x on an absent key is a runtime error;
// arg(c.args, "x", "") is not.
//
// Errors: none of its own (an error argument propagates).
//
// Example:
//
//	arg({'to': 'bob', 'cc': null}, 'cc', 'nobody') // "nobody"
//
// Cost: constant; the result is as large as the map's values or the default.
func arg(m, key, def ref.Val) ref.Val {
	v, found := m.(traits.Mapper).Find(key)
	if !found || v == nil || v.Type() == types.NullType {
		return def
	}
	return v
}

func argSpec() spec {
	d := FunctionDoc{
		Name:       "arg",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadArg, Text: "arg(map(string, dyn), string, dyn) -> dyn"}},
		Summary:    "A map's value at a key, or a default when the key is absent or its value is null.",
		Semantics: []string{
			"arg(m, key, default) is m[key] when m has the key and its value is not null, and default otherwise.",
			"Tool-call arguments are maps in which models omit keys and send nulls, and `c.args.x` on an absent key is a runtime error: `arg(c.args, 'x', '')` is not.",
			"The result is dyn: compare it with values of the type you expect, or convert it (`num(arg(c.args, 'amount', 0))`).",
		},
		Errors: []string{"None of its own; an error in an argument propagates."},
		Examples: []Example{
			{Expr: `arg({'to': 'bob', 'cc': null}, 'cc', 'nobody')`, Result: `"nobody"`},
			{Expr: `arg({'to': 'bob'}, 'to', '')`, Result: `"bob"`},
			{Expr: `arg({'to': 'bob'}, 'amount', 0.0)`, Result: "0.0"},
			{Expr: `arg({'n': 0}, 'n', 5)`, Result: "0"},
			{Expr: `arg({'to': 'bob'}, 'amount', 0.0) == 0.0`, Result: "true"},
		},
		Cost: "Estimated 1; charged 1 plus a scan of the key (0.1 per byte), which the lookup hashes. The result's size is that of the map's values or of the default.",
	}
	return spec{
		doc: d,
		decl: cel.Function("arg", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadArg, []*cel.Type{cel.MapType(cel.StringType, cel.DynType), cel.StringType, cel.DynType}, cel.DynType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val { return arg(args[0], args[1], args[2]) }))),
		models: []cost.OverloadModel{
			cost.Overload(overloadArg,
				cost.EvalCost(cost.Const(cost.CallCost)),
				cost.ResultSize(cost.Union(cost.ArgElem(0), cost.Arg(2)))),
		},
	}
}
