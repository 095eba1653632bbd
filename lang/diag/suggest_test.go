package diag

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	cands := []string{"string", "int", "double", "number", "bool", "any", "list", "map", "object", "optional"}
	for name, want := range map[string]string{
		"lsit":     "list", // swapped letters count once
		"stirng":   "string",
		"strng":    "string",
		"String":   "string",
		"boool":    "bool",
		"optinal":  "optional",
		"list":     "list", // exact
		"a":        "",     // too short to correct
		"xy":       "",
		"integer":  "",
		"frobnify": "",
		"":         "",
		"lst":      "list", // one edit in three letters
		"obj":      "",     // two edits in three letters
	} {
		if got := Suggest(name, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
	// The closest candidate wins over an earlier, farther one; ties go to
	// the earlier candidate.
	if got := Suggest("utilty", []string{"util", "utility"}); got != "utility" {
		t.Errorf("closest: got %q", got)
	}
	if got := Suggest("ab", []string{"xb", "ax"}); got != "xb" {
		t.Errorf("tie: got %q", got)
	}
	// Two edits in four letters are too many: "nope" is not "role".
	if got := Suggest("nope", []string{"role", "type", "index"}); got != "" {
		t.Errorf("nope: got %q", got)
	}
	if got := Suggest("amout", []string{"amount"}); got != "amount" {
		t.Errorf("amout: got %q", got)
	}
	if got := Suggest("recipeint", []string{"recipient"}); got != "recipient" {
		t.Errorf("recipeint: got %q", got)
	}
	// Words separated by underscores: a candidate that begins the name, or
	// that the name begins, the longest first.
	for name, want := range map[string]string{
		"tool_nme":      "tool",
		"args_amount":   "args",
		"injection":     "injection_vectors",
		"result_event_": "result_event",
		"toolname":      "",
		"_x":            "",
	} {
		if got := Suggest(name, []string{"tool", "args", "result", "result_event", "injection_vectors", ""}); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
	if got := Suggest("x", nil); got != "" {
		t.Errorf("no candidates: got %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3},
		{"lsit", "list", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"é", "e", 1},
	} {
		if got := editDistance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestEditDistanceAtMost: the banded distance agrees with the full one,
// capped at k+1, on every pair of short strings over a small alphabet
// (where swaps, repeats and length differences all occur).
func TestEditDistanceAtMost(t *testing.T) {
	var words []string
	var gen func(prefix string)
	gen = func(prefix string) {
		words = append(words, prefix)
		if len(prefix) < 4 {
			for _, r := range "abé" {
				gen(prefix + string(r))
			}
		}
	}
	gen("")
	var rows [3][]int // reused, as Suggest does: stale cells must not matter
	for _, a := range words {
		for _, b := range words {
			full := editDistance([]rune(a), []rune(b))
			for k := 0; k <= 3; k++ {
				if got, want := editDistanceAtMost([]rune(a), []rune(b), k, &rows), min(full, k+1); got != want {
					t.Fatalf("editDistanceAtMost(%q, %q, %d) = %d, want %d", a, b, k, got, want)
				}
			}
		}
	}
	// Long names cost time linear in their length.
	long := []rune(strings.Repeat("ab", 1<<20))
	if d := editDistanceAtMost(long, append(long[1:len(long):len(long)], 'a'), 2, &rows); d != 2 {
		t.Errorf("long names: distance %d, want 2", d)
	}
}
