package bulk

import "github.com/tenetlang/tenet/stdlib/fndoc"

func withDoc() fndoc.FunctionDoc {
	return fndoc.FunctionDoc{
		Name:       "with",
		Kind:       "function",
		Signatures: []fndoc.Signature{{Overload: OverloadWith, Text: "map(K, V).with(map(K, V)) -> map(K, V)"}},
		Summary:    "A map with some entries replaced or added: m's entries, with n's value for each key n holds.",
		Semantics: []string{
			"m.with(n) holds, for each key of m that n holds, n's value, and m's other entries unchanged; then the entries of n whose key m does not hold (Python's `{**m, **n}`). A key of m is found in n as `k in n` finds it (1 and 1u are one key, and 1.0 finds 1 or 1u; but 1 or 1u does not find 1.0, as `1 in {1.0: 'b'}` is false in CEL, so `{1: 'a'}.with({1.0: 'b'})` is `{1: 'a'}`, as the comprehension below gives); a key of n is new only when it equals none of m's keys (1, 1u and 1.0 are one key), so the result never holds one key twice, and keeps m's spelling of it.",
			"When every key of n is a key of m it is `m.transformMap(k, v, k in n ? n[k] : v)`: the update of a state in a fold, `s.with({'inbox': s.inbox + [msg]})`, copies the map once instead of evaluating a conditional for every key. Unlike the comprehension, n's values are computed before the call, each once.",
			"Neither map is changed. The order in which the result's keys are iterated is unspecified, as for every CEL map.",
			"It adds a function, not a bundle format: a tenet from before with still loads a bundle that calls it, but the call fails there with `no such overload` (the labels that read it become unknown with that reason). Evaluate a bundle with the tenet that built it ([bundle.md](bundle.md#versioning)).",
		},
		Errors: []string{"None of its own; an error in an argument propagates. `no such overload: with(<types>)` when a dyn target or argument is not a map at runtime."},
		Examples: []fndoc.Example{
			{Expr: `{'users': ['Alice'], 'dms': []}.with({'dms': ['hi']})`, Result: `{'users': ['Alice'], 'dms': ['hi']}`},
			{Expr: `{'a': 1, 'b': 2}.with({'b': 3, 'c': 4})`, Result: `{'a': 1, 'b': 3, 'c': 4}`},
			{Expr: `{'a': 1}.with({})`, Result: `{'a': 1}`},
			{Expr: `{1: 'one'}.with({1: 'uno'})`, Result: `{1: 'uno'}`},
			{Expr: `{'a': 1, 'b': 2}.with({'b': 3}) == {'a': 1, 'b': 2}.transformMap(k, v, k in {'b': 3} ? {'b': 3}[k] : v)`, Result: "true"},
			{Expr: `dyn([1]).with({'a': 1})`, Error: "no such overload: with(list, map)"},
		},
		Cost: "Estimated 1 plus, per entry of m and of n, 1 plus a scan of its key; the result has as many entries as m and n together at most. Charged the same at runtime, in bytes.",
	}
}
