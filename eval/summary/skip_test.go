package summary

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestSkipViolations: with SkipViolations the Results are those without,
// but for Violations (nil) and MoreViolations (0).
func TestSkipViolations(t *testing.T) {
	var recs []runs.Record
	for _, cond := range []string{"a", "b"} {
		for i := range 9 {
			r := rec("c", cond, fmt.Sprintf("T%02d", i+1), "", i%2 == 0, false)
			r.Invariants = map[string]runs.Label{"inv": runs.Bool(i%3 == 0)}
			recs = append(recs, r)
		}
	}
	collect := func(skip bool) Results {
		c := NewCollector(nil, metrics.Options{}, 4)
		if skip {
			c.SkipViolations()
		}
		for _, r := range recs {
			if err := c.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		return c.Results()
	}
	full, skipped := collect(false), collect(true)
	if len(full.Violations) != 7 || full.MoreViolations != 5 {
		t.Fatalf("without SkipViolations: %d violations listed, %d more; want 7, 5", len(full.Violations), full.MoreViolations)
	}
	if skipped.Violations != nil || skipped.MoreViolations != 0 {
		t.Errorf("with SkipViolations: %v, %d more; want nil, 0", skipped.Violations, skipped.MoreViolations)
	}
	full.Violations, full.MoreViolations = nil, 0
	if !reflect.DeepEqual(full, skipped) {
		t.Errorf("with SkipViolations:\n%+v\nwant:\n%+v", skipped, full)
	}
}

// TestKeepCopies: a cut list is a copy of the entries kept, not the
// tally's array of every entry (which the Results would hold to the end),
// and a list cut to nothing is nil.
func TestKeepCopies(t *testing.T) {
	var list []runs.Key
	set := map[runs.Key]bool{}
	for i := range 32 {
		k := runs.Key{Contract: "c", Condition: "a", Task: fmt.Sprintf("T%02d", i), Attempt: 1, Repetition: 1}
		list = append(list, k)
		set[k] = i < 3
	}
	first := &list[0]
	kept, more := keep(list, 1, set, func(k runs.Key) runs.Key { return k })
	if len(kept) != 3 || more != 30 || kept[2].Task != "T02" {
		t.Fatalf("kept %v, %d more; want T00..T02, 30 more", kept, more)
	}
	if &kept[0] == first || cap(kept) >= 32 {
		t.Errorf("the kept entries are in the list's array (cap %d)", cap(kept))
	}
	none, more := keep(list[3:], 0, map[runs.Key]bool{}, func(k runs.Key) runs.Key { return k })
	if none != nil || more != 29 {
		t.Errorf("cut to nothing: %v, %d more; want nil, 29", none, more)
	}
}

// TestKeysShareNames: the keys the Results list share one copy of their
// condition's contract, condition and attack names, whatever copies the
// records came with (a Sorter decodes each run's own).
func TestKeysShareNames(t *testing.T) {
	c := NewCollector(nil, metrics.Options{}, 0)
	for i := range 3 {
		r := rec(strings.Clone("c"), strings.Clone("cond"), fmt.Sprintf("T%d", i), "g", true, true)
		r.Key.Attack = strings.Clone("important_instructions")
		r.Invariants = map[string]runs.Label{"inv": runs.Bool(false)}
		if err := c.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	hits := c.Results().Checks[0].Invariants[0].HitRuns
	if len(hits) != 3 {
		t.Fatalf("%d hit runs; want 3", len(hits))
	}
	for _, k := range hits[1:] {
		for i, s := range [][2]string{{k.Contract, hits[0].Contract}, {k.Condition, hits[0].Condition}, {k.Attack, hits[0].Attack}} {
			if unsafe.StringData(s[0]) != unsafe.StringData(s[1]) {
				t.Errorf("%s: name %d (%q) is a copy of its own", k, i, s[0])
			}
		}
	}
}
