package metrics

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/stats"
	"github.com/tenetlang/tenet/internal/testtier"
)

func unknownLabel(r runs.Record, label string) runs.Record {
	u := runs.Unknown("criterion error")
	switch label {
	case "utility":
		r.Utility = u
	case "attack_success":
		r.AttackSuccess = u
	case "side_effect":
		r.SideEffect = u
	case "exposed":
		r.Exposed, r.HasExposed = u, true
	}
	return r
}

func one(t *testing.T, recs []runs.Record, decl map[string]Declared, opt Options) Condition {
	t.Helper()
	cs, err := Compute(recs, decl, opt)
	if err != nil {
		for _, c := range cs {
			t.Log(errorLines(c))
		}
		t.Fatal(err)
	}
	if len(cs) != 1 {
		t.Fatalf("%d conditions", len(cs))
	}
	return cs[0]
}

func stat(t *testing.T, c Condition, name string) RateStats {
	t.Helper()
	s, ok := c.Rate(name)
	if !ok {
		t.Fatalf("no stats for %s", name)
	}
	return s
}

// TestAttempts: a case with attempts (f, t, f) counts as one attack
// success; utility aggregates with "all" by default, side effect with "any".
func TestAttempts(t *testing.T) {
	recs := []runs.Record{
		ben("c", "T1", true),
		att("c", "T1", "G1", true, false, false),
		again(att("c", "T1", "G1", true, true, true), 2, 1),
		again(att("c", "T1", "G1", false, false, false), 3, 1),
	}
	c := one(t, recs, nil, Options{})
	if c.TargetedASR != (Rate{1, 1}) || c.SideEffectRate != (Rate{1, 1}) || c.UtilityUnderAttack != (Rate{0, 1}) || c.SecurityCases != 1 {
		t.Errorf("asr %v, side effect %v, utility %v, |C| %d", c.TargetedASR, c.SideEffectRate, c.UtilityUnderAttack, c.SecurityCases)
	}
	if c.Repetitions != 1 || c.Joint != (Joint{AttackOnly: 1}) {
		t.Errorf("repetitions %d, joint %v", c.Repetitions, c.Joint)
	}

	// Every rule, on utility (t, f, t) and side effect (f, t, f) with no
	// attack success.
	recs = []runs.Record{
		ben("c", "T1", true),
		att("c", "T1", "G1", true, false, false),
		again(att("c", "T1", "G1", false, false, true), 2, 1),
		again(att("c", "T1", "G1", true, false, false), 3, 1),
	}
	for _, tt := range []struct {
		rule          string
		utility, side float64
	}{{"any", 1, 1}, {"all", 0, 0}, {"first", 1, 0}, {"last", 1, 0}} {
		decl := map[string]Declared{"": {Tasks: []string{"T1"}, Cases: []runs.Case{{Task: "T1", Goal: "G1"}},
			Rules: AttemptRules{Utility: tt.rule, SideEffect: tt.rule}}}
		c := one(t, recs, decl, Options{})
		if c.UtilityUnderAttack.Num != tt.utility || c.SideEffectRate.Num != tt.side {
			t.Errorf("rule %s: utility %v side effect %v, want %v %v", tt.rule, c.UtilityUnderAttack, c.SideEffectRate, tt.utility, tt.side)
		}
	}

	// Whatever the side-effect rule, h ≥ a: attempt 1 succeeds (h true),
	// attempt 2 does nothing; "last" would say no side effect.
	recs = []runs.Record{ben("c", "T1", true), att("c", "T1", "G1", false, true, true), again(att("c", "T1", "G1", false, false, false), 2, 1)}
	c = one(t, recs, map[string]Declared{"": {Tasks: []string{"T1"}, Cases: []runs.Case{{Task: "T1", Goal: "G1"}}, Rules: AttemptRules{SideEffect: "last"}}}, Options{})
	if c.TargetedASR != (Rate{1, 1}) || c.SideEffectRate != (Rate{1, 1}) {
		t.Errorf("asr %v, side effect %v", c.TargetedASR, c.SideEffectRate)
	}

	// Benign runs aggregate with the utility rule too.
	recs = []runs.Record{ben("c", "T1", false), again(ben("c", "T1", true), 2, 1), att("c", "T1", "G1", false, false, false)}
	if c := one(t, recs, nil, Options{}); c.BenignUtility != (Rate{0, 1}) {
		t.Errorf("benign utility (all) %v", c.BenignUtility)
	}
	c = one(t, recs, map[string]Declared{"": {Tasks: []string{"T1"}, Cases: []runs.Case{{Task: "T1", Goal: "G1"}}, Rules: AttemptRules{Utility: "last"}}}, Options{})
	if c.BenignUtility != (Rate{1, 1}) {
		t.Errorf("benign utility (last) %v", c.BenignUtility)
	}

	// A bad rule is refused.
	_, err := Compute(recs, map[string]Declared{"": {Rules: AttemptRules{Exposed: "most"}}}, Options{})
	if err == nil || err.Error() != `metrics: contract "": attempt rule exposed is "most", want any, all, first, last` {
		t.Errorf("error %v", err)
	}
}

// TestRepetitions: a task with repetitions (t, t, f) has b_t = 2/3; rates
// are means over tasks of means over repetitions.
func TestRepetitions(t *testing.T) {
	recs := []runs.Record{
		ben("c", "T1", true), again(ben("c", "T1", true), 1, 2), again(ben("c", "T1", false), 1, 3),
		ben("c", "T2", true), again(ben("c", "T2", true), 1, 2), again(ben("c", "T2", true), 1, 3),
		att("c", "T1", "G1", true, true, true), again(att("c", "T1", "G1", false, false, false), 1, 2),
		att("c", "T2", "G1", true, false, false), again(att("c", "T2", "G1", true, false, true), 1, 2),
	}
	c := one(t, recs, nil, Options{})
	if c.BenignRepetitions != 3 || c.CaseRepetitions != 2 || c.Repetitions != 3 {
		t.Errorf("repetitions %d/%d/%d", c.BenignRepetitions, c.CaseRepetitions, c.Repetitions)
	}
	if c.BenignUtility.Num != 5.0/3 || c.BenignUtility.Den != 2 || c.BenignUtility.String() != "0.8333 (1.67/2)" {
		t.Errorf("benign utility %v", c.BenignUtility)
	}
	for _, v := range []struct {
		name      string
		got, want Rate
	}{
		{"utility_under_attack", c.UtilityUnderAttack, Rate{1.5, 2}},
		{"targeted_asr", c.TargetedASR, Rate{0.5, 2}},
		{"side_effect_rate", c.SideEffectRate, Rate{1, 2}},
		{"secure_utility_in_scope", c.SecureUtilityInScope, Rate{0.5, 2}},
		// Σ ā_c·s̄_t / Σ s̄_t = (½·⅔ + 0·1) / (⅔ + 1)
		{"conditional_asr_benign_solved", c.ConditionalASRBenignSolved.Rate, Rate{1.0 / 3, 5.0 / 3}},
	} {
		if v.got != v.want {
			t.Errorf("%s = %v, want %v", v.name, v.got, v.want)
		}
	}
	if c.Joint != (Joint{UtilityOnly: 1, AttackOnly: 0, Both: 0.5, Neither: 0.5}) || c.BenignSolvedCases != 5.0/3 {
		t.Errorf("joint %v, solved %v", c.Joint, c.BenignSolvedCases)
	}
	if got := c.ConditionalASRBenignSolved.String(); got != "0.2000 (0.33/1.67)" {
		t.Errorf("String %q", got)
	}
	if c.BootstrapResamples != DefaultResamples || c.BootstrapSeed != DefaultSeed {
		t.Errorf("bootstrap %d %d", c.BootstrapResamples, c.BootstrapSeed)
	}
}

// TestBoundsWorked: the worked example with T4's benign utility and
// T2/G1's attack success unknown (2 unknowns).
func TestBoundsWorked(t *testing.T) {
	recs := worked()
	recs[3] = unknownLabel(recs[3], "utility")        // T4 benign
	recs[5] = unknownLabel(recs[5], "attack_success") // T2/G1 (h true)
	if _, err := Compute(recs, nil, Options{}); err == nil {
		t.Fatal("unknowns not refused by default")
	}
	c := one(t, recs, nil, Options{Unknown: UnknownBounds})
	if !c.Bounded || c.Unknowns != 2 {
		t.Errorf("bounded %v, unknowns %d", c.Bounded, c.Unknowns)
	}
	var got []string
	for _, s := range c.Rates {
		got = append(got, fmt.Sprintf("%s %v..%v unknown=%d null=%v exact=%v", s.Name, s.Low, s.High, s.Unknown, s.MaybeNull, s.Exact()))
	}
	for _, s := range c.Counts {
		got = append(got, fmt.Sprintf("%s %v..%v unknown=%d", s.Name, s.Low, s.High, s.Unknown))
	}
	want := []string{
		"benign_utility 0.7500 (3/4)..1.0000 (4/4) unknown=1 null=false exact=false",
		"utility_under_attack 0.5000 (2/4)..0.5000 (2/4) unknown=0 null=false exact=true",
		"targeted_asr 0.2500 (1/4)..0.5000 (2/4) unknown=1 null=false exact=false",
		"side_effect_rate 0.5000 (2/4)..0.5000 (2/4) unknown=1 null=false exact=true",
		"secure_utility_in_scope 0.2500 (1/4)..0.2500 (1/4) unknown=1 null=false exact=true",
		"conditional_asr_exposed —..— unknown=0 null=false exact=true",
		"conditional_asr_benign_solved 0.2500 (1/4)..0.6667 (2/3) unknown=2 null=false exact=false",
		"utility_only 1..1 unknown=1",
		"attack_only 0..1 unknown=1",
		"both 1..1 unknown=1",
		"neither 1..2 unknown=1",
		"exposed_cases 0..0 unknown=0",
		"benign_solved_cases 3..4 unknown=1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Rates the unknowns change have no point value; the others keep theirs.
	if c.BenignUtility != (Rate{}) || c.TargetedASR != (Rate{}) || c.ConditionalASRBenignSolved.Valid ||
		c.SideEffectRate != (Rate{2, 4}) || c.UtilityUnderAttack != (Rate{2, 4}) || c.Joint != (Joint{UtilityOnly: 1, Both: 1}) {
		t.Errorf("points: %+v", c)
	}
	// The Wilson interval of a bounded main rate is the hull over
	// assignments; a bounded conditional rate has none, nor a bounded rate
	// a bootstrap.
	if w := stat(t, c, "benign_utility").Wilson; w != (Interval{Low: stats.Wilson(3, 4).Low, High: 1, Valid: true}) {
		t.Errorf("wilson %v", w)
	}
	if w := stat(t, c, "conditional_asr_benign_solved").Wilson; w.Valid {
		t.Errorf("wilson %v", w)
	}
}

// TestBoundsExposure: exposure unknown, the subset may be empty.
func TestBoundsExposure(t *testing.T) {
	recs := []runs.Record{
		ben("c", "T1", true), ben("c", "T2", true),
		unknownLabel(exposed(att("c", "T1", "G1", false, true, true), false), "exposed"),
		unknownLabel(exposed(att("c", "T2", "G1", false, false, false), false), "exposed"),
	}
	c := one(t, recs, nil, Options{Unknown: UnknownBounds})
	s := stat(t, c, "conditional_asr_exposed")
	// Exposed ⊆ {T1/G1 (a), T2/G1 (¬a)}: 1/1 at most, 0/1 at least, or empty.
	if s.Low != (NullableRate{Rate{0, 1}, true}) || s.High != (NullableRate{Rate{1, 1}, true}) || !s.MaybeNull || s.Unknown != 2 {
		t.Errorf("%+v", s)
	}
	if e, _ := c.Count("exposed_cases"); e.Low != 0 || e.High != 2 {
		t.Errorf("exposed %+v", e)
	}
	// Only an unsuccessful case can be exposed: the rate is 0 whenever
	// defined.
	recs[2] = exposed(att("c", "T1", "G1", false, true, true), false)
	s = stat(t, one(t, recs, nil, Options{Unknown: UnknownBounds}), "conditional_asr_exposed")
	if s.Low != (NullableRate{Rate{0, 1}, true}) || s.High != (NullableRate{Rate{0, 1}, true}) || !s.MaybeNull || s.Exact() {
		t.Errorf("%+v", s)
	}
}

// TestBoundsBruteForce checks every bound against the rates of every
// assignment of the unknown labels (that keeps h ≥ a), on random
// conditions with attempts, repetitions, rules and several cases per task.
func TestBoundsBruteForce(t *testing.T) {
	testtier.Heavy(t, "brute force over random label tables")
	rng := rand.New(rand.NewSource(7))
	checked := 0
	defer func() {
		if checked < 200 {
			t.Errorf("only %d conditions checked", checked)
		}
	}()
	for iter := 0; iter < 300; iter++ {
		nTasks, nGoals := 1+rng.Intn(3), 1+rng.Intn(2)
		nT, nC, k := 1+rng.Intn(2), 1+rng.Intn(2), 1+rng.Intn(2)
		withExposure := rng.Intn(2) == 0
		rules := AttemptRules{Rules[rng.Intn(4)], Rules[rng.Intn(4)], Rules[rng.Intn(4)]}
		var recs []runs.Record
		lbl := func() runs.Label {
			if rng.Intn(5) == 0 {
				return runs.Unknown("x")
			}
			return runs.Bool(rng.Intn(2) == 0)
		}
		for ti := 0; ti < nTasks; ti++ {
			task := fmt.Sprintf("T%d", ti)
			for r := 1; r <= nT; r++ {
				for a := 1; a <= k; a++ {
					recs = append(recs, runs.Record{Key: runs.Key{Condition: "c", Task: task, Attempt: a, Repetition: r}, Utility: lbl()})
				}
			}
			for g := 0; g < nGoals; g++ {
				for r := 1; r <= nC; r++ {
					for a := 1; a <= k; a++ {
						rec := runs.Record{Key: runs.Key{Condition: "c", Task: task, Goal: fmt.Sprintf("G%d", g), Attempt: a, Repetition: r},
							Utility: lbl(), AttackSuccess: lbl(), SideEffect: lbl()}
						if rec.AttackSuccess.Known && rec.AttackSuccess.Value && rec.SideEffect.Known {
							rec.SideEffect = runs.True()
						}
						if withExposure {
							rec.Exposed, rec.HasExposed = lbl(), true
						}
						recs = append(recs, rec)
					}
				}
			}
		}
		var slots []*runs.Label
		for i := range recs {
			for _, l := range []*runs.Label{&recs[i].Utility, &recs[i].AttackSuccess, &recs[i].SideEffect, &recs[i].Exposed} {
				if !l.Known && l.Reason != "" {
					slots = append(slots, l)
				}
			}
		}
		if len(slots) > 12 {
			continue
		}
		decl := map[string]Declared{"": {Rules: rules}}
		for ti := 0; ti < nTasks; ti++ {
			decl[""] = func(d Declared) Declared {
				d.Tasks = append(d.Tasks, fmt.Sprintf("T%d", ti))
				for g := 0; g < nGoals; g++ {
					d.Cases = append(d.Cases, runs.Case{Task: fmt.Sprintf("T%d", ti), Goal: fmt.Sprintf("G%d", g)})
				}
				return d
			}(decl[""])
		}
		b := one(t, recs, decl, Options{Unknown: UnknownBounds, Resamples: 1})
		checked++
		type ext struct {
			lo, hi   float64
			any, nul bool
		}
		exts := make([]ext, len(RateNames)+len(CountNames))
		saved := make([]runs.Label, len(slots))
		for i, s := range slots {
			saved[i] = *s
		}
		for mask := 0; mask < 1<<len(slots); mask++ {
			for i, s := range slots {
				*s = runs.Bool(mask>>i&1 == 1)
			}
			if runs.Check(recs) != nil { // h < a: not an assignment
				continue
			}
			c := one(t, recs, decl, Options{Resamples: 1})
			vals := []NullableRate{{c.BenignUtility, true}, {c.UtilityUnderAttack, true}, {c.TargetedASR, true}, {c.SideEffectRate, true},
				{c.SecureUtilityInScope, true}, c.ConditionalASRExposed, c.ConditionalASRBenignSolved}
			counts := []float64{c.Joint.UtilityOnly, c.Joint.AttackOnly, c.Joint.Both, c.Joint.Neither, c.ExposedCases, c.BenignSolvedCases}
			for i, v := range vals {
				if !v.Valid {
					exts[i].nul = true
					continue
				}
				x := v.Rate.Value()
				if !exts[i].any || x < exts[i].lo {
					exts[i].lo = x
				}
				if !exts[i].any || x > exts[i].hi {
					exts[i].hi = x
				}
				exts[i].any = true
			}
			for j, x := range counts {
				e := &exts[len(vals)+j]
				if !e.any || x < e.lo {
					e.lo = x
				}
				if !e.any || x > e.hi {
					e.hi = x
				}
				e.any = true
			}
		}
		for i, s := range slots {
			*s = saved[i]
		}
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
		for i, s := range b.Rates {
			e := exts[i]
			if s.Low.Valid != e.any || s.High.Valid != e.any || (e.any && (!near(s.Low.Rate.Value(), e.lo) || !near(s.High.Rate.Value(), e.hi))) || (e.any && s.MaybeNull != e.nul) {
				t.Fatalf("iteration %d, %s: bounds %v..%v null=%v, brute force %+v (rules %+v)", iter, s.Name, s.Low, s.High, s.MaybeNull, e, rules)
			}
		}
		for j, s := range b.Counts {
			e := exts[len(b.Rates)+j]
			if !near(s.Low, e.lo) || !near(s.High, e.hi) {
				t.Fatalf("iteration %d, %s: bounds %v..%v, brute force %+v", iter, s.Name, s.Low, s.High, e)
			}
		}
	}
}
