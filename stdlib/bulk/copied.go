package bulk

import (
	"math"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// OverloadCopiedFrom is the overload id of copiedFrom.
const OverloadCopiedFrom = "tenet_copiedfrom_map_string_string_int"

// copiedFrom(m, source, except, n) is the comprehension
//
//	m.exists(k, type(m[k]) == string && size(m[k]) >= n
//	  && source.contains(m[k]) && !except.contains(m[k]))
//
// evaluated in Go: whether some string value of the map, at least n code
// points long, occurs in source and not in except. It is non-strict, as the
// comprehension is: an error (or unknown) in source, except or n matters
// only when a value reaches the term that reads it, and then the outcome is
// the comprehension's (see copiedFromFunction's semantics).
func copiedFrom(args ...ref.Val) ref.Val {
	m := args[0]
	if types.IsUnknownOrError(m) {
		return m
	}
	mp, ok := m.(traits.Mapper)
	if !ok {
		return types.NoSuchOverloadErr()
	}
	src, exc, n := args[1], args[2], args[3]
	var acc result
	if gm, ok := mp.Value().(map[string]any); ok {
		// A decoded JSON object (a call's arguments): its values read
		// without converting each to a CEL value.
		for k, x := range gm {
			if acc.or(copiedValue(goValue(mp, k, x), src, exc, n)) {
				return types.True
			}
		}
		return acc.orValue()
	}
	for it := mp.Iterator(); it.HasNext() == types.True; {
		if acc.or(copiedValue(mp.Get(it.Next()), src, exc, n)) {
			return types.True
		}
	}
	return acc.orValue()
}

// goValue is the CEL value of value x at key k of map m, which wraps a
// map[string]any: a string as is, types.Null for the JSON types that are
// not strings (all copiedFrom needs to know of them), any other Go value
// as m converts it.
func goValue(m traits.Mapper, k string, x any) ref.Val {
	switch x := x.(type) {
	case string:
		return types.String(x)
	case ref.Val:
		return x
	case nil, bool, float64, int64, []any, map[string]any:
		return types.NullValue
	}
	return m.Get(types.String(k))
}

// copiedValue is the comprehension's step for one value v: the
// conjunction type(v) == string && size(v) >= n && source.contains(v) &&
// !except.contains(v), with CEL's && (false if any term is false, else
// unknown if any is, else the first error).
func copiedValue(v, src, exc, n ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.False
	}
	var acc result
	if acc.and(sizeAtLeast(s, n)) {
		return types.False
	}
	if acc.and(contains(src, s)) {
		return types.False
	}
	if acc.and(not(contains(exc, s))) {
		return types.False
	}
	return acc.andValue()
}

// sizeAtLeast is size(s) >= n for an int n (the declared type; cel-go
// refuses another before the call).
func sizeAtLeast(s types.String, n ref.Val) ref.Val {
	i, ok := n.(types.Int)
	if !ok {
		if types.IsUnknownOrError(n) {
			return n
		}
		return types.NoSuchOverloadErr()
	}
	// A string of len bytes holds between len/4 and len code points: count
	// them only when that range straddles n.
	switch {
	case i <= 0:
		return types.True
	case int64(len(s)) < int64(i):
		return types.False
	case int64(i) <= math.MaxInt64/4 && int64(len(s)) >= 4*int64(i):
		return types.True
	}
	return types.Bool(int64(utf8.RuneCountInString(string(s))) >= int64(i))
}

// contains is text.contains(s): no such overload when text is not a string.
func contains(text ref.Val, s types.String) ref.Val {
	if types.IsUnknownOrError(text) {
		return text
	}
	t, ok := text.(types.String)
	if !ok {
		return types.NoSuchOverloadErr()
	}
	return types.Bool(strings.Contains(string(t), string(s)))
}

// not is CEL's !x.
func not(v ref.Val) ref.Val {
	if b, ok := v.(types.Bool); ok {
		return !b
	}
	if types.IsUnknownOrError(v) {
		return v
	}
	return types.NoSuchOverloadErr()
}

// result accumulates the non-boolean outcomes of CEL's && and || over their
// terms, in order: the unknowns merged, and the first error.
type result struct {
	unk *types.Unknown
	err ref.Val
}

// and adds a term of a conjunction and says whether it is false (the
// conjunction is then false).
func (r *result) and(v ref.Val) bool {
	if b, ok := v.(types.Bool); ok {
		return !bool(b)
	}
	r.add(v)
	return false
}

// or adds a term of a disjunction and says whether it is true (the
// disjunction is then true).
func (r *result) or(v ref.Val) bool {
	if b, ok := v.(types.Bool); ok {
		return bool(b)
	}
	r.add(v)
	return false
}

func (r *result) add(v ref.Val) {
	if u, ok := v.(*types.Unknown); ok {
		if r.unk == nil {
			r.unk = u
		} else {
			r.unk = types.MergeUnknowns(r.unk, u)
		}
		return
	}
	if r.err == nil {
		if types.IsError(v) {
			r.err = v
		} else {
			r.err = types.NoSuchOverloadErr()
		}
	}
}

// andValue is the conjunction's value when no term was false.
func (r *result) andValue() ref.Val { return r.value(types.True) }

// orValue is the disjunction's value when no term was true.
func (r *result) orValue() ref.Val { return r.value(types.False) }

func (r *result) value(otherwise ref.Val) ref.Val {
	if r.unk != nil {
		return r.unk
	}
	if r.err != nil {
		return r.err
	}
	return otherwise
}

// trackCopiedFrom charges copiedFrom 1 plus, per value of the map, 1, and
// for a string value a scan of it (its code points are counted) and the
// charge of source.contains(value) and except.contains(value) (as stdlib
// charges s.contains(t)): at least the work of the comprehension's terms
// for every value, whether or not the call stopped early.
func trackCopiedFrom(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) != 4 {
		return &c
	}
	mp, ok := args[0].(traits.Mapper)
	if !ok {
		return &c
	}
	n, _ := strLen(args[1])
	e, _ := strLen(args[2])
	value := func(v ref.Val) {
		c = cost.SafeAdd(c, 1)
		if s, ok := v.(types.String); ok {
			m := uint64(len(s))
			c = cost.SafeAdd(c, scan(m), containsCharge(n, m), containsCharge(e, m))
		}
	}
	if gm, ok := mp.Value().(map[string]any); ok {
		for k, x := range gm {
			value(goValue(mp, k, x))
		}
		return &c
	}
	for it := mp.Iterator(); it.HasNext() == types.True; {
		value(mp.Get(it.Next()))
	}
	return &c
}

// strLen is the length in bytes of a string or bytes value and ok, or 0
// and false for any other value (as stdlib's).
func strLen(v ref.Val) (uint64, bool) {
	switch v := v.(type) {
	case types.String:
		return uint64(len(v)), true
	case types.Bytes:
		return uint64(len(v)), true
	}
	return 0, false
}

// containsCharge is stdlib's charge of s.contains(t) for a text of n bytes
// and a t of m bytes: a scan of s times a scan of t, each at least 1, or 1
// when t is longer than s.
func containsCharge(n, m uint64) uint64 {
	if m > n {
		return 1
	}
	return max(1, cost.SafeMultiply(max(1, scan(n)), max(1, scan(m))))
}

func copiedFromFunction() Function {
	d := copiedFromDoc()
	perValue := cost.Sum(cost.Const(1), cost.StringScan(cost.ArgElem(0)),
		cost.Mul(cost.StringScan(cost.Arg(1)), cost.StringScan(cost.ArgElem(0))),
		cost.Mul(cost.StringScan(cost.Arg(2)), cost.StringScan(cost.ArgElem(0))))
	return Function{
		Doc: d,
		Decl: cel.Function("copiedFrom", cel.FunctionDocs(d.Summary),
			cel.Overload(OverloadCopiedFrom,
				[]*cel.Type{cel.MapType(cel.DynType, cel.DynType), cel.StringType, cel.StringType, cel.IntType}, cel.BoolType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.OverloadIsNonStrict(),
				cel.FunctionBinding(copiedFrom))),
		Models: []cost.OverloadModel{
			cost.Overload(OverloadCopiedFrom,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), cost.Mul(cost.Length(cost.Arg(0)), perValue)))),
		},
		Charges: []Charge{{
			Overloads: []string{OverloadCopiedFrom},
			Calls:     "copiedFrom(m, source, except, n)",
			Cost:      "1 plus, per entry of m, 1, and for a string value v a scan of v plus the charges of source.contains(v) and except.contains(v), whether or not the call stopped early.",
			Track:     trackCopiedFrom,
		}},
	}
}
