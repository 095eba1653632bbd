// Package names prints names that come from untrusted input — contracts,
// conditions, tasks, goals of transcripts and runs files — so that each
// reads unambiguously and stays short (Printable, Safe, Cut), and finds the
// names that look alike (LookAlikes). It takes strings and gives strings;
// it imports no tenet package. eval/runs re-exports it for the run key.
package names

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names (contracts, conditions, tasks, goals) come from transcripts and
// runs files: attacker-controlled text. Two names that print the same but
// differ ("gpt-4o" and "gpt-4o " with a trailing space; "café" composed and
// decomposed; "gpt‑4o" with U+2011 NON-BREAKING HYPHEN) are two conditions,
// reported apart: each must read unambiguously, and a reader must be told
// that they look alike (LookAlikes). Names are never merged: which one is
// right is the user's call.

// MaxNameWidth bounds what Printable and Safe show of a name, in
// characters: a longer name shows its first MaxNameWidth/2 and its last
// MaxNameWidth/2 characters with "…(+N bytes)…" between them (outside the
// quotes, each part quoted, when the name is quoted). A condition name of
// megabytes would otherwise be printed in every row and message that names
// it. The middle is cut, not the end, because names that differ tend to
// differ at an end (a suffix "-v2", a prefix "run1/"); names that differ
// only in the cut middle print the same, and LookAlikes groups them.
const MaxNameWidth = 200

// Printable returns s as is when it reads unambiguously, and quoted
// otherwise (Go syntax, with escapes), in either case cut to MaxNameWidth
// characters: for table cells, where '/' is not ambiguous. s is quoted when
// it has white space at either end, starts with "::" (a CI runner's
// workflow command when it starts a line), a character that is not printable
// (control, format, invisible: U+200B, U+00AD, …), a combining mark, a
// look-alike character (lookAlike: U+2011, Cyrillic "а", fullwidth
// letters, …), invalid UTF-8, or is not in Unicode normalisation form C
// (NFC). Inside the quotes those characters are escaped (\u2011), and when
// s is not NFC every non-ASCII character is, so that two different names
// never print the same.
func Printable(s string) string {
	if !misreadable(s) {
		return cutName(s, false)
	}
	return cutName(s, true)
}

// Safe returns s as Printable does, quoted also when it is empty or has a
// '/', ':' or space: for keys ("condition/task/goal"), where those would be
// read as separators.
func Safe(s string) string {
	if s == "" {
		return `""`
	}
	return cutName(s, misreadable(s) || strings.ContainsAny(s, "/: "))
}

// cutName cuts the middle of s so that MaxNameWidth characters are left
// (cutMiddle) and quotes it (quote) when quoted is set, head and tail
// apart: the cut mark "…(+N bytes)…" stands between the quoted parts, so it
// cannot be read as part of the name.
func cutName(s string, quoted bool) string {
	head, tail, more := cutMiddle(s, MaxNameWidth)
	if quoted {
		ascii := !norm.NFC.IsNormalString(s)
		if more == 0 {
			return quote(head, ascii)
		}
		return quote(head, ascii) + cutMarkText(more) + quote(tail, ascii)
	}
	if more == 0 {
		return head
	}
	return head + cutMarkText(more) + tail
}

// Cut returns s when it has at most width characters, else its first
// width/2 and last width-width/2 characters with the cut mark "…(+N
// bytes)…" between them, N the bytes left out. A string already cut
// (holding a cut mark) is cut again around its mark with the counts added,
// never marked twice, so cutting is idempotent whatever the order.
func Cut(s string, width int) string {
	head, tail, more := cutMiddle(s, width)
	if more > 0 {
		return head + cutMarkText(more) + tail
	}
	return head
}

// cutMarkText is the mark of a cut of n bytes.
func cutMarkText(n int) string { return fmt.Sprintf("…(+%d bytes)…", n) }

// cutMiddle splits s into its first width/2 characters, its last
// width-width/2 characters and the number of bytes between them; when s
// has at most width characters it returns s, "" and 0. A cut mark already
// in s (the first one) is where the cut is: its count is added, and the
// head is kept from before it, the tail from after it.
func cutMiddle(s string, width int) (head, tail string, more int) {
	if len(s) <= width || utf8.RuneCountInString(s) <= width { // at least one byte per character
		return s, "", 0
	}
	head, tail = s, ""
	if strings.Contains(s, " bytes)…") { // the regular expression only for a likely mark
		if m := cutMark.FindStringSubmatchIndex(s); m != nil {
			if n, err := strconv.Atoi(s[m[2]:m[3]]); err == nil {
				head, tail, more = s[:m[0]], s[m[1]:], n
			}
		}
	}
	hw := width / 2
	tw := width - hw
	if tail == "" { // no mark: the tail comes from the end of s
		tail = head
		head = firstChars(head, hw)
		tail = tail[len(head):]
	} else {
		h := firstChars(head, hw)
		more += len(head) - len(h)
		head = h
	}
	t := lastChars(tail, tw)
	more += len(tail) - len(t)
	return head, t, more
}

// firstChars returns the first n characters of s.
func firstChars(s string, n int) string {
	c := 0
	for i := range s {
		if c == n {
			return s[:i]
		}
		c++
	}
	return s
}

// lastChars returns the last n characters of s.
func lastChars(s string, n int) string {
	i := len(s)
	for c := 0; c < n && i > 0; c++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// cutMark is the mark Cut leaves.
var cutMark = regexp.MustCompile(`…\(\+([0-9]{1,18}) bytes\)…`)

// misreadable reports whether s printed as is could be misread (see
// Printable).
func misreadable(s string) bool {
	if s == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(first) || unicode.IsSpace(last) {
		return true
	}
	// A line that starts with "::" is a workflow command to a CI runner
	// (GitHub Actions' ::error::, ::add-mask::, ::stop-commands::): a name
	// that starts a table row must not start one.
	if strings.HasPrefix(s, "::") {
		return true
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if escaped(r) {
			return true
		}
	}
	return !norm.NFC.IsNormalString(s)
}

// escaped reports whether r is written as an escape inside quotes: not
// printable (unicode.IsPrint: controls, format characters, spaces other
// than ASCII space), a combining mark, or a look-alike character.
func escaped(r rune) bool {
	if r < utf8.RuneSelf {
		return !unicode.IsPrint(r)
	}
	_, alike := lookAlike[r]
	return alike || !unicode.IsPrint(r) || unicode.In(r, unicode.Mn, unicode.Me)
}

// quote writes s in double quotes, Go syntax: '"' and '\' escaped, every
// escaped rune (and with ascii every non-ASCII rune) as \uXXXX, \UXXXXXXXX,
// \xXX for a byte of invalid UTF-8, or \n, \t, ….
func quote(s string, ascii bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
		}
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case escaped(r) || (ascii && r >= utf8.RuneSelf):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// lookAlike is a small confusable fold: characters that print like an
// ASCII character in common fonts, and that character. It is deliberately
// short — the dashes and hyphens, quotes, the Cyrillic and Greek letters
// shaped like Latin ones, a few more — not Unicode's full confusables
// table (UTS #39): it catches the names a person or a tokenizer produces by
// accident (a word processor's hyphen, a pasted Cyrillic letter), for a
// warning, not a security boundary. Fullwidth forms and ligatures are folded
// by NFKC before this table is read (lookAlikeKey).
var lookAlike = map[rune]rune{
	// Hyphens, dashes and minus signs.
	'\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-',
	'\u2212': '-', '\u2043': '-', '\uFE58': '-', '\uFE63': '-', '\u02D7': '-',
	// Quotes and primes.
	'\u2018': '\'', '\u2019': '\'', '\u201B': '\'', '\u2032': '\'', '\u02BC': '\'',
	'\u201C': '"', '\u201D': '"', '\u201F': '"', '\u2033': '"',
	// Dots, slashes, underscore-like.
	'\u2024': '.', '\u00B7': '.', '\u2027': '.', '\u2044': '/', '\u2215': '/', '\u2017': '_',
	// Cyrillic letters shaped like Latin ones.
	'\u0430': 'a', '\u0435': 'e', '\u043E': 'o', '\u0440': 'p', '\u0441': 'c', '\u0443': 'y',
	'\u0445': 'x', '\u0455': 's', '\u0456': 'i', '\u0458': 'j', '\u0501': 'd', '\u04BB': 'h',
	'\u0410': 'A', '\u0412': 'B', '\u0415': 'E', '\u041A': 'K', '\u041C': 'M', '\u041D': 'H',
	'\u041E': 'O', '\u0420': 'P', '\u0421': 'C', '\u0422': 'T', '\u0425': 'X', '\u0405': 'S',
	'\u0406': 'I', '\u0408': 'J',
	// Greek letters shaped like Latin ones.
	'\u03BF': 'o', '\u03BD': 'v', '\u0391': 'A', '\u0392': 'B', '\u0395': 'E', '\u0396': 'Z',
	'\u0397': 'H', '\u0399': 'I', '\u039A': 'K', '\u039C': 'M', '\u039D': 'N', '\u039F': 'O',
	'\u03A1': 'P', '\u03A4': 'T', '\u03A5': 'Y', '\u03A7': 'X',
	// Latin look-alikes.
	'\u0131': 'i', '\u0251': 'a', '\u0261': 'g',
}

// lookAlikeKey folds s to what it looks like: NFKC (fullwidth forms,
// ligatures and compatibility characters to their plain form), format
// characters (zero-width spaces and joiners, soft hyphens, byte-order marks)
// dropped, lookAlike characters to their ASCII twin, and white space
// trimmed at the ends and each run of it made one space. Two names with the
// same key look the same, or nearly.
func lookAlikeKey(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(s) {
		if unicode.Is(unicode.Cf, r) {
			continue
		}
		if a, ok := lookAlike[r]; ok {
			r = a
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// LookAlikes returns the names that differ from another of names only by
// white space, Unicode normalisation or look-alike characters (the same
// lookAlikeKey), or that print the same (the same Printable: long names
// differing only in the middle that is cut). Two names sharing either key
// are in one group, and groups sharing a name are one. Each group is
// sorted, the groups by their first name, with how its names differ:
// "white space", "Unicode normalisation" (with or without white space),
// "look-alike characters", cutMiddleDiffer or quotesDiffer. Names that
// are equal count once.
func LookAlikes(names []string) []LookAlikeGroup {
	// Union-find over the distinct names: each key joins the names that
	// have it.
	index := map[string]int{}
	var distinct []string
	for _, n := range names {
		if _, ok := index[n]; !ok {
			index[n] = len(distinct)
			distinct = append(distinct, n)
		}
	}
	parent := make([]int, len(distinct))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, key := range []func(string) string{lookAlikeKey, Printable} {
		first := map[string]int{}
		for i, n := range distinct {
			k := key(n)
			if j, ok := first[k]; ok {
				parent[find(i)] = find(j)
			} else {
				first[k] = i
			}
		}
	}
	byRoot := map[int][]string{}
	for i, n := range distinct {
		r := find(i)
		byRoot[r] = append(byRoot[r], n)
	}
	var out []LookAlikeGroup
	for _, g := range byRoot {
		if len(g) < 2 {
			continue
		}
		slices.Sort(g)
		out = append(out, LookAlikeGroup{Names: g, Differ: differ(g)})
	}
	slices.SortFunc(out, func(a, b LookAlikeGroup) int { return strings.Compare(a.Names[0], b.Names[0]) })
	return out
}

// cutMiddleDiffer is how names differ that print the same only because
// the middle of each is cut (MaxNameWidth); quotesDiffer how names differ
// that print the same otherwise (a name holding quotes and one quoted
// when printed: `"x "` and "x ").
const (
	cutMiddleDiffer = "the middle that is cut when they are printed"
	quotesDiffer    = "quotes: they print the same"
)

// LookAlikeGroup is names that look alike (LookAlikes).
type LookAlikeGroup struct {
	Names  []string
	Differ string // "white space", "Unicode normalisation", "look-alike characters", cutMiddleDiffer or quotesDiffer
}

// differ names the smallest class of difference that makes the names of
// g equal.
func differ(g []string) string {
	same := func(f func(string) string) bool {
		for _, n := range g[1:] {
			if f(n) != f(g[0]) {
				return false
			}
		}
		return true
	}
	space := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	switch {
	case same(space):
		return "white space"
	case same(func(s string) string { return space(norm.NFC.String(s)) }):
		return "Unicode normalisation"
	case same(lookAlikeKey):
		return "look-alike characters"
	}
	for _, n := range g {
		if utf8.RuneCountInString(n) <= MaxNameWidth {
			return quotesDiffer
		}
	}
	return cutMiddleDiffer
}
