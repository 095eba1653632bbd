package brief

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// DisplayWidth is the number of terminal columns s takes: two for an East
// Asian wide or fullwidth character, none for a combining mark or a
// zero-width format character, one for any other. The summary's bound
// (Width) is in these columns, not bytes or runes: a condition named in
// CJK takes twice the room its rune count says.
func DisplayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// clipEnd keeps s within w columns, marking a cut with "…" at its end.
func clipEnd(s string, w int) string {
	if DisplayWidth(s) <= w {
		return s
	}
	return takeHead(s, w-1) + "…"
}

// clipMiddle keeps s within w columns: the first columns and the last
// tail columns, "…" between them.
func clipMiddle(s string, w, tail int) string {
	if DisplayWidth(s) <= w {
		return s
	}
	tail = min(tail, w-2)
	return takeHead(s, w-1-tail) + "…" + takeTail(s, tail)
}

// takeHead is the longest prefix of s within w columns.
func takeHead(s string, w int) string {
	n := 0
	for i, r := range s {
		rw := runeWidth(r)
		if n+rw > w {
			return s[:i]
		}
		n += rw
	}
	return s
}

// takeTail is the longest suffix of s within w columns.
func takeTail(s string, w int) string {
	rs := []rune(s)
	n := 0
	for i := len(rs) - 1; i >= 0; i-- {
		rw := runeWidth(rs[i])
		if n+rw > w {
			return string(rs[i+1:])
		}
		n += rw
	}
	return s
}

// padRight pads s with spaces to w columns; padLeft right-aligns it.
func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-DisplayWidth(s), 0))
}

func padLeft(s string, w int) string {
	return strings.Repeat(" ", max(w-DisplayWidth(s), 0)) + s
}

// distinctClips returns names, each within w columns, pairwise distinct
// when the names are, and whether it numbered them. A name that fits is
// kept whole; a longer one keeps its start and its end with "…" between,
// the split being the first, from a quarter of w for the end and then
// towards shorter and longer ends, that leaves no two shown names alike
// (names that differ after a long common start, "gpt-4o-2024-05-13-…").
// When no split tells them apart, every name is numbered instead ("#03
// …"), its number its row's, zero-padded so that the numbers sort as
// numbers: they are unique, so the rows stay distinct whatever the names.
func distinctClips(names []string, w int) ([]string, bool) {
	long := false
	for _, n := range names {
		long = long || DisplayWidth(n) > w
	}
	if !long {
		return names, false
	}
	pref := max(w/4, 1)
	var tails []int
	tails = append(tails, pref)
	for d := 1; pref-d >= 0 || pref+d <= w-2; d++ {
		if pref-d >= 0 {
			tails = append(tails, pref-d)
		}
		if pref+d <= w-2 {
			tails = append(tails, pref+d)
		}
	}
	for _, tail := range tails {
		out := make([]string, len(names))
		seen := map[string]bool{}
		ok := true
		for i, n := range names {
			out[i] = clipMiddle(n, w, tail)
			if seen[out[i]] {
				ok = false
				break
			}
			seen[out[i]] = true
		}
		if ok {
			return out, false
		}
	}
	digits := len(itoa(len(names)))
	out := make([]string, len(names))
	for i, n := range names {
		num := fmt.Sprintf("#%0*d ", digits, i+1)
		out[i] = num + clipMiddle(n, w-len(num), pref)
	}
	return out, true
}

// sharedAffixes returns the start and the end every name shares, each cut
// at a separator (a space or punctuation) so that no word is split, and
// each "" unless some name is wider than w (nothing is clipped otherwise)
// and at least two names are shown. No name is left empty.
func sharedAffixes(names []string, w int) (prefix, suffix string) {
	long := false
	for _, n := range names {
		long = long || DisplayWidth(n) > w
	}
	if len(names) < 2 || !long {
		return "", ""
	}
	prefix, suffix = names[0], names[0]
	shortest := len(names[0])
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
		for !strings.HasSuffix(n, suffix) {
			suffix = suffix[1:]
		}
		shortest = min(shortest, len(n))
	}
	// A prefix ends, a suffix starts, at a separator; both leave every
	// name at least one character.
	for prefix != "" && (!isSeparator(prefix[len(prefix)-1]) || len(prefix) >= shortest) {
		prefix = prefix[:len(prefix)-1]
	}
	for suffix != "" && (!isSeparator(suffix[0]) || len(prefix)+len(suffix) >= shortest) {
		suffix = suffix[1:]
	}
	if !utf8.ValidString(prefix) || !utf8.ValidString(suffix) {
		return "", ""
	}
	return prefix, suffix
}

// isSeparator is a byte that ends a word of a condition's name.
func isSeparator(b byte) bool { return strings.IndexByte(" @-_/:+.,;|", b) >= 0 }
