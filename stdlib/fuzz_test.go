package stdlib

import (
	"testing"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// parseYAML and parseJSON never panic, and whatever they return stays within
// the size their cost models state.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1", "- [a, {b: c}]", "a: &x [1]\nb: *x", "? x\n: y", "{\"a\": [1, null]}", "a: |\n  x\n", "&a [*a]", "!!binary aGk=", "<<: {a: 1}", "a: b: c", "---\n---"} {
		f.Add(s)
	}
	// Regression seed: five nested lists, deeper than cel-go's size
	// calculator traverses (it then reports math.MaxUint32).
	f.Add("- - - - ! -")
	calc := types.NewSizeCalculator(types.SizeCalculatorStringUnitLength(1))
	f.Fuzz(func(t *testing.T, s string) {
		if y := parseYAML(types.String(s)); !types.IsError(y) {
			if size := aggregateSize(t, calc, y); size > 2*uint64(len(s))+2 {
				t.Errorf("parseYAML(%q): aggregate size %d > %d", s, size, 2*len(s)+2)
			}
		}
		if j := parseJSON(types.String(s)); !types.IsError(j) {
			if size := aggregateSize(t, calc, j); size > uint64(len(s)) {
				t.Errorf("parseJSON(%q): aggregate size %d > %d", s, size, len(s))
			}
		}
	})
}

// aggregateSize is the size cost models use (1 per scalar and container,
// the length of a string or bytes, at least 1), counted here at any depth;
// where cel-go's calculator is within its depth and node limits, the two
// must agree.
func aggregateSize(t *testing.T, calc *types.SizeCalculator, v ref.Val) uint64 {
	n := countSize(v)
	if got := calc.ApproximateAggregateSize(v); !got.LimitExceeded && uint64(got.Size) != n {
		t.Fatalf("aggregate size of %v: cel-go %d, counted %d", v, got.Size, n)
	}
	return n
}

func countSize(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return max(1, uint64(len(x)))
	case types.Bytes:
		return max(1, uint64(len(x)))
	case traits.Mapper:
		n := uint64(1)
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			n += countSize(k) + countSize(x.Get(k))
		}
		return n
	case traits.Lister:
		n := uint64(1)
		for it := x.Iterator(); it.HasNext() == types.True; {
			n += countSize(it.Next())
		}
		return n
	}
	return 1
}
