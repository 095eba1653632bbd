package bulk

import "github.com/tenetlang/tenet/stdlib/fndoc"

func withoutDoc() fndoc.FunctionDoc {
	return fndoc.FunctionDoc{
		Name:       "without",
		Kind:       "function",
		Signatures: []fndoc.Signature{{Overload: OverloadWithout, Text: "list(T).without(list(T)) -> list(T)"}},
		Summary:    "The elements of a list that are not in another, in order: a.filter(x, !(x in b)).",
		Semantics: []string{
			"a.without(b) is exactly `a.filter(x, !(x in b))`: the elements of a, in a's order and with a's repetitions, that are not equal to any element of b, by the equality `in` uses (1, 1u and 1.0 are equal; lists and maps compare element by element). It makes the same membership tests, without an interpreter step per element.",
			"Typical use: the ids still in use, `ids.without(state.deleted)`, in a fold step that would otherwise filter the whole list for every call.",
			"It adds a function, not a bundle format: a tenet from before without still loads a bundle that calls it, but the call fails there with `no such overload` (the labels that read it become unknown with that reason). Evaluate a bundle with the tenet that built it ([bundle.md](bundle.md#versioning)).",
		},
		Errors: []string{"None of its own; an error in an argument propagates. `no such overload: without(<types>)` when a dyn target or argument is not a list at runtime (where `x in b` would also test a map's keys)."},
		Examples: []fndoc.Example{
			{Expr: `[1, 2, 3, 2].without([2])`, Result: "[1, 3]"},
			{Expr: `[0, 1, 2, 3].without([])`, Result: "[0, 1, 2, 3]"},
			{Expr: `['a', 'b'].without(['b', 'c'])`, Result: "['a']"},
			{Expr: `[1, 2].without(dyn([1.0, 2u]))`, Result: "[]"},
			{Expr: `[[1], [2]].without([[2]])`, Result: "[[1]]"},
			{Expr: `[1, 2, 3].without([3]) == [1, 2, 3].filter(x, !(x in [3]))`, Result: "true"},
			{Expr: `[1].without(dyn({1: 'one'}))`, Error: "no such overload: without(list, map)"},
		},
		Cost: "Estimated 1 plus, per element of a, the size of b and a scan of the smaller element for each pair, plus one per element of a (the result). Charged at runtime as the membership tests it makes: per element of a the size of b plus 0.1 per unit of comparison work with each element of b (as for ==), plus one per element of the result.",
	}
}
