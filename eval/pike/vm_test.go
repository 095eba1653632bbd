package pike

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/patterncode"
	"github.com/tenetlang/tenet/eval/runs"
)

// letters is a Host over a run written as a string: item i is the letter
// s[i], and step k selects the items equal to its name. guard, when set,
// is every guarded step's guard; tick and charge fail when set.
type letters struct {
	s, steps string
	guard    func(k, pos int, caps []int) (bool, error)
	guards   int // guard evaluations
	tick     error
	charged  int
	limit    int // charge fails past it (0: no limit)
}

func (l *letters) Selects(k, pos int) bool { return l.s[pos] == l.steps[k] }
func (l *letters) Guard(k, pos int, caps []int) (bool, error) {
	l.guards++
	return l.guard(k, pos, caps)
}
func (l *letters) Tick() error { return l.tick }
func (l *letters) Charge(n int) error {
	l.charged += n
	if l.limit > 0 && l.charged > l.limit {
		return errors.New("over budget")
	}
	return nil
}

// plan compiles pattern text over one-letter steps; guarded names the
// steps that have a guard, refs the earlier steps each guard reads.
func plan(t *testing.T, text, steps, guarded string, refs map[byte][]int) *bundle.PatternPlan {
	t.Helper()
	names := strings.Split(steps, "")
	prog, err := patterncode.PatternProgram(text, names)
	if err != nil {
		t.Fatal(err)
	}
	pt := &bundle.PatternPlan{Owner: "invariant i (forbid)", Text: text, Program: prog}
	keyed := map[int]bool{}
	for k, n := range names {
		st := bundle.StepPlan{Name: n, Call: n, When: bundle.NoExpr, Refs: refs[n[0]]}
		if strings.Contains(guarded, n) {
			st.When = k // any index: the host evaluates it
		}
		for _, r := range st.Refs {
			keyed[r] = true
		}
		pt.Steps = append(pt.Steps, st)
	}
	for k := range keyed {
		pt.Keyed = append(pt.Keyed, k)
	}
	slices.Sort(pt.Keyed)
	return pt
}

// TestRunUnanchoredFirstMatch: the search starts at every item, the
// earliest match wins, and the witness binds each step to its item.
func TestRunUnanchoredFirstMatch(t *testing.T) {
	pt := plan(t, "a _* b", "ab", "", nil)
	for _, tc := range []struct {
		run     string
		want    runs.Label
		witness []int
	}{
		{"xaxxbab", runs.True(), []int{1, 4}},
		{"bxa", runs.False(), nil},
		{"", runs.False(), nil},
	} {
		h := &letters{s: tc.run, steps: "ab"}
		got := Run(pt, len(tc.run), h, 100)
		if got.Label != tc.want || !slices.Equal(got.Witness, tc.witness) {
			t.Errorf("%q: %+v, want %v with witness %v", tc.run, got, tc.want, tc.witness)
		}
	}
}

// TestRunGuardErrorIsUnknown: a guard that fails makes its step's test
// fail; with no match the result is unknown with the first error's text,
// never false; a match found elsewhere still wins.
func TestRunGuardErrorIsUnknown(t *testing.T) {
	pt := plan(t, "a b", "ab", "b", nil)
	fail := func(k, pos int, caps []int) (bool, error) {
		if pos == 1 {
			return false, errors.New("guard failed at 1")
		}
		return true, nil
	}
	h := &letters{s: "abx", steps: "ab", guard: fail}
	if got := Run(pt, 3, h, 100); got.Label != runs.Unknown("guard failed at 1") {
		t.Errorf("abx: %+v, want unknown with the guard's error", got)
	}
	h = &letters{s: "abab", steps: "ab", guard: fail}
	if got := Run(pt, 4, h, 100); got.Label != runs.True() || !slices.Equal(got.Witness, []int{2, 3}) {
		t.Errorf("abab: %+v, want true at [2 3]", got)
	}
}

// TestRunGuardMemo: a guard that refers to no earlier step is evaluated
// once per item, however many threads test it (here the threads of both
// alternatives test b at item 1).
func TestRunGuardMemo(t *testing.T) {
	pt := plan(t, "a b | _ b", "ab", "b", nil)
	h := &letters{s: "ab", steps: "ab", guard: func(int, int, []int) (bool, error) { return false, nil }}
	if got := Run(pt, 2, h, 100); got.Label != runs.False() {
		t.Fatalf("%+v, want false", got)
	}
	if h.guards != 1 {
		t.Errorf("guard evaluated %d times, want 1", h.guards)
	}
}

// TestRunBudgets: past the thread budget, or when the host says the run
// is over its time or cost, the result is unknown with the reason.
func TestRunBudgets(t *testing.T) {
	// b's guard reads a's binding: one thread per a, alive to the end.
	pt := plan(t, "a _* b", "ab", "b", map[byte][]int{'b': {0}})
	never := func(int, int, []int) (bool, error) { return false, nil }
	h := &letters{s: strings.Repeat("a", 10) + "b", steps: "ab", guard: never}
	want := runs.Unknown("invariant i (forbid): more than 5 pattern threads at one item (raise it with --max-pattern-threads)")
	if got := Run(pt, len(h.s), h, 5); got.Label != want {
		t.Errorf("threads: %+v, want %v", got, want)
	}
	h = &letters{s: "ab", steps: "ab", guard: never, tick: errors.New("too late")}
	if got := Run(pt, 2, h, 100); got.Label != runs.Unknown("invariant i (forbid): too late") {
		t.Errorf("tick: %+v", got)
	}
	h = &letters{s: strings.Repeat("a", 10), steps: "ab", guard: never, limit: 20}
	if got := Run(pt, 10, h, 100); got.Label != runs.Unknown("invariant i (forbid): over budget") {
		t.Errorf("charge: %+v", got)
	}
	// Without limits the same run is false, and each position's live
	// threads are charged.
	h = &letters{s: strings.Repeat("a", 10), steps: "ab", guard: never}
	if got := Run(pt, 10, h, 100); got.Label != runs.False() || h.charged == 0 {
		t.Errorf("no limit: %+v, charged %d", got, h.charged)
	}
}
