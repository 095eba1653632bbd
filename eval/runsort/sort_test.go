package runsort

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/runstest"
)

// sortAll adds recs in a shuffled order (Seq: their index in recs) to a
// Sorter with budget maxBytes in dir, and returns what it yields, the
// lines, the duplicates and the number of spills.
func sortAll(t *testing.T, dir string, maxBytes int, recs []runs.Record, seed int64) ([]runs.Record, []byte, []runs.Duplicate, int) {
	t.Helper()
	s := NewSorter(dir, maxBytes)
	defer s.Close()
	order := rand.New(rand.NewSource(seed)).Perm(len(recs))
	for _, i := range order {
		if err := s.Add(recs[i], runs.Seq{File: i / 100, Line: i%100 + 1}); err != nil {
			t.Fatal(err)
		}
	}
	spills := s.Spills()
	it, err := s.Sort()
	if err != nil {
		t.Fatal(err)
	}
	var got []runs.Record
	var lines bytes.Buffer
	for it.Next() {
		got = append(got, it.Record())
		lines.Write(it.Line())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return got, lines.Bytes(), it.Duplicates(), spills
}

func TestSorterRoundTrip(t *testing.T) {
	recs := runstest.Adversarial(400, 1)
	want := slices.Clone(recs)
	runs.SortRecords(want)
	var file bytes.Buffer
	if err := runs.Write(&file, recs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		maxBytes   int
		wantSpills func(int) bool
	}{
		{"one record per chunk", 1, func(n int) bool { return n == len(recs) }},
		{"a few chunks", 64 << 10, func(n int) bool { return n > 1 && n < 64 }},
		{"no spill", 1 << 30, func(n int) bool { return n == 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			got, lines, dups, spills := sortAll(t, dir, tc.maxBytes, recs, 2)
			if !tc.wantSpills(spills) {
				t.Errorf("%d spills", spills)
			}
			if len(dups) > 0 {
				t.Errorf("duplicates %v", dups)
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("record %d:\n got %#v\nwant %#v", i, got[i], want[i])
				}
			}
			if !bytes.Equal(lines, file.Bytes()) {
				t.Errorf("lines differ from Write's")
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("temporary files left after Close: %v", left)
			}
		})
	}
}

// TestSorterMergePasses merges more chunks than fanIn at once: in passes.
func TestSorterMergePasses(t *testing.T) {
	defer func(n int) { fanIn = n }(fanIn)
	fanIn = 3
	recs := runstest.Adversarial(50, 3)
	want := slices.Clone(recs)
	runs.SortRecords(want)
	got, _, _, spills := sortAll(t, t.TempDir(), 1, recs, 4)
	if spills != 50 {
		t.Errorf("%d spills, want 50", spills)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("records differ after merging in passes")
	}
}

// TestSorterDuplicates: equal keys across chunks, added in any order;
// the record with the smallest runs.Seq wins, each other is a duplicate.
func TestSorterDuplicates(t *testing.T) {
	base := runstest.Adversarial(30, 5)
	for _, maxBytes := range []int{1, 2000, 1 << 30} {
		s := NewSorter(t.TempDir(), maxBytes)
		// Three copies of each record, told apart by origin; the copy
		// with runs.Seq line 1 is added last.
		for c := 3; c >= 1; c-- {
			for i, r := range base {
				r.OriginFile, r.OriginLine = fmt.Sprintf("f%d.jsonl", i), c
				if err := s.Add(r, runs.Seq{File: i, Line: c}); err != nil {
					t.Fatal(err)
				}
			}
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for it.Next() {
			r := it.Record()
			if r.OriginLine != 1 || it.Seq().Line != 1 {
				t.Errorf("maxBytes %d: yielded %s from line %d, want the first (line 1)", maxBytes, r.Key, r.OriginLine)
			}
			n++
		}
		if it.Err() != nil || n != len(base) {
			t.Fatalf("maxBytes %d: %d records, err %v", maxBytes, n, it.Err())
		}
		dups := it.Duplicates()
		if len(dups) != 2*len(base) {
			t.Fatalf("maxBytes %d: %d duplicates, want %d", maxBytes, len(dups), 2*len(base))
		}
		for i, d := range dups {
			wantLine := 2 + i%2 // in key order, then runs.Seq
			if d.OriginLine != wantLine || d.Seq.Line != wantLine || d.FirstLine != 1 || d.First.Line != 1 || d.FirstFile != d.OriginFile {
				t.Errorf("duplicate %d: %+v", i, d)
			}
		}
		want := fmt.Sprintf("%s:2: duplicate run %s: the same key as %s:1", dups[0].OriginFile, dups[0].Key, dups[0].OriginFile)
		if dups[0].Error() != want {
			t.Errorf("message %q, want %q", dups[0].Error(), want)
		}
		s.Close()
	}
}

// TestSorterTies: records whose keys differ only in attempt, repetition or
// goal (benign first) come out in runs.Key.Compare order whatever the chunks.
func TestSorterTies(t *testing.T) {
	var recs []runs.Record
	for _, goal := range []string{"g", ""} {
		for rep := 3; rep >= 1; rep-- {
			for att := 3; att >= 1; att-- {
				r := runs.Record{Key: runs.Key{Condition: "c", Task: "t", Goal: goal, Attempt: att, Repetition: rep}, Utility: runs.True()}
				if goal != "" {
					r.AttackSuccess, r.SideEffect = runs.False(), runs.False()
				}
				recs = append(recs, r)
			}
		}
	}
	want := slices.Clone(recs)
	runs.SortRecords(want)
	for _, maxBytes := range []int{1, 300, 1 << 20} {
		got, _, _, _ := sortAll(t, t.TempDir(), maxBytes, recs, int64(maxBytes))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("maxBytes %d: order differs", maxBytes)
		}
	}
}

func TestSorterRejects(t *testing.T) {
	ok := runs.Record{Key: runs.Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: runs.True()}
	cases := []struct {
		name string
		edit func(*runs.Record)
		want string
	}{
		{"invalid", func(r *runs.Record) { r.Key.Task = "" }, "task is empty"},
		{"invalid UTF-8", func(r *runs.Record) { r.Utility = runs.Unknown("bad \xff") }, "the reason of label utility is not valid UTF-8"},
		{"invalid UTF-8 in a key", func(r *runs.Record) { r.Key.Task = "t\xfe" }, "task is not valid UTF-8"},
		{"unknown with value", func(r *runs.Record) { r.Utility = runs.Label{Value: true, Reason: "x"} }, "label utility is unknown but has value true"},
		{"invariant without reason", func(r *runs.Record) { r.Invariants = map[string]runs.Label{"i": {}} }, "invariants.i is unknown without a reason"},
		{"known invariant with reason", func(r *runs.Record) { r.Failures = map[string]runs.Label{"f": {Known: true, Reason: "r"}} }, "unknown-reason"},
		{"empty check name", func(r *runs.Record) { r.Invariants = map[string]runs.Label{"": runs.True()} }, "empty name"},
		{"witness of a held invariant", func(r *runs.Record) {
			r.Invariants = map[string]runs.Label{"i": runs.True()}
			r.Witnesses = map[string]map[string]string{"invariants.i": {"s": "call:0"}}
		}, "violated invariant"},
		{"nil witness", func(r *runs.Record) {
			r.Invariants = map[string]runs.Label{"i": runs.False()}
			r.Witnesses = map[string]map[string]string{"invariants.i": nil}
		}, "is nil"},
		{"bad item", func(r *runs.Record) {
			r.Invariants = map[string]runs.Label{"i": runs.False()}
			r.Witnesses = map[string]map[string]string{"invariants.i": {"s": "call:-1"}}
		}, "want \"event:N\""},
	}
	s := NewSorter(t.TempDir(), 1<<20)
	defer s.Close()
	for _, c := range cases {
		r := ok
		c.edit(&r)
		err := s.Add(r, runs.Seq{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// A refused record leaves the Sorter usable.
	if err := s.Add(ok, runs.Seq{}); err != nil {
		t.Fatal(err)
	}
	it, err := s.Sort()
	if err != nil {
		t.Fatal(err)
	}
	if !it.Next() || !reflect.DeepEqual(it.Record(), ok) || it.Next() {
		t.Error("want exactly the valid record")
	}
	if err := s.Add(ok, runs.Seq{}); err == nil {
		t.Error("Add after Sort: no error")
	}
	if _, err := s.Sort(); err == nil {
		t.Error("Sort twice: no error")
	}
}

// TestSorterCleanup: temporary files go on Close, mid-iteration, and on an
// error, after which every call returns it.
func TestSorterCleanup(t *testing.T) {
	recs := runstest.Adversarial(40, 7)
	dir := t.TempDir()
	empty := func(when string) {
		t.Helper()
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%s: temporary files left: %v", when, left)
		}
	}
	// Close in the middle of the iteration.
	s := NewSorter(dir, 2000)
	for i, r := range recs {
		if err := s.Add(r, runs.Seq{Line: i + 1}); err != nil {
			t.Fatal(err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 1 || runtime.GOOS != "windows" && len(left) > 0 {
		t.Fatalf("spill files in the directory: %v (unlinked at once where the system allows it)", left)
	}
	if s.Spills() == 0 {
		t.Fatal("no spill")
	}
	it, err := s.Sort()
	if err != nil {
		t.Fatal(err)
	}
	it.Next()
	s.Close()
	empty("after Close")
	if it.Next() || it.Err() == nil {
		t.Error("Next after Close: want an error")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// A spill file that cannot be read back.
	s = NewSorter(dir, 2000)
	for i, r := range recs {
		if err := s.Add(r, runs.Seq{Line: i + 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.file.Truncate(10); err != nil {
		t.Fatal(err)
	}
	_, err = s.Sort()
	if err == nil || !strings.Contains(err.Error(), "reading back") {
		t.Fatalf("Sort of a truncated file: %v", err)
	}
	empty("after a read error")
	if err2 := s.Add(recs[0], runs.Seq{}); err2 != err {
		t.Errorf("Add after the error: %v, want %v", err2, err)
	}
	s.Close()

	// A directory that does not exist: the first spill fails.
	s = NewSorter(filepath.Join(dir, "missing"), 1)
	if err := s.Add(recs[0], runs.Seq{}); err == nil {
		t.Error("spill into a missing directory: no error")
	}
	s.Close()
	empty("after a failed spill")
}

// TestSorterLimitDuplicates: with a limit, the duplicates first in input
// order are kept, and all are counted.
func TestSorterLimitDuplicates(t *testing.T) {
	base := runstest.Adversarial(40, 9)
	for _, maxBytes := range []int{1, 1 << 20} {
		s := NewSorter(t.TempDir(), maxBytes)
		var all []runs.Seq
		for c := 4; c >= 1; c-- {
			for i, r := range base {
				seq := runs.Seq{File: c, Line: len(base) - i}
				if err := s.Add(r, seq); err != nil {
					t.Fatal(err)
				}
				if c > 1 {
					all = append(all, seq)
				}
			}
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		it.LimitDuplicates(7)
		for it.Next() {
			if it.Seq().File != 1 {
				t.Errorf("yielded %v, want the first copy (file 1)", it.Seq())
			}
		}
		slices.SortFunc(all, runs.Seq.Compare)
		var got []runs.Seq
		for _, d := range it.Duplicates() {
			got = append(got, d.Seq)
		}
		if !slices.Equal(got, all[:7]) || it.DuplicateCount() != 3*len(base) {
			t.Errorf("maxBytes %d: kept %v of %d, want %v of %d", maxBytes, got, it.DuplicateCount(), all[:7], 3*len(base))
		}
		s.Close()
	}
}
