package stdlib

import (
	"strings"
	"testing"
	"time"

	"cel.dev/cel-go/cel"
)

// Calls that build a value are charged by what they build (review 2,
// finding 2): at two sizes ten times apart, each expression costs exactly
// its fixed part plus per1000 per 1,000 bytes of s. Before, format, join,
// replace, quote, lowerAscii and l + l cost the same at both sizes.
func TestBuildChargesGrowWithOutput(t *testing.T) {
	env := costEnv(t)
	for _, c := range []struct {
		expr           string
		fixed, per1000 uint64
	}{
		// idents (2) + list literal (10) + format (1 + scan of '%s%s' (1) + 2n/10)
		{`'%s%s'.format([s, s])`, 14, 200},
		// ident (1) + literal (10) + join (1 + 2n/10)
		{`[s, s].join()`, 13, 200},
		// ident (1) + quote (1 + n/10 + n/10 + the two quotes' scan)
		{`strings.quote(s)`, 3, 200},
		// ident (1) + replace (1 + n/10 + 1 + 1 + 2n/10)
		{`s.replace('a', 'bb')`, 4, 300},
		// ident (1) + call (1 + n/10 + n/10)
		{`s.upperAscii()`, 2, 200},
		{`s.lowerAscii()`, 2, 200},
		{`s.reverse()`, 2, 200},
		// idents (2) + add (1 + n/10 + n/10 + 2n/10)
		{`s + s`, 3, 400},
		// ident (1) + split (1 + n/10 + 0 for '' + n parts)
		{`s.split('')`, 2, 1100},
		// ident (1) + encode (1 + n/10 + (n + 2)/10) + size (1 + (n + 2)/10) + > (1)
		{`json.encode(s).size() > 0`, 6, 300},
	} {
		cost := func(n int) uint64 {
			return actualCost(t, env, c.expr, map[string]any{"s": strings.Repeat("a", n)})
		}
		c1, c10 := cost(1000), cost(10000)
		if c1 != c.fixed+c.per1000 || c10 != c.fixed+10*c.per1000 {
			t.Errorf("%s: costs %d at 1,000 bytes and %d at 10,000, want %d and %d",
				c.expr, c1, c10, c.fixed+c.per1000, c.fixed+10*c.per1000)
		}
	}
}

// l + l is charged 1 plus the shorter operand's size, though cel-go builds
// it lazily: doubling a list n times costs its final size, where cel-go
// charged n; the accumulator of map (acc + [x] per step) stays linear.
func TestListConcatChargedBySize(t *testing.T) {
	env := costEnv(t)
	// 10 adds of 2^i + 1 (i = 0..9): 1023 + 10; the rest (range 1 + 10,
	// literal 10, the fold's idents and steps, size) is 43 whatever the
	// sizes.
	got := actualCost(t, env, `lists.range(10).fold(l, [1], i, l + l).size()`, nil)
	if want := uint64(1023 + 10 + 43); got != want {
		t.Errorf("doubling a list 10 times costs %d, want %d", got, want)
	}
	got20 := actualCost(t, env, `lists.range(20).fold(l, [1], i, l + l).size()`, nil)
	if want := uint64(1<<20 - 1 + 20 + 73); got20 != want {
		t.Errorf("doubling a list 20 times costs %d, want %d", got20, want)
	}
	// map over n elements costs 15 per element (range 1, the literal [i]
	// 10, the add 1 + 1, idents) plus 13: linear. Charged by the result's
	// size, the add would make it quadratic.
	m1 := actualCost(t, env, `lists.range(1000).map(i, i).size()`, nil)
	m10 := actualCost(t, env, `lists.range(10000).map(i, i).size()`, nil)
	if m1 != 15*1000+13 || m10 != 15*10000+13 {
		t.Errorf("map over 1,000 and 10,000 elements costs %d and %d, want %d and %d", m1, m10, 15*1000+13, 15*10000+13)
	}
}

// The reviewer's criterion (review2-c4) and variants: each doubling step is
// charged by what it builds, so the run stops at the cost limit after a few
// steps and a few MB, where it ran out of memory before.
func TestDoublingMeetsCostLimit(t *testing.T) {
	env := costEnv(t)
	for _, expr := range []string{
		`lists.range(40).fold(s, s, i, '%s%s'.format([s, s])).size() == 0`,
		`lists.range(40).fold(s, s, i, [s, s].join()).size() == 0`,
		`lists.range(40).fold(s, s, i, s + s).size() == 0`,
		`lists.range(40).fold(s, s, i, strings.quote(s)).size() == 0`,
		`lists.range(40).fold(s, s, i, s.replace('a', 'aa')).size() == 0`,
		`lists.range(60).fold(l, [s], i, l + l).join().size() == 0`,
	} {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", expr, iss.Err())
		}
		// A limit of 10^6 (a tenth of the default) stops each shape after
		// a few MB of strings, as 10^7 does after some tens of MB.
		prg, err := env.Program(ast, cel.CostLimit(1_000_000))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, _, err = prg.Eval(map[string]any{"s": strings.Repeat("a", 1000)})
		// The step that would pass 256 MiB can be refused first.
		if err == nil || !strings.Contains(err.Error(), "cost limit exceeded") && !strings.Contains(err.Error(), "the result could take over") {
			t.Errorf("%s: error %v, want the cost limit", expr, err)
		}
		// How long that takes is logged, never asserted (a loaded machine
		// is slower); the assertion is that the limit stops it at all.
		t.Logf("%s: %v in %v", expr, err, time.Since(start))
	}
}

// One step that would build over 256 MiB from inputs that hold far less is
// refused before it allocates: there is no cost limit here at all.
func TestBuildBoundRefusesOneStep(t *testing.T) {
	env := costEnv(t)
	for _, c := range []struct{ expr, err string }{
		{`lists.range(300000).map(i, s).join().size()`, "join: the result could take over 268435456 bytes"},
		{`'%s'.format([lists.range(300000).map(i, s)]).size()`, "format: the result could take over"},
		{`json.encode(lists.range(300000).map(i, s)).size()`, "json.encode: the result could take over"},
		{`(lists.range(20).map(i, s).join()).replace('', lists.range(20).map(i, s).join()).size()`, "replace: the result could take over"},
		{`lists.range(100000).map(i, [s, s, s]).flatten().size()`, ""},
		{`lists.range(1000).map(i, lists.range(10000)).map(l, [l, l, l, l]).flatten(2).size()`, "flatten: the result could take over"},
		{`lists.range(9000).map(i, s).join().split('').size()`, "split: the result could take over"},
		// a list of 2^24 elements built lazily by l + l (charged about its
		// size, but there is no cost limit here), then copied whole
		{`lists.range(24).fold(l, [1], i, l + l).reverse().size()`, "reverse: the result could take over"},
		{`lists.range(24).fold(l, [1], i, l + l).distinct().size()`, "distinct: the result could take over"},
		{`lists.range(20).fold(l, [1], i, l + l).reverse().size()`, ""},
	} {
		ast, iss := env.Compile(c.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", c.expr, iss.Err())
		}
		prg, err := env.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = prg.Eval(map[string]any{"s": strings.Repeat("a", 1000)})
		if c.err == "" {
			if err != nil {
				t.Errorf("%s: %v, want a result", c.expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.expr, err, c.err)
		}
	}
}

// Library's environment binds every guarded overload with its guard: each
// is declared, and a call over the bound is refused by name.
func TestGuardsInstalled(t *testing.T) {
	fns := newEnv(t).Functions()
	for name, ids := range guardedOverloads {
		f, ok := fns[name]
		if !ok {
			t.Errorf("%s is not declared", name)
			continue
		}
		for _, id := range ids {
			found := false
			for _, o := range f.OverloadDecls() {
				found = found || o.ID() == id
			}
			if !found {
				t.Errorf("%s has no overload %s", name, id)
			}
		}
	}
}
