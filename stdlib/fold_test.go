package stdlib

import (
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
)

func TestFold(t *testing.T) {
	updates := []any{
		map[string]any{"id": "a", "v": 1},
		map[string]any{"id": "b", "v": 2},
		map[string]any{"id": "a", "v": 3},
	}
	checkAll(t, []expect{
		{expr: `[1, 2, 3].fold(s, 0, x, s + x)`, result: `6`},
		{expr: `[1, 2, 3].fold(s, 0, x, s + x) == 6`, result: `true`},
		{expr: `[].fold(s, 10, x, s + x)`, result: `10`},
		{expr: `[1.5, 2.5].fold(s, 0.0, x, s + x)`, result: `4.0`},
		{expr: `["a", "b", "c"].fold(s, "", x, x + s)`, result: `"cba"`},
		{expr: `["a", "b", "c"].fold(s, "", x, s + x)`, result: `"abc"`},
		{expr: `[1, 2, 3].fold(l, [], x, [x] + l)`, result: `[3, 2, 1]`},
		{expr: `[3, 1, 2].fold(m, {"max": 0, "n": 0}, x, {"max": x > m.max ? x : m.max, "n": m.n + 1})`, result: `{"max": 3, "n": 3}`},
		{expr: `{"b": 1, "a": 2}.fold(s, [], k, s + [k]).sort()`, result: `["a", "b"]`},
		{expr: `[[1, 2], [3]].fold(s, 0, l, s + l.fold(t, 0, x, t + x))`, result: `6`},
		{expr: `[1, 2].fold(s, 0, x, s + [10, 20].fold(t, 0, y, t + x * y))`, result: `90`},
		{expr: `[1, 2, 3].fold(s, 0, x, s + x) + [4].fold(s, 0, x, s + x)`, result: `10`},
		// acc and x are not visible outside STEP
		{expr: `[1].fold(s, 0, x, s + x) + s`, err: `undeclared reference to 's'`},
		// INIT is evaluated outside the fold's scope: a variable named like acc is the outer one
		{expr: `[1, 2].fold(v, v, x, v + x)`, vars: map[string]any{"v": 10}, result: `13`},
		// replay a list of updates into a list of records (last write wins)
		{expr: `v.fold(recs, [], u, recs.filter(r, r.id != u.id) + [u])`, vars: map[string]any{"v": updates}, result: `[{"id": "b", "v": 2}, {"id": "a", "v": 3}]`},
		{expr: `v.fold(recs, {}, u, recs.transformMap(k, w, k != u.id, w) .transformMap(k, w, w))`, vars: map[string]any{"v": updates}, result: `{}`},
		{expr: `v.fold(idx, {"count": 0, "ids": []}, u, {"count": idx.count + 1, "ids": idx.ids + [u.id]})`, vars: map[string]any{"v": updates}, result: `{"count": 3, "ids": ["a", "b", "a"]}`},
		{expr: `v.fold(acc, {}, u, cel.bind(m, {u.id: u.v}, acc.transformMapEntry(k, w, k in m ? {} : {k: w}) ))`, vars: map[string]any{"v": updates}, result: `{}`},
		{expr: `v.fold(s, 0, u, s + u.v)`, vars: map[string]any{"v": updates}, result: `6`},
		// errors
		{expr: `[1, 2].fold(s.t, 0, x, s + x)`, err: `fold: the accumulator (argument 1) must be a simple name`},
		{expr: `[1, 2].fold("s", 0, x, 1)`, err: `fold: the accumulator (argument 1) must be a simple name`},
		{expr: `[1, 2].fold(s, 0, x + 1, s)`, err: `fold: the element variable (argument 3) must be a simple name`},
		{expr: `[1, 2].fold(.s, 0, x, 1)`, err: `fold: the accumulator (argument 1) must be a simple name`},
		{expr: `[1, 2].fold(s, 0, s, s + 1)`, err: `fold: the accumulator and the element variable must differ, both are s`},
		{expr: `[1, 2].fold(__result__, 0, x, 1)`, err: `fold: __result__ is reserved for macro accumulators`},
		{expr: `[1, 2].fold(s, 0, __result__, 1)`, err: `fold: __result__ is reserved for macro accumulators`},
		{expr: `[1, 2].fold(s, 0, x, 0.5)`, err: `expected type 'int' but found 'double'`},
		{expr: `[1, 2].fold(s, 0, x, s + 0.5)`, err: `found no matching overload for '_+_' applied to '(int, double)'`},
		{expr: `[1, 2].fold(s, [], x, x)`, err: `expected type 'list(_var0)' but found 'int'`},
		{expr: `1.fold(s, 0, x, s)`, err: `expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)`},
		{expr: `[1, 2].fold(s, 0, x)`, err: `undeclared reference to 'fold'`},
	})
}

// The macro's errors point at the offending argument.
func TestFoldErrorLocation(t *testing.T) {
	env := newEnv(t)
	for expr, loc := range map[string]string{
		`[1, 2].fold(s.t, 0, x, s + x)`: "<input>:1:14:",
		`[1, 2].fold(s, 0, x + 1, s)`:   "<input>:1:21:",
		`[1, 2].fold(s, 0, s, s + 1)`:   "<input>:1:19:",
	} {
		_, iss := env.Compile(expr)
		if iss.Err() == nil || !strings.Contains(iss.Err().Error(), loc) {
			t.Errorf("%s: error %v, want location %s", expr, iss.Err(), loc)
		}
	}
}

// fold with list and map literal INIT values type-checks to the type of INIT
// (with its type parameters resolved by STEP) and the cost estimator handles
// it: with sized inputs the estimate is bounded.
func TestFoldTypesAndCost(t *testing.T) {
	recordType := cel.MapType(cel.StringType, cel.DynType)
	env := newEnv(t,
		cel.Variable("nums", cel.ListType(cel.IntType)),
		cel.Variable("updates", cel.ListType(recordType)),
		cel.Variable("records", cel.ListType(recordType)))
	sizes := sizeHints{"nums": cost.FixedSizeEstimate(10), "updates": cost.FixedSizeEstimate(10), "records": cost.FixedSizeEstimate(10)}
	for _, c := range []struct{ expr, typ string }{
		{`nums.fold(s, 0, x, s + x)`, "int"},
		{`nums.fold(l, [], x, l + [x])`, "list(int)"},
		{`nums.fold(l, [], x, l + [x]).exists(y, y == 1)`, "bool"},
		{`nums.fold(m, {}, x, {string(x): x})`, "map(string, int)"},
		{`nums.fold(m, {"max": 0, "n": 0}, x, {"max": x > m.max ? x : m.max, "n": m.n + 1})`, "map(string, int)"},
		// r.id on the element of an empty list literal makes the element dyn
		{`updates.fold(recs, [], u, recs.filter(r, r.id != u.id) + [u])`, "list(dyn)"},
		{`updates.fold(recs, records, u, recs.map(r, r.id == u.id ? u : r))`, "list(map(string, dyn))"},
		{`updates.fold(recs, [], u, recs + [{"id": u.id, "seen": true}])`, "list(map(string, dyn))"},
		{`updates.fold(idx, {}, u, idx.transformMap(k, v, v))`, "map(dyn, dyn)"},
		{`updates.fold(acc, {"count": 0, "ids": []}, u, {"count": acc.count + 1, "ids": acc.ids + [u.id]})`, "map(string, dyn)"},
	} {
		ast, iss := env.Compile(c.expr)
		if iss.Err() != nil {
			t.Errorf("%s: %v", c.expr, iss.Err())
			continue
		}
		if got := cel.FormatCELType(ast.OutputType()); got != c.typ {
			t.Errorf("%s: type %s, want %s", c.expr, got, c.typ)
		}
		est, err := env.EstimateCost(ast, sizes)
		if err != nil {
			t.Errorf("%s: EstimateCost: %v", c.expr, err)
			continue
		}
		if est.Max == ^uint64(0) && !strings.Contains(c.expr, "r.id == u.id") {
			t.Errorf("%s: unbounded estimate [%d, %d]", c.expr, est.Min, est.Max)
		}
		// without size hints the estimator does not fail either
		if _, err := env.EstimateCost(ast, sizeHints{}); err != nil {
			t.Errorf("%s: EstimateCost without hints: %v", c.expr, err)
		}
		// and the aggregate sizing strategy handles it too
		agg := newEnv(t, cel.CostSizingStrategy(cost.AggregateSizingStrategy()),
			cel.Variable("nums", cel.ListType(cel.IntType)),
			cel.Variable("updates", cel.ListType(recordType)),
			cel.Variable("records", cel.ListType(recordType)))
		aggAst, iss := agg.Compile(c.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", c.expr, iss.Err())
		}
		if _, err := agg.EstimateCost(aggAst, sizes); err != nil {
			t.Errorf("%s: EstimateCost (aggregate): %v", c.expr, err)
		}
	}
}

// The fold over integers is priced like the comprehension it expands to.
func TestFoldCostMatchesComprehension(t *testing.T) {
	env := newEnv(t, cel.Variable("nums", cel.ListType(cel.IntType)))
	sizes := sizeHints{"nums": cost.FixedSizeEstimate(10)}
	fold := estimate(t, env, `nums.fold(s, 0, x, s + x)`, sizes)
	// map over the same list does the same amount of work per element plus a
	// list allocation per element; sum is not expressible otherwise, so check
	// the exact figures instead: 1 (nums) + 10 * (1 (s) + 1 (x) + 1 (+)) + 1 (result s).
	if fold.Min != 32 || fold.Max != 32 {
		t.Errorf("fold estimate = [%d, %d], want [32, 32]", fold.Min, fold.Max)
	}
	actual := actualCost(t, env, `nums.fold(s, 0, x, s + x)`, map[string]any{"nums": []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}})
	if actual > fold.Max {
		t.Errorf("actual cost %d exceeds the estimate %d", actual, fold.Max)
	}
}
