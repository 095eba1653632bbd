package stdlib

import (
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
)

// The runtime charges grow with what each call reads (issue 13): each
// expression is charged exactly its fixed part plus the scan of its input,
// at two sizes ten times apart. Under cel-go's own charges the first ten
// rows cost the same at both sizes.
func TestRuntimeChargesGrowWithInput(t *testing.T) {
	env := costEnv(t)
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		expr string
		vars func(n int) map[string]any
		// fixed is the cost of everything but the scan; per1000 what
		// 1,000 bytes of input add.
		fixed, per1000 uint64
	}{
		// ident s (1) + call (1 + n/10)
		{`size(s)`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 2, 100},
		{`s.size()`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 2, 100},
		// two idents, two list literals (10 each), == (n/10 for the pair of strings of n bytes)
		{`[s] == [t]`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 22, 100},
		// two idents, two map literals (30 each), == (per key: 1, its byte, then the values: (n + 2)/10)
		{`{'k': s} == {'k': t}`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 63, 100},
		// two idents, one list literal (10), in (1 element + n/10)
		{`s in [t]`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 13, 100},
		// two idents, one map literal (30), in (1 + n/10)
		{`s in {t: 1}`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n) + "b"} }, 33, 100},
		// ident s, the conversion (1 + n/10), which fails: > is not evaluated
		{`int(s) > 0`, func(n int) map[string]any { return map[string]any{"s": "1" + a(n-1)} }, 2, 100},
		{`double(s) > 0.0`, func(n int) map[string]any { return map[string]any{"s": "1" + a(n-1)} }, 2, 100},
		// an empty needle: cel-go charges 1 whatever the size of s
		// ident s + n/10
		{`s.contains('')`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 1, 100},
		// a needle longer than the text: the search ends at once
		{`'x'.contains(s)`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 2, 0},
		// ident s + (n + 1) × 3 instructions / 10 (the empty pattern's
		// program: fail, empty width, match)
		{`s.matches('')`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 2, 300},
		{`s.indexOf('') == 0`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 3, 100},
		// the shorter string is read: 'x' == s costs 1 whatever s
		{`s == 'x'`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 2, 0},
		{`s < t`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 2, 100},
		{`eqFold(s, t)`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 3, 100},
		{`arg(m, s, 0) == 0`, func(n int) map[string]any { return map[string]any{"m": map[string]any{}, "s": a(n)} }, 4, 100},
		// two idents, two list literals (10 each), the call: 1 + 1 pair × (1 + n/10)
		{`sets.contains([s], [t])`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 24, 100},
		{`[s].hasAny([t])`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 24, 100},
		// two idents, a list literal (10), the call: 1 + 2.1 × 2² pairs (9) + the one pair compared (n/10)
		{`[s, t].distinct()`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 22, 100},
		{`[s, t].sort()`, func(n int) map[string]any { return map[string]any{"s": a(n), "t": a(n)} }, 22, 100},
		// num and parseTime refuse a long text after reading its length:
		// constant (1 + 256/10 and 1 + 64/10)
		{`num(s)`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 28, 0},
		{`parseTime(s)`, func(n int) map[string]any { return map[string]any{"s": a(n)} }, 9, 0},
	} {
		for _, n := range []int{1000, 10000} {
			got := actualCostAllowErr(t, env, c.expr, c.vars(n))
			want := c.fixed + c.per1000*uint64(n/1000)
			if got != want {
				t.Errorf("%s with inputs of %d bytes: charged %d, want %d", c.expr, n, got, want)
			}
		}
	}
}

// actualCostAllowErr is actualCost for an expression that may fail (num of
// a long text): the cost is charged either way.
func actualCostAllowErr(t *testing.T, env *cel.Env, expr string, vars map[string]any) uint64 {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	prg, err := env.Program(ast, cel.CostTracking(CallCosts()))
	if err != nil {
		t.Fatal(err)
	}
	_, det, _ := prg.Eval(vars)
	return *det.ActualCost()
}

// Calls on dyn values are dispatched at runtime, without an overload id:
// CallCosts charges them as their overloads are charged. Under cel-go's
// own tracker each of these costs the same at both sizes.
func TestCallCostsGrowWithInput(t *testing.T) {
	env := costEnv(t)
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		expr           string
		vars           func(n int) map[string]any
		fixed, per1000 uint64
	}{
		// ident v (1) + size (1 + n/10)
		{`size(v)`, func(n int) map[string]any { return map[string]any{"v": a(n)} }, 2, 100},
		// ident m, ['k'] (1), size
		{`size(m['k'])`, func(n int) map[string]any { return map[string]any{"m": map[string]any{"k": a(n)}} }, 3, 100},
		// v, s (1 each), in (1 + n/10)
		{`v in m`, func(n int) map[string]any { return map[string]any{"v": a(n), "m": map[string]any{}} }, 3, 100},
		// v, list literal (10), in (1 element + n/10)
		{`v in [s]`, func(n int) map[string]any { return map[string]any{"v": a(n), "s": a(n)} }, 13, 100},
		{`int(v) > 0`, func(n int) map[string]any { return map[string]any{"v": a(n)} }, 2, 100},
		// v, s, < (n/10)
		{`v < s`, func(n int) map[string]any { return map[string]any{"v": a(n), "s": a(n)} }, 2, 100},
		// v twice, + (1 + n/10 + n/10 + 2n/10, as add_string), size of the sum (1 + 2n/10), > (1)
		{`size(v + v) > 0`, func(n int) map[string]any { return map[string]any{"v": a(n)} }, 5, 600},
		// ident v, contains (n/10 × 1)
		{`v.contains('')`, func(n int) map[string]any { return map[string]any{"v": a(n)} }, 1, 100},
		// v, s, startsWith (n/10)
		{`v.startsWith(s)`, func(n int) map[string]any { return map[string]any{"v": a(n), "s": a(n)} }, 2, 100},
	} {
		ast, iss := env.Compile(c.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", c.expr, iss.Err())
		}
		prg, err := env.Program(ast, cel.CostTracking(CallCosts()))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1000, 10000} {
			_, det, _ := prg.Eval(c.vars(n))
			got := *det.ActualCost()
			want := c.fixed + c.per1000*uint64(n/1000)
			if got != want {
				t.Errorf("%s with inputs of %d bytes: charged %d, want %d", c.expr, n, got, want)
			}
		}
	}
}
