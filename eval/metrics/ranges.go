package metrics

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Numbers in messages are written as ranges, never one by one: a runs
// file of 109 bytes can claim attempt 4,000,000,000, and listing the
// numbers missing below it would take gigabytes.

// intRanges renders sorted, distinct numbers as ranges: "1–3, 5, 7–9".
func intRanges(sorted []int) string {
	var parts []string
	for i := 0; i < len(sorted); {
		j := i
		for j+1 < len(sorted) && sorted[j+1] == sorted[j]+1 {
			j++
		}
		parts = append(parts, rangeText(sorted[i], sorted[j]))
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// gapRanges renders the numbers in 1..max(sorted) missing from sorted
// (sorted, distinct, each ≥ 1) as ranges, "" when none is missing, in time
// and memory linear in len(sorted) whatever the numbers.
func gapRanges(sorted []int) string {
	var parts []string
	next := 1
	for _, n := range sorted {
		if n > next {
			parts = append(parts, rangeText(next, n-1))
		}
		next = n + 1
	}
	return strings.Join(parts, ", ")
}

func rangeText(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "–" + strconv.Itoa(hi)
}

// maxErrorText bounds the text of one error of a condition (Condition.Errors)
// in bytes: a list of ids or numbers in it is cut, not the report.
const maxErrorText = 1 << 10

// cutError is an error whose text is cut to maxErrorText bytes.
type cutError struct{ err error }

func (e cutError) Error() string { return cutText(e.err.Error(), maxErrorText) }
func (e cutError) Unwrap() error { return e.err }

// cutErrors bounds the text of each error (cutError).
func cutErrors(errs []error) []error {
	for i, err := range errs {
		if len(err.Error()) > maxErrorText {
			errs[i] = cutError{err}
		}
	}
	return errs
}

// cutText cuts s to at most n bytes (on a rune boundary), ending
// "… (N more bytes)".
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}
