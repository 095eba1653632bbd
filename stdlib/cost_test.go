package stdlib

import (
	"math"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
)

// sizeHints is a cost.Estimator giving the size of variables by name, and of
// a map variable's values under "name.@values".
type sizeHints map[string]cost.SizeEstimate

func (h sizeHints) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if s, ok := h[strings.Join(n.Path(), ".")]; ok {
		return &s
	}
	return nil
}

func (sizeHints) EstimateCallCost(string, string, *cost.AstNode, []cost.AstNode) *cost.CallEstimate {
	return nil
}

func estimate(t *testing.T, env *cel.Env, expr string, hints sizeHints) cost.CostEstimate {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	est, err := env.EstimateCost(ast, hints)
	if err != nil {
		t.Fatalf("%s: EstimateCost: %v", expr, err)
	}
	return est
}

func actualCost(t *testing.T, env *cel.Env, expr string, vars map[string]any) uint64 {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	prg, err := env.Program(ast, cel.CostTracking(nil))
	if err != nil {
		t.Fatal(err)
	}
	_, det, err := prg.Eval(vars)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return *det.ActualCost()
}

func costEnv(t *testing.T, opts ...cel.EnvOption) *cel.Env {
	return newEnv(t, append([]cel.EnvOption{
		cel.Variable("s", cel.StringType),
		cel.Variable("t", cel.StringType),
		cel.Variable("v", cel.DynType),
		cel.Variable("m", cel.MapType(cel.StringType, cel.DynType)),
	}, opts...)...)
}

const unbounded = math.MaxUint64

// Exact static estimates: each tenet overload is priced by its model.
func TestCostEstimates(t *testing.T) {
	env := costEnv(t)
	s100 := sizeHints{"s": cost.FixedSizeEstimate(100), "t": cost.FixedSizeEstimate(3)}
	s1000 := sizeHints{"s": cost.FixedSizeEstimate(1000)}
	mHints := sizeHints{"m": cost.FixedSizeEstimate(4), "m.@values": cost.FixedSizeEstimate(20)}
	for _, c := range []struct {
		expr     string
		hints    sizeHints
		min, max uint64
	}{
		// num, approx, parseTime: constant whatever the input
		{`num(s)`, s100, 12, 12},                    // s + 1 + ceil(0.1 * 100)
		{`num(s)`, s1000, 28, 28},                   // s + 1 + ceil(0.1 * 256)
		{`num(v)`, nil, 2, 28},                      // unknown size: still bounded
		{`num(1.5)`, nil, 2, 2},                     // 1 + ceil(0.1 * 1)
		{`approx(v, 1.0, 0.1)`, nil, 4, 30},         // v + 1 + 3 scans, one of at most 256 characters
		{`approx(v, v, v)`, nil, 4, 82},             // 3 v + 1 + 3 scans of at most 256 characters
		{`parseTime(s)`, s100, 9, 9},                // s + 1 + ceil(0.1 * 64)
		{`parseTime(v)`, nil, 2, 9},                 // bounded without hints
		{`truthy(v)`, nil, 2, 2},                    // v + 1
		{`arg(m, 'k', '')`, nil, 2, 2},              // m + 1
		{`arg(m, 'k', '').size()`, mHints, 3, 3},    // the result's size comes from the map's values
		{`eqFold(s, 'abc')`, nil, 2, 3},             // bounded by the literal
		{`eqFold(s, t)`, s100, 4, 4},                // s + t + 1 + ceil(0.1 * 3)
		{`eqFold(s, v)`, nil, 3, unbounded},         // both sizes unknown
		{`containsFold(s, t)`, s100, 17, 17},        // 2 + 1 + ceil(0.1 * 103) + ceil(0.1 * 100 * 0.1 * 3)
		{`containsFold(s, 'x')`, nil, 3, unbounded}, // like contains, unbounded without a size for s
		{`parseJSON(s)`, s100, 102, 102},            // s + 1 + 100
		{`parseJSON(s)`, nil, 2, unbounded},
		{`parseYAML(s)`, s100, 1002, 1002}, // s + 1 + 10 * 100
		// the parsed value is bounded by the text's size, two levels deep
		{`parseJSON(s).size()`, s100, 103, 103},
		{`parseJSON(s).exists(k, k == 'a')`, s100, 103, 703},
		{`parseJSON(s)['items'].exists(i, i == 'a')`, s100, 105, 705},
		{`parseJSON(s)['items'].exists(i, i['id'] == 'a')`, s100, 105, 805},
		{`parseYAML(s)['items'].exists(i, i == 'a')`, s100, 1005, 2217},
		// unknown: 1, and its result (an error) has size 0, so a conditional
		// with it in one branch is as large as the other branch
		{`unknown('r')`, nil, 1, 1},
		{`unknown(s)`, s100, 2, 2},
		{`(s == '' ? unknown('r') : parseJSON(s)).exists(k, k == 'a')`, s100, 4, 705},
	} {
		est := estimate(t, env, c.expr, c.hints)
		if est.Min != c.min || est.Max != c.max {
			t.Errorf("%s with %v: estimate [%d, %d], want [%d, %d]", c.expr, c.hints, est.Min, est.Max, c.min, c.max)
		}
	}
}

// The same figures hold under the aggregate sizing strategy where they do not
// depend on nested sizes, and parse results stay bounded.
func TestCostEstimatesAggregate(t *testing.T) {
	env := costEnv(t, cel.CostSizingStrategy(cost.AggregateSizingStrategy()))
	s100 := sizeHints{"s": cost.FixedSizeEstimate(100)}
	for _, c := range []struct {
		expr     string
		min, max uint64
	}{
		{`num(s)`, 5, 12},
		{`parseTime(s)`, 5, 9},
		{`parseJSON(s)`, 27, 102},
		{`parseJSON(s)['items'].exists(i, i['id'] == 'a')`, 30, 805},
	} {
		est := estimate(t, env, c.expr, s100)
		if est.Min != c.min || est.Max != c.max {
			t.Errorf("%s: estimate [%d, %d], want [%d, %d]", c.expr, est.Min, est.Max, c.min, c.max)
		}
	}
}

// Runtime cost tracking charges the models, and never more than the estimate
// for an input of the estimated size.
func TestCostTracking(t *testing.T) {
	env := costEnv(t)
	doc := `{"items": [` + strings.Repeat(`{"id": "abc", "n": 1}, `, 50) + `{"id": "a"}]}`
	yamlDoc := "items:\n" + strings.Repeat("  - {id: abc, n: 1}\n", 50)
	long := strings.Repeat("Lorem ipsum dolor sit amet. ", 40)
	for _, c := range []struct {
		expr string
		vars map[string]any
		want uint64 // exact actual cost, 0 to skip
	}{
		{`parseJSON(s)`, map[string]any{"s": doc}, 1 + 1 + uint64(len(doc))},
		{`parseYAML(s)`, map[string]any{"s": yamlDoc}, 1 + 1 + 10*uint64(len(yamlDoc))},
		{`parseJSON(s)['items'].exists(i, i['id'] == 'a')`, map[string]any{"s": doc}, 0},
		{`num(s)`, map[string]any{"s": " 98.70 "}, 1 + 1 + 1},
		{`num(s)`, map[string]any{"s": "1" + strings.Repeat(" ", 250)}, 1 + 1 + 26},
		{`parseTime(s)`, map[string]any{"s": "2024-05-01 09:30"}, 1 + 1 + 2},
		{`containsFold(s, t)`, map[string]any{"s": long, "t": "AMET"}, 0},
		{`eqFold(s, t)`, map[string]any{"s": long, "t": long}, 0},
		{`approx(s, 1.0, 0.5)`, map[string]any{"s": "1.2"}, 0},
		{`truthy(s)`, map[string]any{"s": ""}, 2},
	} {
		got := actualCost(t, env, c.expr, c.vars)
		if c.want != 0 && got != c.want {
			t.Errorf("%s: actual cost %d, want %d", c.expr, got, c.want)
		}
		hints := sizeHints{}
		for k, v := range c.vars {
			hints[k] = cost.FixedSizeEstimate(uint64(len([]rune(v.(string)))))
		}
		if est := estimate(t, env, c.expr, hints); got < est.Min || got > est.Max {
			t.Errorf("%s: actual cost %d outside the estimate [%d, %d]", c.expr, got, est.Min, est.Max)
		}
	}
}

// A cost limit stops an evaluation that parses too much.
func TestCostLimit(t *testing.T) {
	env := costEnv(t)
	ast, iss := env.Compile(`parseYAML(s).size() > 0`)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast, cel.CostLimit(1000))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = prg.Eval(map[string]any{"s": strings.Repeat("- a\n", 100)})
	if err == nil || err.Error() != "operation cancelled: actual cost limit exceeded" {
		t.Fatalf("Eval = %v, want the cost limit error", err)
	}
}

// Library pins the cost model revision: its estimates are those of revision 1
// (indexing a computed list costs 1 more than under revision 0).
func TestCostModelVersionPinned(t *testing.T) {
	const expr = `[1, 2][0] == 1`
	lib := estimate(t, newEnv(t), expr, nil)
	v1 := estimate(t, newEnv(t, cel.CostModelVersion(1)), expr, nil)
	v0 := estimate(t, newEnv(t, cel.CostModelVersion(0)), expr, nil)
	if lib != v1 {
		t.Errorf("Library estimate %+v, revision 1 estimate %+v", lib, v1)
	}
	if v0 == v1 {
		t.Errorf("revisions 0 and 1 agree on %s (%+v): pick an expression that tells them apart", expr, v0)
	}
}
