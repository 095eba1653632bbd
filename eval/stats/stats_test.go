package stats

import (
	"math"
	"testing"
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

func TestPercentile(t *testing.T) {
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
