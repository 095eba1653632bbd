package bulk_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/stdlib"
	"github.com/tenetlang/tenet/stdlib/bulk"
)

// comprehension is the CEL comprehension copiedFrom replaces, over the
// same variables.
const comprehension = `m.exists(k, type(m[k]) == string && size(m[k]) >= N && S.contains(m[k]) && !E.contains(m[k]))`

func env(t testing.TB) *cel.Env {
	t.Helper()
	e, err := cel.NewEnv(stdlib.Library(),
		cel.Variable("m", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("s", cel.StringType), cel.Variable("e", cel.StringType),
		cel.Variable("n", cel.IntType), cel.Variable("zero", cel.IntType))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// outcome evaluates expr and renders its value or its error's message.
func outcome(t testing.TB, e *cel.Env, expr string, vars map[string]any) string {
	t.Helper()
	ast, iss := e.Compile(expr)
	if iss.Err() != nil {
		t.Fatalf("%s: %v", expr, iss.Err())
	}
	prg, err := e.Program(ast, cel.CostTracking(stdlib.CallCosts()))
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := prg.Eval(vars)
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(v)
}

func TestCopiedFrom(t *testing.T) {
	e := env(t)
	for _, c := range []struct {
		m     map[string]any
		s, ex string
		n     int64
		want  string
	}{
		{map[string]any{"to": "mallory@evil.example"}, "send to mallory@evil.example", "", 8, "true"},
		{map[string]any{"to": "mallory@evil.example"}, "send to mallory@evil.example", "I said mallory@evil.example", 8, "false"},
		{map[string]any{"to": "mallory"}, "send to mallory", "", 8, "false"},  // 7 code points
		{map[string]any{"to": "mallory!"}, "send to mallory!", "", 8, "true"}, // 8
		{map[string]any{"to": "日本語日本語日"}, "x日本語日本語日x", "", 8, "false"},        // 7 code points, 21 bytes
		{map[string]any{"to": "日本語日本語日本"}, "x日本語日本語日本x", "", 8, "true"},       // 8
		{map[string]any{"n": int64(12345678), "l": []any{"copied text"}, "o": map[string]any{"a": "copied text"}}, "copied text 12345678", "", 1, "false"},
		{map[string]any{"a": "", "b": nil}, "", "", 0, "false"}, // "" occurs in except too
		{map[string]any{"a": ""}, "text", "x", 0, "false"},      // "" occurs in every text
		{map[string]any{"a": "abc"}, "xabcx", "", -5, "true"},
		{map[string]any{}, "", "", 0, "false"},
		{map[string]any{"a": "Mallory@Evil"}, "mallory@evil", "", 1, "false"}, // bytes, no folding
	} {
		vars := map[string]any{"m": c.m, "s": c.s, "e": c.ex, "n": c.n, "zero": int64(0)}
		got := outcome(t, e, "copiedFrom(m, s, e, n)", vars)
		if got != c.want {
			t.Errorf("copiedFrom(%v, %q, %q, %d) = %s, want %s", c.m, c.s, c.ex, c.n, got, c.want)
		}
		if ref := outcome(t, e, strings.NewReplacer("N", "n", "S", "s", "E", "e").Replace(comprehension), vars); ref != got {
			t.Errorf("copiedFrom(%v, %q, %q, %d) = %s, the comprehension %s", c.m, c.s, c.ex, c.n, got, ref)
		}
	}
}

// Errors in the arguments, as the comprehension has them: only where a
// value reaches the term that reads the argument.
func TestCopiedFromErrors(t *testing.T) {
	e := env(t)
	for _, c := range []struct {
		expr string
		m    map[string]any
		want string
	}{
		{"copiedFrom(m, s, unknown('no user text'), n)", map[string]any{"a": "copied!!"}, "error: no user text"},
		{"copiedFrom(m, s, unknown('no user text'), n)", map[string]any{"a": "not in s"}, "false"},
		{"copiedFrom(m, s, unknown('no user text'), n)", map[string]any{"a": "copied!!", "b": "copied!!x"}, "error: no user text"},
		{"copiedFrom(m, unknown('no result'), e, n)", map[string]any{"a": "short"}, "false"},
		{"copiedFrom(m, unknown('no result'), e, n)", map[string]any{"a": "long enough"}, "error: no result"},
		{"copiedFrom(m, unknown('no result'), unknown('no user text'), n)", map[string]any{"a": "long enough"}, "error: no result"},
		{"copiedFrom(m, s, e, 1 / zero)", map[string]any{"a": 1, "b": nil}, "false"},
		{"copiedFrom(m, s, e, 1 / zero)", map[string]any{"a": "x"}, "error: division by zero"},
		{"copiedFrom(m, s, e, 1 / zero)", map[string]any{"a": "not in s at all"}, "false"},
		{"copiedFrom(m, s, e, 1 / zero)", map[string]any{"a": "copied!!", "b": "not in s"}, "error: division by zero"},
		// A true value wins over another value's error.
		{"copiedFrom(m, s, m.b == 'x' ? e : unknown('bad'), n)", map[string]any{"a": "copied!!", "b": "y"}, "error: bad"},
		{"copiedFrom(m, s, e, 1 / zero)", map[string]any{"a": "copied!!", "b": 1}, "error: division by zero"},
		{"copiedFrom(dyn(m.a), s, e, n)", map[string]any{"a": "copied!!"}, "error: no such overload: copiedFrom(string, string, string, int)"},
		{"copiedFrom(m, s, dyn(1), n)", map[string]any{}, "error: no such overload: copiedFrom(map, string, int, int)"},
	} {
		vars := map[string]any{"m": c.m, "s": "it was copied!!x", "e": "", "n": int64(8), "zero": int64(0)}
		if got := outcome(t, e, c.expr, vars); got != c.want {
			t.Errorf("%s over %v = %s, want %s", c.expr, c.m, got, c.want)
		}
	}
}

// TestCopiedFromMatchesComprehension compares copiedFrom with the
// comprehension it replaces on random maps, texts and sizes, with each
// of source, except and n also given as an error.
func TestCopiedFromMatchesComprehension(t *testing.T) {
	e := env(t)
	r := rand.New(rand.NewPCG(17, 7))
	alphabet := []string{"a", "b", "c", " ", "é", "日", "@"}
	word := func(max int) string {
		var b strings.Builder
		for range r.IntN(max + 1) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	forms := []struct{ s, e, n string }{
		{"s", "e", "n"},
		{"unknown('src')", "e", "n"},
		{"s", "unknown('exc')", "n"},
		{"s", "e", "1 / zero"},
		{"unknown('src')", "unknown('exc')", "1 / zero"},
	}
	agree, trues, errs := 0, 0, 0
	for i := range 3000 {
		m := map[string]any{}
		var texts []string
		for j := range r.IntN(5) {
			k := fmt.Sprintf("k%d", j)
			switch r.IntN(6) {
			case 0:
				m[k] = int64(r.IntN(100))
			case 1:
				m[k] = nil
			case 2:
				m[k] = []any{word(6)}
			default:
				w := word(10)
				m[k] = w
				texts = append(texts, w)
			}
		}
		// text copies each string value with probability 1/odds.
		text := func(odds int) string {
			var b strings.Builder
			b.WriteString(word(3))
			for _, w := range texts {
				if r.IntN(odds) == 0 {
					b.WriteString(w)
					b.WriteString(word(2))
				}
			}
			return b.String()
		}
		vars := map[string]any{"m": m, "s": text(2), "e": text(5), "n": int64(r.IntN(8) - 1), "zero": int64(0)}
		if i%2 == 1 {
			// Not a map[string]any: copiedFrom's general path.
			g := map[any]any{}
			for k, v := range m {
				g[k] = v
			}
			vars["m"] = g
		}
		f := forms[i%len(forms)]
		got := outcome(t, e, fmt.Sprintf("copiedFrom(m, %s, %s, %s)", f.s, f.e, f.n), vars)
		want := outcome(t, e, strings.NewReplacer("N", f.n, "S", f.s, "E", f.e).Replace(comprehension), vars)
		if got != want {
			t.Fatalf("case %d: copiedFrom(%v, %s=%q, %s=%q, %s=%d) = %s, the comprehension %s", i, m, f.s, vars["s"], f.e, vars["e"], f.n, vars["n"], got, want)
		}
		agree++
		switch {
		case got == "true":
			trues++
		case strings.HasPrefix(got, "error"):
			errs++
		}
	}
	// The inputs exercise every outcome.
	if trues < 100 || errs < 100 || agree-trues-errs < 100 {
		t.Errorf("%d cases: %d true, %d errors: too few of one kind", agree, trues, errs)
	}
}

// The runtime charge, exactly: 1, plus per entry 1, plus per string value
// a scan of it and the charges of the two contains.
func TestCopiedFromCharge(t *testing.T) {
	track := bulk.Functions()[0].Charges[0].Track
	m := types.DefaultTypeAdapter.NativeToValue(map[string]any{"a": strings.Repeat("x", 100), "b": int64(1), "c": "short"})
	src := types.String(strings.Repeat("y", 1000))
	exc := types.String(strings.Repeat("z", 50))
	got := *track([]ref.Val{m, src, exc, types.Int(8)}, types.False)
	// 1 + (1 + 10 + 100*10 + 1) + 1 + (1 + 1 + 100*1 + 5*1)
	if want := uint64(1 + 1012 + 1 + 107); got != want {
		t.Errorf("charge %d, want %d", got, want)
	}
}

// sizes is a cost.Estimator giving variables' sizes by name, and a map
// variable's values' under "name.@values".
type sizes map[string]cost.SizeEstimate

func (h sizes) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if s, ok := h[strings.Join(n.Path(), ".")]; ok {
		return &s
	}
	return nil
}

func (sizes) EstimateCallCost(string, string, *cost.AstNode, []cost.AstNode) *cost.CallEstimate {
	return nil
}

// The static estimate: the variables' lookups, then 1 plus, per entry, 1
// plus a scan of the value plus a scan of each text times a scan of the
// value: with 4 entries of up to 20 code points, a source of 100 and an
// except of 50, 1 + 4 × (1 + 2 + 10×2 + 5×2) = 133, plus 4 lookups. The
// runtime charge of the largest such input is within it.
func TestCopiedFromEstimate(t *testing.T) {
	e := env(t)
	ast, iss := e.Compile("copiedFrom(m, s, e, n)")
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	est, err := e.EstimateCost(ast, sizes{
		"m": cost.FixedSizeEstimate(4), "m.@values": cost.FixedSizeEstimate(20),
		"s": cost.FixedSizeEstimate(100), "e": cost.FixedSizeEstimate(50),
	})
	if err != nil {
		t.Fatal(err)
	}
	if est.Max != 137 {
		t.Errorf("estimate %+v, want a maximum of 137", est)
	}
	m := map[string]any{}
	for _, k := range []string{"a", "b", "c", "d"} {
		m[k] = strings.Repeat("x", 20)
	}
	track := bulk.Functions()[0].Charges[0].Track
	charge := *track([]ref.Val{types.DefaultTypeAdapter.NativeToValue(m),
		types.String(strings.Repeat("x", 100)), types.String(strings.Repeat("y", 50)), types.Int(8)}, types.True)
	if charge != 133 {
		t.Errorf("charge %d, want 133 (the estimate less the lookups)", charge)
	}
}
