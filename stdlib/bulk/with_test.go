package bulk_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/stdlib"
	"github.com/tenetlang/tenet/stdlib/bulk"
)

func withEnv(t testing.TB) *cel.Env {
	t.Helper()
	e, err := cel.NewEnv(stdlib.Library(),
		cel.Variable("m", cel.MapType(cel.DynType, cel.DynType)),
		cel.Variable("n", cel.MapType(cel.DynType, cel.DynType)),
		cel.Variable("d", cel.DynType))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestWith(t *testing.T) {
	e := withEnv(t)
	for _, c := range []struct{ expr, want string }{
		{`{'a': 1, 'b': 2}.with({'b': 3, 'c': 4}) == {'a': 1, 'b': 3, 'c': 4}`, "true"},
		{`{'a': 1, 'b': 2}.with({'b': 3, 'c': 4}).size()`, "3"},
		{`{}.with({'a': [1]})`, "{a: [1]}"},
		{`{1: 'one', 2: 'two'}.with(dyn({1u: 'uno'})) == {1: 'uno', 2: 'two'}`, "true"},
		{`{1: 'one'}.with(dyn({1u: 'uno'})).size()`, "1"},
		// A double key and an int or uint one that CEL takes for it: one
		// key, never two. m's keys are replaced as k in n finds them, and
		// 1 in {1.0: 'b'} is false in cel-go (1.0 in {1: 'b'} is true), so
		// the first keeps m's value, as the comprehension does.
		{`dyn({1: 'a'}).with(dyn({1.0: 'b'}))`, "{1: a}"},
		{`dyn({1.0: 'a'}).with(dyn({1: 'b'}))`, "{1: b}"},
		{`dyn({1.0: 'a'}).with(dyn({1: 'b'})).size()`, "1"},
		{`dyn({1.0: 'a'}).with(dyn({1u: 'b', 2u: 'c'})).size()`, "2"},
		{`dyn({1u: 'a'}).with(dyn({1.0: 'b'})).size()`, "1"},
		{`cel.bind(s, {'a': 1}, s.with({'a': 2}) == {'a': 2} && s == {'a': 1})`, "true"},
		{`{'a': 1}.with({'b': 1 / 0})`, "error: division by zero"},
		{`{'a': 1}.with(d)`, "error: no such overload: with(map, string)"},
		{`{'a': {'b': 1}}.with({'a': {'c': 2}}).a`, "{c: 2}"},
	} {
		if got := outcome(t, e, c.expr, map[string]any{"d": "x"}); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

// TestWithMatchesTransformMap compares m.with(n) with the comprehension it
// replaces, on random maps whose keys include n's (strings, and ints,
// uints and doubles, n's spelling of a key of m taken at random among the
// three: 1, 1u and 1.0 are one key in CEL).
func TestWithMatchesTransformMap(t *testing.T) {
	e := withEnv(t)
	r := rand.New(rand.NewPCG(17, 8))
	key := func() any {
		switch r.IntN(5) {
		case 0:
			return int64(r.IntN(4))
		case 1:
			return uint64(r.IntN(4))
		case 2:
			return float64(r.IntN(4))
		default:
			return fmt.Sprintf("k%d", r.IntN(5))
		}
	}
	value := func() any {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []any{int64(r.IntN(3)), "x"}
		case 2:
			return map[string]any{"v": int64(r.IntN(3))}
		}
		return fmt.Sprint(r.IntN(3))
	}
	for i := range 2000 {
		// m holds no two keys CEL takes for one (int 2 and uint 2), which
		// no CEL map can hold: a Go map given as a variable can.
		m := map[any]any{}
		seen := map[string]bool{}
		for range r.IntN(6) {
			k := key()
			if seen[fmt.Sprint(k)] {
				continue
			}
			seen[fmt.Sprint(k)] = true
			m[k] = value()
		}
		n := map[any]any{}
		for k := range m {
			if r.IntN(2) == 0 {
				// The same key, sometimes spelled as another numeric type.
				var i int64
				switch kk := k.(type) {
				case int64:
					i = kk
				case uint64:
					i = int64(kk)
				case float64:
					i = int64(kk)
				default:
					n[k] = value()
					continue
				}
				switch r.IntN(3) {
				case 0:
					n[i] = value()
				case 1:
					n[uint64(i)] = value()
				default:
					n[float64(i)] = value()
				}
			}
		}
		vars := map[string]any{"m": m, "n": n}
		got := outcome(t, e, `m.with(n) == m.transformMap(k, v, k in n ? n[k] : v)`, vars)
		if got != "true" {
			t.Fatalf("case %d: m=%v n=%v: m.with(n) == transformMap: %s (with: %s, transformMap: %s)", i, m, n, got,
				outcome(t, e, "m.with(n)", vars), outcome(t, e, "m.transformMap(k, v, k in n ? n[k] : v)", vars))
		}
		if got := outcome(t, e, `m.with(n).size() == m.size()`, vars); got != "true" {
			t.Fatalf("case %d: m=%v n=%v: size: %s", i, m, n, got)
		}
	}
}

// The runtime charge, exactly: 1, plus per entry of both maps 1 plus a
// scan of a string key.
func TestWithCharge(t *testing.T) {
	track := bulk.Functions()[1].Charges[0].Track
	m := types.DefaultTypeAdapter.NativeToValue(map[any]any{"abcdefghijk": 1, int64(5): 2})
	n := types.DefaultTypeAdapter.NativeToValue(map[string]any{"a": 1})
	// 1 + (1 + 2) + (1 + 0) + (1 + 1)
	if got := *track([]ref.Val{m, n}, types.True); got != 7 {
		t.Errorf("charge %d, want 7", got)
	}
}

// The static estimate of a state update in a fold: 1 plus, per entry of m
// and n, 1 plus a scan of its key: with 7 keys of up to 20 bytes and one of
// n, 1 + 7 × 3 + 1 × (1 + 2) = 25, plus the lookups of m and n.
func TestWithEstimate(t *testing.T) {
	e := withEnv(t)
	ast, iss := e.Compile("m.with(n)")
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	est, err := e.EstimateCost(ast, sizes{
		"m": cost.FixedSizeEstimate(7), "m.@keys": cost.FixedSizeEstimate(20),
		"n": cost.FixedSizeEstimate(1), "n.@keys": cost.FixedSizeEstimate(20),
	})
	if err != nil {
		t.Fatal(err)
	}
	if est.Max != 27 {
		t.Errorf("estimate %+v, want a maximum of 27", est)
	}
}
