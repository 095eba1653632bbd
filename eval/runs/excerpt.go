package runs

import (
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"
)

// The excerpt of a run (docs/runs-format.md, excerpt): the items a report
// points a reader at, each rendered short, so that a report read back from
// the runs file alone (tenet report) can show what a violated invariant's
// witness or a disagreement is about without the transcript. Bounded so
// that it stays a small part of a line: at most MaxExcerptItems items of at
// most MaxExcerptText bytes each.
const (
	// MaxExcerptItems bounds the items of one run's excerpt: a witness
	// names one item per pattern step (a handful), a disagreement's
	// excerpt the run's calls and its last message.
	MaxExcerptItems = 16
	// MaxExcerptText bounds one item's text in bytes (UTF-8): a call with
	// its arguments and the start of its result, a message's start.
	MaxExcerptText = 320
)

// validateExcerpt checks an excerpt's shape: item names ("event:N",
// "call:N") and its bounds. UTF-8 is encodable's.
func validateExcerpt(ex map[string]string) error {
	if ex == nil {
		return nil
	}
	if len(ex) > MaxExcerptItems {
		return fmt.Errorf("excerpt has %d items, above the maximum of %d (runs.MaxExcerptItems)", len(ex), MaxExcerptItems)
	}
	for _, it := range slices.Sorted(maps.Keys(ex)) {
		switch t := ex[it]; {
		case !validItem(it):
			return fmt.Errorf("excerpt item %q, want \"event:N\" or \"call:N\"", it)
		case len(t) > MaxExcerptText:
			return fmt.Errorf("excerpt.%s is %d bytes, above the maximum of %d (runs.MaxExcerptText)", it, len(t), MaxExcerptText)
		}
	}
	return nil
}

// excerptEncodable reports text a runs-file line cannot hold.
func excerptEncodable(ex map[string]string) error {
	for _, it := range slices.Sorted(maps.Keys(ex)) {
		if !utf8.ValidString(ex[it]) {
			return fmt.Errorf("excerpt.%s is not valid UTF-8", it)
		}
	}
	return nil
}

// decodeExcerpt decodes the optional field excerpt; absent or null is none.
func (w *wireIn) excerpt(rec *Record) error {
	if isNull(w.Excerpt) {
		return nil
	}
	items, err := members(w.Excerpt, "field excerpt", "an object of item (\"event:N\" or \"call:N\") → text")
	if err != nil {
		return err
	}
	rec.Excerpt = make(map[string]string, len(items))
	for _, it := range slices.Sorted(maps.Keys(items)) {
		s, ok, err := stringField(items[it], "excerpt."+it, "a string")
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("excerpt.%s is null, want a string", it)
		}
		rec.Excerpt[it] = s
	}
	return nil
}
