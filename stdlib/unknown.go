package stdlib

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// overloadUnknown is the overload id of unknown.
const overloadUnknown = "tenet_unknown_string"

// UnknownError is the error unknown(reason) evaluates to: a criterion that
// cannot be decided on this run, by the author's word. eval recognises it
// (errors.As) and gives the label the reason as written, with no prefix of
// CEL's own.
type UnknownError struct {
	// Reason is unknown's argument.
	Reason string
}

func (e *UnknownError) Error() string { return e.Reason }

func unknownSpec() spec {
	d := FunctionDoc{
		Name:       "unknown",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadUnknown, Text: "unknown(string) -> dyn"}},
		Summary:    "Makes the criterion unknown, with the given reason: the label cannot be decided on this run.",
		Semantics: []string{
			"unknown(reason) evaluates to an error whose message is reason, so the label whose criterion gives it is unknown, never false. Its reason is `<criterion> (<file>:<line>:<col>): <reason>` when the criterion calls unknown, and `<criterion> (<file>:<line>:<col>): predicate <name>: <reason>` when predicate name's expression calls it — the predicate that called it, however many predicates read that one on the way (an ordinary error names each of them: `predicate a: predicate b: no such key: x`).",
			"The result is dyn, so it fits either branch of a conditional of any type: `pred.texts.size() == 0 ? unknown('the texts contradict each other') : pred.texts`. The reason may be computed: `unknown('benchmark_version ' + v + ' is unknown')`; an error while computing it propagates instead.",
			"CEL's rules for errors apply: `true || unknown(r)` is true and `false && unknown(r)` false (the other side decides), while `false || unknown(r)`, `true && unknown(r)` and `unknown(r) == x` are unknown. It is never evaluated at compile time: a criterion calling it with a constant reason compiles, and is unknown on every run that reaches the call. In a source expression, which maps a record rather than labelling it, it refuses the record like any error there: `runs.jsonl:1: source s: task: <reason>`.",
			"It adds a function, not a bundle format: FormatVersion is unchanged, and bundles built before it load and judge as before. A tenet from before unknown still loads a bundle that calls it, but the call fails there with `no such overload`: the same labels, with that message as their reason instead of the author's. Evaluate a bundle with the tenet that built it ([bundle.md](bundle.md#versioning)).",
		},
		Errors: []string{"`<reason>`, always: the reason as given, with no prefix."},
		Examples: []Example{
			{Expr: `true || unknown('not needed')`, Result: "true"},
			{Expr: `(1 < 2 ? [1] : unknown('never')) == [1]`, Result: "true"},
			{Expr: `false && unknown('not needed')`, Result: "false"},
			{Expr: `unknown('the texts contradict each other')`, Error: "the texts contradict each other"},
			{Expr: `false || unknown('no version')`, Error: "no version"},
			{Expr: `unknown('version ' + string(3) + ' is none of ours')`, Error: "version 3 is none of ours"},
			{Expr: `unknown(1)`, Error: "found no matching overload for 'unknown' applied to '(int)'"},
		},
		Cost: "Constant: 1. The result, an error, has size 0.",
	}
	return spec{
		doc: d,
		decl: cel.Function("unknown", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadUnknown, []*cel.Type{cel.StringType}, cel.DynType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(func(reason ref.Val) ref.Val {
					return types.WrapErr(&UnknownError{Reason: string(reason.(types.String))})
				}))),
		models: []cost.OverloadModel{
			cost.Overload(overloadUnknown, cost.EvalCost(cost.Const(cost.CallCost)), cost.ResultSize(cost.Const(0))),
		},
	}
}
