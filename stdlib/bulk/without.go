package bulk

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// OverloadWithout is the overload id of a.without(b).
const OverloadWithout = "tenet_list_without_list"

// without returns the elements of a that are not in b, in a's order: the
// comprehension a.filter(x, !(x in b)), with the membership test `in`
// makes (b's Contains) and no interpreter step per element.
func without(av, bv ref.Val) ref.Val {
	a, ok := av.(traits.Lister)
	b, ok2 := bv.(traits.Lister)
	if !ok || !ok2 {
		return types.NoSuchOverloadErr()
	}
	var kept []ref.Val
	for it := a.Iterator(); it.HasNext() == types.True; {
		x := it.Next()
		switch in := b.Contains(x); in {
		case types.True:
		case types.False:
			kept = append(kept, x)
		default:
			// cel-go's lists never fail a membership test; were one
			// to, the comprehension would fail too.
			if types.IsUnknownOrError(in) {
				return in
			}
			return types.NoSuchOverloadErr()
		}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, kept)
}

// trackWithout charges a.without(b) as the membership tests it makes: 1,
// plus per element of a the size of b (cel-go's charge of x in b) and 0.1
// per unit of comparison work of x with every element of b (as stdlib
// charges ==), plus one per element of the result.
func trackWithout(args []ref.Val, result ref.Val) *uint64 {
	c := uint64(1)
	if len(args) != 2 {
		return &c
	}
	a, okA := args[0].(traits.Lister)
	b, okB := args[1].(traits.Lister)
	if !okA || !okB {
		return &c
	}
	n, _ := a.Size().(types.Int)
	m, _ := b.Size().(types.Int)
	var w uint64
	for i := types.Int(0); i < n && w < EqWorkStop; i++ {
		x := a.Get(i)
		for j := types.Int(0); j < m && w < EqWorkStop; j++ {
			w = cost.SafeAdd(w, EqWork(x, b.Get(j), EqWorkStop-w))
		}
	}
	c = cost.SafeAdd(c, cost.SafeMultiply(uint64(max(n, 0)), uint64(max(m, 0))), scan(w))
	if r, ok := result.(traits.Lister); ok {
		if k, ok := r.Size().(types.Int); ok && k > 0 {
			c = cost.SafeAdd(c, uint64(k))
		}
	}
	return &c
}

func withoutFunction() Function {
	d := withoutDoc()
	t := cel.TypeParamType("T")
	list := cel.ListType(t)
	pairs := cost.Mul(cost.Length(cost.Target()), cost.Length(cost.Arg(0)))
	return Function{
		Doc: d,
		Decl: cel.Function("without", cel.FunctionDocs(d.Summary),
			cel.MemberOverload(OverloadWithout, []*cel.Type{list, list}, list,
				cel.OverloadExamples(examplesOf(d)...),
				cel.BinaryBinding(without))),
		Models: []cost.OverloadModel{
			cost.MemberOverload(OverloadWithout,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), pairs,
					cost.Mul(pairs, cost.StringScan(cost.Min(cost.TargetElem(), cost.ArgElem(0)))),
					cost.Length(cost.Target()))),
				cost.ResultSize(cost.List(cost.AtMost(cost.Length(cost.Target())), cost.TargetElem()))),
		},
		Charges: []Charge{{
			Overloads: []string{OverloadWithout},
			Calls:     "a.without(b)",
			Cost:      "1 plus, per element of a, the size of b (as x in b) and 0.1 per unit of comparison work with each element of b (as for ==), plus one per element of the result.",
			Track:     trackWithout,
		}},
	}
}
