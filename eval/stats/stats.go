// Package stats holds the statistics tenet's metrics use that know
// nothing of runs: the 95% Wilson score interval of a proportion, the
// percentile interval of resampled values, and the exact McNemar test of
// a paired comparison, with Interval, the confidence interval they give.
// It takes counts and values and gives intervals and p-values; it imports
// no tenet package (eval/metrics applies it to a condition's rates, and
// the HTML report to pooled leaderboard rates).
package stats

import (
	"fmt"
	"math"
	"math/big"
	"slices"
)

// Interval is a confidence interval [Low, High]; Valid is false when there
// is none (an empty denominator).
type Interval struct {
	Low, High float64
	Valid     bool
}

// String renders "[0.3006, 0.9544]", or "—" when not Valid.
func (i Interval) String() string {
	if !i.Valid {
		return "—"
	}
	return fmt.Sprintf("[%.4f, %.4f]", i.Low, i.High)
}

// z975 is the 0.975 quantile of the standard normal distribution, for
// two-sided 95% intervals.
const z975 = 1.959963984540054

// Wilson returns the 95% Wilson score interval for a proportion of
// successes out of n trials (Wilson, 1927, "Probable inference, the law of
// succession, and statistical inference", JASA 22:209–212), the interval
// Brown, Cai & DasGupta (2001, "Interval estimation for a binomial
// proportion", Statistical Science 16:101–133) recommend over the Wald
// interval for small n and proportions near 0 or 1:
//
//	p̂ = successes/n
//	centre = (p̂ + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²)
//
// with z = 1.959964, clipped to [0, 1]. successes and n need not be whole
// (a rate over repetitions is a sum of means). It is not Valid when n ≤ 0.
func Wilson(successes, n float64) Interval {
	if !(n > 0) {
		return Interval{}
	}
	p := successes / n
	z2 := z975 * z975
	d := 1 + z2/n
	centre := (p + z2/(2*n)) / d
	half := z975 / d * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi := centre-half, centre+half
	// At p̂ = 0 or 1 the exact bound is 0 or 1; keep rounding from
	// moving it.
	if p <= 0 {
		lo = 0
	}
	if p >= 1 {
		hi = 1
	}
	return Interval{Low: max(0, lo), High: min(1, hi), Valid: true}
}

// Percentile returns the 2.5% and 97.5% points of values (sorted in
// place): the order statistics of ranks ⌈0.025·B⌉ and ⌈0.975·B⌉ (1-based)
// of the B values, the inverse of the empirical distribution function. It
// is not Valid when values is empty.
func Percentile(values []float64) Interval {
	b := len(values)
	if b == 0 {
		return Interval{}
	}
	slices.Sort(values)
	lo := (25*b + 999) / 1000
	hi := (975*b + 999) / 1000
	return Interval{Low: values[max(lo, 1)-1], High: values[max(hi, 1)-1], Valid: true}
}

// McNemarExact returns the exact two-sided p-value of McNemar's test
// (McNemar, 1947, "Note on the sampling error of the difference between
// correlated proportions or percentages", Psychometrika 12:153–157) on the
// discordant pairs b and c: under the null hypothesis each discordant pair
// is equally likely to go either way, so with X ~ Binomial(b+c, ½)
//
//	p = min(1, 2·P(X ≤ min(b, c)))
//
// and p = 1 when there are no discordant pairs. The binomial sum is exact
// (math/big) and rounded once to a float64: b=1, c=6 gives 0.125.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	sum := new(big.Int)
	term := big.NewInt(1) // C(n, i)
	for i := 0; i <= k; i++ {
		if i > 0 {
			term.Mul(term, big.NewInt(int64(n-i+1)))
			term.Quo(term, big.NewInt(int64(i)))
		}
		sum.Add(sum, term)
	}
	p := new(big.Rat).SetFrac(new(big.Int).Lsh(sum, 1), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	if p.Cmp(big.NewRat(1, 1)) > 0 {
		return 1
	}
	f, _ := p.Float64()
	return f
}
