package metrics

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// wilsonQuadratic is the Wilson interval computed independently: the
// roots p of (p̂ − p)² = z²·p(1−p)/n, i.e.
// (1 + z²/n)p² − (2p̂ + z²/n)p + p̂² = 0.
func wilsonQuadratic(k, n float64) (float64, float64) {
	z := 1.959963984540054
	ph := k / n
	a := 1 + z*z/n
	b := -(2*ph + z*z/n)
	c := ph * ph
	d := math.Sqrt(b*b - 4*a*c)
	return (-b - d) / (2 * a), (-b + d) / (2 * a)
}

func TestWilson(t *testing.T) {
	// Published four-decimal values (e.g. Newcombe 1998, Table I, and
	// the worked example of docs/metrics.md).
	for _, tt := range []struct {
		k, n   float64
		lo, hi string
	}{
		{3, 4, "0.3006", "0.9544"},
		{2, 4, "0.1500", "0.8500"},
		{1, 4, "0.0456", "0.6994"},
		{2, 3, "0.2077", "0.9385"},
		{0, 1, "0.0000", "0.7935"},
		{1, 1, "0.2065", "1.0000"},
		{81, 263, "0.2553", "0.3662"}, // Newcombe (1998) example
		{15, 148, "0.0624", "0.1605"}, // Newcombe (1998) example
		{0, 20, "0.0000", "0.1611"},   // Newcombe (1998) example
		{1, 29, "0.0061", "0.1718"},   // Newcombe (1998) example
	} {
		w := Wilson(tt.k, tt.n)
		if !w.Valid || f4(w.Low) != tt.lo || f4(w.High) != tt.hi {
			t.Errorf("Wilson(%v, %v) = %v, want [%s, %s]", tt.k, tt.n, w, tt.lo, tt.hi)
		}
	}
	// Against the quadratic, for every k ≤ n ≤ 60 and some fractional
	// counts (rates over repetitions).
	check := func(k, n float64) {
		lo, hi := wilsonQuadratic(k, n)
		w := Wilson(k, n)
		if math.Abs(w.Low-max(0, lo)) > 1e-12 || math.Abs(w.High-min(1, hi)) > 1e-12 {
			t.Errorf("Wilson(%v, %v) = %v, quadratic [%v, %v]", k, n, w, lo, hi)
		}
	}
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			check(float64(k), float64(n))
		}
	}
	check(7.0/3, 4)
	check(0.5, 1.5)
	if w := Wilson(0, 0); w.Valid || w.String() != "—" {
		t.Errorf("Wilson(0, 0) = %v", w)
	}
	if w := Wilson(0, 7); w.Low != 0 {
		t.Errorf("Wilson(0, 7) low %v", w.Low)
	}
	if w := Wilson(7, 7); w.High != 1 {
		t.Errorf("Wilson(7, 7) high %v", w.High)
	}
}

func f4(x float64) string { return Interval{x, x, true}.String()[1:7] }

func TestMcNemarExact(t *testing.T) {
	for _, tt := range []struct {
		lost, gained int
		want         float64
	}{
		{1, 6, 0.125}, {6, 1, 0.125}, {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {3, 3, 1},
		{0, 5, 0.0625}, {2, 8, 0.109375}, {0, 10, 0.001953125},
		// Exact sums in Python (math.comb), rounded once.
		{40, 60, 0.05688793364098079}, {12, 30, 0.007915897334896727},
	} {
		if got := McNemarExact(tt.lost, tt.gained); got != tt.want {
			t.Errorf("McNemarExact(%d, %d) = %v, want %v", tt.lost, tt.gained, got, tt.want)
		}
	}
	// Large counts stay exact and in (0, 1].
	if p := McNemarExact(500, 700); !(p > 0 && p < 1e-6) {
		t.Errorf("McNemarExact(500, 700) = %v", p)
	}
}

func TestSplitmixAndPercentile(t *testing.T) {
	// splitmix64's reference outputs for seed 0.
	r := splitmix64{}
	for _, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := r.next(); got != want {
			t.Fatalf("splitmix64: %#x, want %#x", got, want)
		}
	}
	counts := make([]int, 3)
	r = splitmix64{state: 1}
	for range 3000 {
		counts[r.intn(3)]++
	}
	for i, c := range counts {
		if c < 900 || c > 1100 {
			t.Errorf("intn(3) drew %d %d times of 3000", i, c)
		}
	}
	// Ranks ⌈0.025·B⌉ and ⌈0.975·B⌉.
	var vs []float64
	for i := 2000; i >= 1; i-- {
		vs = append(vs, float64(i))
	}
	if got := Percentile(vs); got != (Interval{50, 1950, true}) {
		t.Errorf("Percentile(1..2000) = %+v", got)
	}
	if got := Percentile([]float64{0.5}); got != (Interval{0.5, 0.5, true}) {
		t.Errorf("Percentile(one) = %+v", got)
	}
	if got := Percentile([]float64{3, 1, 2, 4, 5, 6, 7, 8, 9, 10}); got != (Interval{1, 10, true}) {
		t.Errorf("Percentile(1..10) = %+v", got)
	}
	if Percentile(nil).Valid {
		t.Error("Percentile(nil) is valid")
	}
}

// clustered has 4 tasks with 2 goals each and 2 repetitions.
func clustered() []runs.Record {
	var recs []runs.Record
	for i, task := range []string{"T1", "T2", "T3", "T4"} {
		for rep := 1; rep <= 2; rep++ {
			recs = append(recs, again(ben("c", task, (i+rep)%3 != 0), 1, rep))
			for j, goal := range []string{"G1", "G2"} {
				a := (i+j+rep)%2 == 0
				recs = append(recs, again(att("c", task, goal, i%2 == 0, a, a || j == 1), 1, rep))
			}
		}
	}
	return recs
}

func TestBootstrap(t *testing.T) {
	c := one(t, clustered(), nil, Options{})
	if c.BootstrapResamples != 2000 || c.BootstrapSeed != 1 {
		t.Fatalf("bootstrap %d, seed %d", c.BootstrapResamples, c.BootstrapSeed)
	}
	got := map[string]Interval{}
	for _, s := range c.Rates {
		got[s.Name] = s.Bootstrap
		if s.Bootstrap.Valid && (s.Bootstrap.Low > s.Low.Rate.Value() || s.Bootstrap.High < s.Low.Rate.Value()) {
			// not a requirement in general, but true here: a sanity check
			t.Errorf("%s: bootstrap %v excludes the rate %v", s.Name, s.Bootstrap, s.Low)
		}
	}
	// Pinned, and checked by hand: per task the benign repetitions solved
	// are 2, 1, 1, 2 of 2, so a resample's benign_utility is the mean of 4
	// draws from {1, ½}: all ½ (or all 1) has probability 1/16 > 2.5%, so
	// the interval is [0.5, 1]. secure_utility_in_scope is ½ of 2 cases
	// for T1 and T3 and 0 for T2 and T4: m/16 for m ~ Bin(4, ½); P(m = 0)
	// = 1/16 and P(m ≤ 3) = 15/16 < 97.5%: [0, 0.25]. Every task has
	// attack success 2 of its 4 case repetitions and side effect 3 of 4.
	want := map[string]string{
		"benign_utility":                "[0.5000, 1.0000]",
		"raw_attacked_utility":          "[0.0000, 1.0000]",
		"targeted_asr":                  "[0.5000, 0.5000]",
		"side_effect_rate":              "[0.7500, 0.7500]",
		"secure_utility_in_scope":       "[0.0000, 0.2500]",
		"conditional_asr_exposed":       "—",
		"conditional_asr_benign_solved": "[0.5000, 0.5000]",
	}
	for name, w := range want {
		if got[name].String() != w {
			t.Errorf("%s: bootstrap %v, want %s", name, got[name], w)
		}
	}
	// Deterministic: the same runs in any order give the same intervals.
	recs := clustered()
	rand.New(rand.NewSource(9)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	if d := one(t, recs, nil, Options{}); d.Rates[0] != c.Rates[0] || d.Rates[4] != c.Rates[4] {
		t.Errorf("shuffled: %v %v, want %v %v", d.Rates[0], d.Rates[4], c.Rates[0], c.Rates[4])
	}
	// Another seed or resample count is another draw; the options are
	// reported.
	d := one(t, clustered(), nil, Options{Seed: 42, Resamples: 500})
	if d.BootstrapSeed != 42 || d.BootstrapResamples != 500 || d.Rates[0].Bootstrap == (Interval{}) {
		t.Errorf("options: %d %d %v", d.BootstrapSeed, d.BootstrapResamples, d.Rates[0].Bootstrap)
	}
	// One repetition and one case per task: no bootstrap.
	if w := one(t, worked(), nil, Options{}); w.BootstrapResamples != 0 || w.Rates[0].Bootstrap.Valid {
		t.Errorf("worked example bootstrap: %d %v", w.BootstrapResamples, w.Rates[0].Bootstrap)
	}
	// Several cases per task, one repetition: bootstrap.
	recs = []runs.Record{ben("c", "T1", true), ben("c", "T2", false),
		att("c", "T1", "G1", true, true, true), att("c", "T1", "G2", true, false, false), att("c", "T2", "G1", false, false, false)}
	if w := one(t, recs, nil, Options{}); w.BootstrapResamples != 2000 {
		t.Errorf("several cases per task: no bootstrap")
	}
	// Bad options.
	for _, o := range []Options{{Unknown: "ignore"}, {Resamples: -1}} {
		if _, err := Compute(worked(), nil, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := Compute(worked(), nil, Options{Unknown: "ignore"}); err.Error() != `metrics: unknown-label policy is "ignore", want refuse or bounds` {
		t.Errorf("error %v", err)
	}
}

func TestRateString(t *testing.T) {
	for _, tt := range []struct {
		r    Rate
		want string
	}{
		{Rate{3, 4}, "0.7500 (3/4)"},
		{Rate{7.0 / 3, 4}, "0.5833 (2.33/4)"},
		{Rate{1.0 / 3, 5.0 / 3}, "0.2000 (0.33/1.67)"},
		{Rate{-2, 16}, "-0.1250 (-2/16)"},
		{Rate{0, 0}, "— (0/0)"},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.r, got, tt.want)
		}
	}
	if got := (Joint{1.0 / 3, 2.0 / 3, 1, 0}).String(); got != "0.33/0.67/1/0" {
		t.Errorf("joint %q", got)
	}
}
