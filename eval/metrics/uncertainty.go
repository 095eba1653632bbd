package metrics

import "github.com/tenetlang/tenet/eval/stats"

// splitmix64 (Steele, Lea & Flood, 2014, "Fast splittable pseudorandom
// number generators", OOPSLA) is the bootstrap's generator: tiny and fully
// specified here, so a seed gives the same resamples on every platform
// and Go version.
type splitmix64 struct{ state uint64 }

func (r *splitmix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform integer in [0, n), rejecting the draws below
// 2⁶⁴ mod n so that every value is equally likely.
func (r *splitmix64) intn(n int) int {
	un := uint64(n)
	floor := -un % un // 2⁶⁴ mod n
	for {
		if x := r.next(); x >= floor {
			return int(x % un)
		}
	}
}

// bootstrap sets the cluster-bootstrap interval of every rate that reads no
// unknown label: opt.Resamples times, draw |T| tasks with replacement (a
// task brings its benign repetitions and all its cases), recompute the rate
// as Σ numerator / Σ denominator over the drawn tasks, and take the
// percentile interval of the results; a resample whose denominator is 0
// (no case, or an empty conditional subset, among the drawn tasks) has no
// value and is left out. The generator is seeded with opt.Seed for each
// condition, and draws once per resample for all rates, so the result
// depends only on the condition's runs and the options.
func bootstrap(rates []RateStats, data []taskData, nT, nC int, opt Options) {
	type part struct{ num, den int64 }
	parts := make([][]part, len(rates)) // parts[rate][task]
	for i := range rates {
		parts[i] = make([]part, len(data))
		for t, d := range data {
			n := int64(d.n)
			var p part
			switch i {
			case 0:
				p = part{int64(d.k.lo), int64(nT)}
			case 1:
				p = part{int64(d.cases.U.lo), int64(nC) * n}
			case 2:
				p = part{int64(d.cases.A.lo), int64(nC) * n}
			case 3:
				p = part{int64(d.cases.H.lo), int64(nC) * n}
			case 4:
				p = part{int64(d.cases.S.lo), int64(nC) * n}
			case 5:
				p = part{int64(d.cases.exMaxX), int64(d.cases.exMaxY)}
			case 6:
				p = part{int64(d.k.lo) * int64(d.cases.A.lo), int64(nC) * int64(d.k.lo) * n}
			}
			parts[i][t] = p
		}
	}
	use := make([]bool, len(rates))
	values := make([][]float64, len(rates))
	for i, s := range rates {
		use[i] = s.Unknown == 0 && s.Low.Valid && (s.Low.Rate.Den > 0)
	}
	rng := splitmix64{state: uint64(opt.Seed)}
	draw := make([]int, len(data))
	for range opt.Resamples {
		for j := range draw {
			draw[j] = rng.intn(len(data))
		}
		for i := range rates {
			if !use[i] {
				continue
			}
			var num, den int64
			for _, t := range draw {
				num += parts[i][t].num
				den += parts[i][t].den
			}
			if den > 0 {
				values[i] = append(values[i], float64(num)/float64(den))
			}
		}
	}
	for i := range rates {
		if use[i] {
			rates[i].Bootstrap = stats.Percentile(values[i])
		}
	}
}
