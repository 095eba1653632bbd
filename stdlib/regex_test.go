package stdlib

import (
	"strings"
	"testing"

	"cel.dev/cel-go/cel"

	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// A match whose charge alone is over the run cost limit fails before it
// runs, naming the cause, for a literal and a computed pattern (issue 17:
// this one took 26 s on 1 MB and ended false). Here 100 kB: matching it
// would take seconds; refused, it takes nothing.
func TestRegexGuardRefusesBeforeMatching(t *testing.T) {
	env := newEnv(t, cel.Variable("s", cel.StringType), cel.Variable("p", cel.StringType))
	s := strings.Repeat(strings.Repeat("a", 999)+"b", 100)
	const pat = "(?:a?){1000}a{1000}"
	const want = "matches: a text of 100000 bytes against a regular expression of 3002 instructions costs 30020301, over the run cost limit 10000000"
	for _, expr := range []string{`s.matches('` + pat + `')`, `matches(s, '` + pat + `')`, `s.matches(p)`} {
		// The guard alone: its error.
		opts := append([]cel.ProgramOption{cel.EvalOptions(cel.OptOptimize)}, regexcost.Guards(10_000_000)...)
		_, err := run(env, expr, map[string]any{"s": s, "p": pat}, opts...)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", expr, err, want)
		}
		// With the tracker (as eval plans): the call is then charged its
		// cost and the evaluation cancelled at the limit.
		opts = append([]cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.CostLimit(10_000_000), cel.CostTracking(CallCosts())},
			regexcost.Guards(10_000_000)...)
		_, err = run(env, expr, map[string]any{"s": s, "p": pat}, opts...)
		if err == nil || err.Error() != "operation cancelled: actual cost limit exceeded" {
			t.Errorf("%s, tracked: got %v", expr, err)
		}
	}
}

// Under the limit, the guarded matches answers as cel-go's; the program
// size prices it (RegexWork).
func TestRegexGuardUnderLimit(t *testing.T) {
	env := newEnv(t, cel.Variable("s", cel.StringType), cel.Variable("p", cel.StringType))
	for _, c := range []struct {
		expr string
		want bool
	}{
		{`s.matches('^a+b$')`, true}, {`matches(s, 'c')`, false}, {`s.matches(p)`, true},
	} {
		opts := append([]cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.CostLimit(10_000_000), cel.CostTracking(CallCosts())},
			regexcost.Guards(10_000_000)...)
		got, err := run(env, c.expr, map[string]any{"s": "aaab", "p": "a{2}b"}, opts...)
		if err != nil || got.Value() != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.expr, got, err, c.want)
		}
	}
	if n, ok := regexcost.ProgSize("(?:a?){1000}a{1000}"); !ok || n != 3002 {
		t.Errorf("RegexProgSize: %d, %v; want 3002", n, ok)
	}
	if w := regexcost.Work(999, 5); w != 500 {
		t.Errorf("regexcost.Work(999, 5) = %d, want 500", w)
	}
}
