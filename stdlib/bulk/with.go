package bulk

import (
	"math"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// OverloadWith is the overload id of m.with(n).
const OverloadWith = "tenet_map_with_map"

// with returns m with n's entries: for a key of m that n holds (found as
// `k in n` finds it), n's value; m's other entries unchanged; then n's
// entries whose key m does not hold (equal in CEL to none of m's keys:
// see holds). When every key of n is a key of m it
// is m.transformMap(k, v, k in n ? n[k] : v), one map copy in place of a
// comprehension evaluating its expression for every key.
func with(mv, nv ref.Val) ref.Val {
	m, ok := mv.(traits.Mapper)
	n, ok2 := nv.(traits.Mapper)
	if !ok || !ok2 {
		return types.NoSuchOverloadErr()
	}
	out := make(map[ref.Val]ref.Val)
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		if v, found := n.Find(k); found {
			out[k] = v
		} else {
			out[k] = m.Get(k)
		}
	}
	for it := n.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		if !holds(m, k) {
			out[k] = n.Get(k)
		}
	}
	return types.NewRefValMap(types.DefaultTypeAdapter, out)
}

// holds reports whether m has a key equal to k in CEL (1, 1u and 1.0 are
// one key). m.Find alone does not say it: cel-go's lookup of an int or
// uint key never tries the double spelling (`1 in {1.0: 'a'}` is false
// while `1.0 in {1: 'a'}` is true), so n's key 1 would be added beside
// m's key 1.0, a map with the same key twice. Every lossless numeric
// spelling of k is looked up.
func holds(m traits.Mapper, k ref.Val) bool {
	if _, found := m.Find(k); found {
		return true
	}
	var spellings []ref.Val
	switch x := k.(type) {
	case types.Int:
		spellings = append(spellings, types.Uint(x), types.Double(x))
		if x < 0 {
			spellings = spellings[1:]
		}
	case types.Uint:
		spellings = append(spellings, types.Int(x), types.Double(x))
		if x > math.MaxInt64 {
			spellings = spellings[1:]
		}
	case types.Double:
		if f := float64(x); f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			spellings = append(spellings, types.Int(int64(f)))
		}
		if f := float64(x); f == math.Trunc(f) && f >= 0 && f < math.MaxUint64 {
			spellings = append(spellings, types.Uint(uint64(f)))
		}
	}
	for _, s := range spellings {
		if !lossless(k, s) {
			continue
		}
		if _, found := m.Find(s); found {
			return true
		}
	}
	return false
}

// lossless reports whether s, a numeric spelling of k, is equal to k in
// CEL (an int past 2^53 has no double equal to it).
func lossless(k, s ref.Val) bool { return k.Equal(s) == types.True }

// trackWith charges m.with(n) 1 plus, per entry of m and of n, 1 plus a
// scan of its key when it is a string (it is hashed and looked up in the
// other map): every entry is read and one is built for each.
func trackWith(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	for _, a := range args {
		m, ok := a.(traits.Mapper)
		if !ok {
			continue
		}
		for it := m.Iterator(); it.HasNext() == types.True; {
			k, _ := strLen(it.Next())
			c = cost.SafeAdd(c, 1, scan(k))
		}
	}
	return &c
}

func withFunction() Function {
	d := withDoc()
	k, v := cel.TypeParamType("K"), cel.TypeParamType("V")
	mapKV := cel.MapType(k, v)
	perEntry := cost.Sum(cost.Const(1), cost.StringScan(cost.TargetKey()))
	return Function{
		Doc: d,
		Decl: cel.Function("with", cel.FunctionDocs(d.Summary),
			cel.MemberOverload(OverloadWith, []*cel.Type{mapKV, mapKV}, mapKV,
				cel.OverloadExamples(examplesOf(d)...),
				cel.BinaryBinding(with))),
		Models: []cost.OverloadModel{
			cost.MemberOverload(OverloadWith,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost),
					cost.Mul(cost.Length(cost.Target()), perEntry),
					cost.Mul(cost.Length(cost.Arg(0)), cost.Sum(cost.Const(1), cost.StringScan(cost.ArgKey(0)))))),
				cost.ResultSize(cost.Map(cost.Sum(cost.Length(cost.Target()), cost.Length(cost.Arg(0))),
					cost.Union(cost.TargetKey(), cost.ArgKey(0)), cost.Union(cost.TargetElem(), cost.ArgElem(0))))),
		},
		Charges: []Charge{{
			Overloads: []string{OverloadWith},
			Calls:     "m.with(n)",
			Cost:      "1 plus, per entry of m and of n, 1 plus a scan of its key when it is a string (each is hashed and looked up in the other map, and one entry built).",
			Track:     trackWith,
		}},
	}
}
