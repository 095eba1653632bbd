package diag

import "strings"

// Suggest returns the candidate closest to name, for "did you mean" hints, or
// "" when no candidate is close enough.
//
// Closeness is the optimal-string-alignment edit distance over runes (an
// insertion, deletion, substitution or swap of two adjacent runes costs 1).
// A candidate is close enough when its distance is 1 and name is longer than
// one rune, or its distance is 2 and name is at least 5 runes long: one
// letter is not "corrected" into an unrelated word, nor are two letters of
// four ("nope" is not "role"). Among equally close candidates the first one
// wins, so callers list the likeliest names first. An exact match is
// returned as is.
//
// When no candidate is that close, a candidate that is the first words of
// name ("tool" for "tool_nme") or that name is the first words of
// ("injection_vectors" for "injection"), words being separated by
// underscores, is suggested: the longest such candidate.
func Suggest(name string, candidates []string) string {
	given := []rune(name)
	best, bestDist := "", 3
	var runes []rune // a candidate's, reused
	var rows [3][]int
	for _, c := range candidates {
		// Only distances up to 2 are suggested: the bounded distance costs
		// time linear in the names, so that suggesting among thousands of
		// predicates for thousands of unknown references stays quick (the
		// full distance made 4,000 of each take 38 s).
		runes = append(runes[:0], []rune(c)...)
		d := editDistanceAtMost(given, runes, 2, &rows)
		if d < bestDist && closeEnough(d, len(given)) || d == 0 {
			best, bestDist = c, d
			if d == 0 {
				break
			}
		}
	}
	if best != "" || name == "" {
		return best
	}
	for _, c := range candidates {
		if c != "" && len(c) > len(best) && (strings.HasPrefix(name, c+"_") || strings.HasPrefix(c, name+"_")) {
			best = c
		}
	}
	return best
}

// closeEnough says whether a candidate at edit distance d from a name of n
// runes is worth suggesting.
func closeEnough(d, n int) bool {
	return d == 1 && n > 1 || d == 2 && n >= 5
}

// editDistance is the optimal-string-alignment distance between a and b.
// Swapped adjacent letters count once because they are the commonest typo
// ("lsit" for "list").
func editDistance(a, b []rune) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// editDistanceAtMost is editDistance(a, b) when that is at most k, and k+1
// otherwise. It computes only the cells within k of the diagonal (the
// others are over k), and stops when a whole row is over k: O(k·len(a))
// time rather than O(len(a)·len(b)).
// rows is scratch space, reused from call to call.
func editDistanceAtMost(a, b []rune, k int, rows *[3][]int) int {
	far := k + 1
	if d := len(a) - len(b); d > k || -d > k {
		return far
	}
	for i := range rows {
		if cap(rows[i]) < len(b)+1 {
			rows[i] = make([]int, len(b)+1)
		}
		rows[i] = rows[i][:len(b)+1]
	}
	prev2, prev, cur := rows[0], rows[1], rows[2]
	for j := range prev {
		prev[j] = min(j, far)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		// The cells just outside the band, which the next row reads,
		// count as over k.
		if lo == 1 {
			cur[0] = min(i, far)
		} else {
			cur[lo-1] = far
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		least := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = min(v, far)
			least = min(least, cur[j])
		}
		if least >= far {
			return far // every later cell is over k too
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
