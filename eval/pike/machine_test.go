package pike

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// machinePatterns are patterns over steps a, b, c covering every operator
// (anchors, negation, repetition, alternation) and guards with and without
// references to earlier steps.
var machinePatterns = []struct {
	text, guarded string
	refs          map[byte][]int
}{
	{"a _* b", "", nil},
	{"a !c* b", "b", nil},
	{"^ !a* a", "", nil},
	{"a b $", "a", nil},
	{"a{2,3} c?", "a", nil},
	{"(a b | c)+ $", "c", nil},
	{"a _* b _* c", "bc", map[byte][]int{'b': {0}, 'c': {0, 1}}},
	{"a (b | c)* a", "a", map[byte][]int{'a': {0}}},
	{"^ a? $", "", nil},
}

// randomGuard is a guard that depends on the step, the item and the
// bindings it may read, and fails on some items: deterministic per seed.
func randomGuard(seed uint64) func(k, pos int, caps []int) (bool, error) {
	return func(k, pos int, caps []int) (bool, error) {
		h := seed ^ uint64(k*7919+pos*104729)
		for _, c := range caps {
			h = h*31 + uint64(c+2)
		}
		switch h % 7 {
		case 0:
			return false, fmt.Errorf("guard %d failed at %d", k, pos)
		case 1, 2:
			return false, nil
		}
		return true, nil
	}
}

// TestMachineEqualsRun: a Machine advanced over a random run in random
// chunks, cloned at random points (the clone and the original advancing
// on), and finished at every prefix gives exactly Run's result on that
// prefix — label, witness and the unknown's reason.
func TestMachineEqualsRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checks := 0
	for _, pat := range machinePatterns {
		pt := plan(t, pat.text, "abc", pat.guarded, pat.refs)
		for trial := 0; trial < 40; trial++ {
			n := rng.IntN(14)
			s := make([]byte, n)
			for i := range s {
				s[i] = "abcx"[rng.IntN(4)]
			}
			g := randomGuard(rng.Uint64())
			max := 100
			if trial%10 == 9 {
				max = 3 // the thread budget is part of the state too
			}
			want := make([]Result, n+1)
			for k := 0; k <= n; k++ {
				want[k] = Run(pt, k, &letters{s: string(s[:k]), steps: "abc", guard: g}, max)
			}
			h := &letters{s: string(s), steps: "abc", guard: g}
			m := NewMachine(pt, h, max)
			for at := 0; at < n; {
				at = min(n, at+rng.IntN(4))
				if rng.IntN(3) == 0 {
					// The clone advances to a random point and finishes there;
					// the original goes on as if it had not been cloned.
					c := m.Clone()
					to := min(n, at+rng.IntN(n+1))
					checkResult(t, pat.text, string(s[:to]), c.Finish(to), want[to])
					checks++
				}
				m.Advance(at)
				checkResult(t, pat.text, string(s[:at]), m.Finish(at), want[at])
				checks++
			}
			checkResult(t, pat.text, string(s), m.Finish(n), want[n])
		}
	}
	if checks < 1000 {
		t.Fatalf("only %d comparisons", checks)
	}
}

func checkResult(t *testing.T, pat, run string, got, want Result) {
	t.Helper()
	if got.Label != want.Label || !slices.Equal(got.Witness, want.Witness) {
		t.Errorf("%q on %q: machine %+v, Run %+v", pat, run, got, want)
	}
}

// TestMachineFixedResult: a match found in the advanced part is fixed (the
// first match wins, whatever follows), and so is a stop; before either,
// the end of the run decides ($), and finishing does not end the machine.
func TestMachineFixedResult(t *testing.T) {
	pt := plan(t, "a b", "ab", "", nil)
	m := NewMachine(pt, &letters{s: "abab", steps: "ab"}, 100)
	m.Advance(2)
	m.Advance(4)
	if got := m.Finish(4); !got.Label.Value || !slices.Equal(got.Witness, []int{0, 1}) {
		t.Errorf("%+v, want the first match [0 1]", got)
	}
	pt = plan(t, "a $", "a", "", nil)
	m = NewMachine(pt, &letters{s: "aax", steps: "a"}, 100)
	if got := m.Finish(1); !got.Label.Value {
		t.Errorf("a$ on a: %+v, want a match", got)
	}
	m.Advance(3) // the run grew: "a" was not its end
	if got := m.Finish(3); !got.Label.Known || got.Label.Value {
		t.Errorf("a$ on aax: %+v, want false", got)
	}
	pt = plan(t, "a b", "ab", "", nil)
	m = NewMachine(pt, &letters{s: "xab", steps: "ab", tick: errors.New("too late")}, 100)
	m.Advance(1)
	m.SetHost(&letters{s: "xab", steps: "ab"})
	if got := m.Finish(3); got.Label.Known {
		t.Errorf("after a stop: %+v, want the stop's unknown", got)
	}
}

// TestMachineEndWithin: a machine told where a match must end skips the
// matches ending elsewhere and finds the first one ending there, or none.
func TestMachineEndWithin(t *testing.T) {
	cases := []struct {
		pat, run    string
		first, last int
		want        []int // nil: no match
	}{
		{"a _* b", "abab", 0, 3, []int{0, 1}}, // the whole run: as Run
		{"a _* b", "abab", 3, 3, []int{0, 3}}, // a new match at the last item; the earliest start wins
		{"a b", "abab", 3, 3, []int{2, 3}},
		{"a b", "abab", 2, 2, nil},    // no match ends at the second a
		{"a _* b", "abxa", 2, 3, nil}, // the only match ends before
		{"a b $", "abab", 3, 3, []int{2, 3}},
		{"a b $", "abab", 1, 1, nil}, // $ holds at the run's end only
	}
	for _, c := range cases {
		pt := plan(t, c.pat, "ab", "", nil)
		m := NewMachine(pt, &letters{s: c.run, steps: "ab"}, 100)
		m.EndWithin(c.first, c.last)
		got := m.Clone().Finish(len(c.run)) // a clone keeps the window
		if c.want == nil {
			if !got.Label.Known || got.Label.Value {
				t.Errorf("%q on %q ending in %d..%d: %+v, want no match", c.pat, c.run, c.first, c.last, got)
			}
			continue
		}
		if !got.Label.Value || !slices.Equal(got.Witness, c.want) {
			t.Errorf("%q on %q ending in %d..%d: %+v, want %v", c.pat, c.run, c.first, c.last, got, c.want)
		}
	}
}
