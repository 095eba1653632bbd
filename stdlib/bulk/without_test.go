package bulk_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/stdlib"
	"github.com/tenetlang/tenet/stdlib/bulk"
)

func listEnv(t testing.TB) *cel.Env {
	t.Helper()
	e, err := cel.NewEnv(stdlib.Library(),
		cel.Variable("a", cel.ListType(cel.DynType)), cel.Variable("b", cel.ListType(cel.DynType)),
		cel.Variable("d", cel.DynType))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestWithout(t *testing.T) {
	e := listEnv(t)
	for _, c := range []struct{ expr, want string }{
		{`[1, 2, 3, 2, 1].without([2])`, "[1, 3, 1]"},
		{`[].without([1])`, "[]"},
		{`[1, 2].without(dyn([2.0]))`, "[1]"},
		{`[1, 2].without(dyn([2u]))`, "[1]"},
		// 1, 1u and 1.0 are equal whichever side holds which, as x in b.
		{`dyn([1, 1.0, 1u, 2]).without(dyn([1.0]))`, "[2]"},
		{`dyn([1, 1.0, 1u, 2]).without(dyn([1u]))`, "[2]"},
		{`dyn([1, 1.0, 1u, 2]).without([1])`, "[2]"},
		{`dyn([1.5, 2.0]).without([2])`, "[1.5]"},
		{`[{'a': 1}, {'a': 2}].without([{'a': 2}])`, "[{a: 1}]"},
		{`['x', 1, null].without(dyn([null, 'x']))`, "[1]"},
		{`[1].without(d)`, "error: no such overload: without(list, string)"},
		{`[1, 1 / 0].without([1])`, "error: division by zero"},
	} {
		if got := outcome(t, e, c.expr, map[string]any{"d": "x"}); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

// TestWithoutMatchesFilter compares a.without(b) with the comprehension
// it replaces on random lists of mixed values.
func TestWithoutMatchesFilter(t *testing.T) {
	e := listEnv(t)
	r := rand.New(rand.NewPCG(17, 9))
	value := func() any {
		switch r.IntN(7) {
		case 0:
			return int64(r.IntN(4))
		case 1:
			return uint64(r.IntN(4))
		case 2:
			return float64(r.IntN(4))
		case 3:
			return nil
		case 4:
			return []any{int64(r.IntN(2))}
		case 5:
			return map[string]any{"k": int64(r.IntN(2))}
		}
		return fmt.Sprint(r.IntN(4))
	}
	list := func(n int) []any {
		l := []any{}
		for range r.IntN(n) {
			l = append(l, value())
		}
		return l
	}
	for i := range 2000 {
		vars := map[string]any{"a": list(8), "b": list(5)}
		got := outcome(t, e, "a.without(b)", vars)
		want := outcome(t, e, "a.filter(x, !(x in b))", vars)
		if got != want {
			t.Fatalf("case %d: a=%v b=%v: without %s, filter %s", i, vars["a"], vars["b"], got, want)
		}
		if eq := outcome(t, e, "a.without(b) == a.filter(x, !(x in b))", vars); eq != "true" {
			t.Fatalf("case %d: a=%v b=%v: ==: %s", i, vars["a"], vars["b"], eq)
		}
	}
}

// The runtime charge, exactly: 1, plus per pair 1 and a scan of its
// comparison work, plus one per element kept.
func TestWithoutCharge(t *testing.T) {
	track := bulk.Functions()[2].Charges[0].Track
	a := types.DefaultTypeAdapter.NativeToValue([]any{"aaaaaaaaaaaaaaaaaaaa", int64(1), "b"})
	b := types.DefaultTypeAdapter.NativeToValue([]any{"aaaaaaaaaaaaaaaaaaaa", "c"})
	result := types.DefaultTypeAdapter.NativeToValue([]any{int64(1), "b"})
	// pairs: 3 × 2 = 6; work: 20 + 1 + 1 + 1 + 1 + 1 = 25, a scan of 3;
	// 2 kept: 1 + 6 + 3 + 2
	if got := *track([]ref.Val{a, b}, result); got != 12 {
		t.Errorf("charge %d, want 12", got)
	}
}
