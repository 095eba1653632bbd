package main

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestHostileDocumented keeps docs/robustness.md's case table and
// testdata/hostile in step: every case directory has exactly one row, in
// name order, and every row names a case. The table is how a reader learns
// what the corpus proves, so a case added without its row (or a row left
// behind by a removed case) fails here.
func TestHostileDocumented(t *testing.T) {
	entries, err := os.ReadDir(hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "_") {
			cases = append(cases, e.Name())
		}
	}
	doc, err := os.ReadFile("../../docs/robustness.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)` \\| [a-z]+ \\| [0-9] \\| ")
	var rows []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		rows = append(rows, m[1])
	}
	if !sort.StringsAreSorted(rows) {
		t.Errorf("docs/robustness.md: the case table is not in name order")
	}
	documented := map[string]int{}
	for _, r := range rows {
		documented[r]++
	}
	have := map[string]bool{}
	for _, c := range cases {
		have[c] = true
		switch documented[c] {
		case 0:
			t.Errorf("testdata/hostile/%s has no row in docs/robustness.md's case table", c)
		case 1:
		default:
			t.Errorf("testdata/hostile/%s has %d rows in docs/robustness.md's case table", c, documented[c])
		}
	}
	for _, r := range rows {
		if !have[r] {
			t.Errorf("docs/robustness.md lists case %s, which testdata/hostile does not have", r)
		}
	}
}
