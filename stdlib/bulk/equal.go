package bulk

import (
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// EqWork bounds the work of a == b in units of one element pair, or one
// byte of a string or bytes pair compared: at least 1; the shorter length of
// two strings or bytes; for two lists or two maps of different sizes, the
// smaller size (cel-go's charge, the comparison itself stops at once); for
// two lists of one size, the work of each pair of elements; for two maps of
// one size, per key of a, its length (hashing it) plus the work of the two
// values. It walks the smaller value no further than the comparison can,
// and stops adding once the total reaches stop (the charge is then over any
// limit anyway).
func EqWork(a, b ref.Val, stop uint64) uint64 {
	if n, ok := strLen(a); ok {
		if m, ok := strLen(b); ok {
			return max(1, min(n, m))
		}
		return 1
	}
	switch x := a.(type) {
	case traits.Lister:
		y, ok := b.(traits.Lister)
		if !ok {
			return 1
		}
		n, w, same := sizes(x, y)
		if !same {
			return w
		}
		for i := types.Int(0); i < n && w < stop; i++ {
			w = cost.SafeAdd(w, EqWork(x.Get(i), y.Get(i), stop-w))
		}
		return max(1, w)
	case traits.Mapper:
		y, ok := b.(traits.Mapper)
		if !ok {
			return 1
		}
		if _, w, same := sizes(x, y); !same {
			return w
		}
		var w uint64
		for it := x.Iterator(); it.HasNext() == types.True && w < stop; {
			k := it.Next()
			kw, _ := strLen(k)
			w = cost.SafeAdd(w, 1+kw)
			vb, found := y.Find(k)
			if !found {
				continue
			}
			va, _ := x.Find(k)
			w = cost.SafeAdd(w, EqWork(va, vb, stop-min(w, stop)))
		}
		return max(1, w)
	}
	return 1
}

// sizes returns the size of two containers when they are equal (same is
// true), else the work of comparing them: 1 when a size is not an int, the
// smaller size when they differ.
func sizes(x, y traits.Sizer) (n types.Int, work uint64, same bool) {
	n, okn := x.Size().(types.Int)
	m, okm := y.Size().(types.Int)
	if !okn || !okm {
		return 0, 1, false
	}
	if n != m {
		return 0, max(1, uint64(min(n, m))), false
	}
	return n, 0, true
}

// EqWorkStop is where EqWork stops counting: far above any run cost limit
// once scaled (0.1 per unit), so that a charge computed with it exceeds the
// limit whenever the full charge would.
const EqWorkStop = 1 << 62
