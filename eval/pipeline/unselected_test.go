package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
)

// TestAllUnselected: a record no target selects is counted once for the
// collection, and named (the first MaxUnselectedListed by file name, then
// line, not input order) at its file:line;
// a record one contract selects (judged, or set aside for an undeclared
// task) is not, nor is a header line. With the targets in two passes
// (mail read as "auto", math as "openai-messages": the files are read
// twice) a record is counted only when both passes left it unselected, so
// the answer is the one pass's.
func TestAllUnselected(t *testing.T) {
	mail, math := compileSource(t, mailContract), compileSource(t, mathContract)
	var lines []string
	var want []run.Origin
	file := filepath.Join(t.TempDir(), "t.jsonl")
	add := func(rec string, unselected bool) {
		lines = append(lines, rec)
		if unselected {
			want = append(want, run.Origin{File: file, Line: len(lines)})
		}
	}
	add(synthRecord("mail", "reply", nil, "a", 1, "sent", ""), false)
	add(`{"metadata":{"suite":"chat"}}`, false) // a header line: no run
	for i := range 12 {
		add(synthRecord("chat", "reply", nil, "a", i+1, "hi", ""), true)
		if i == 4 {
			add(synthRecord("math", "add", nil, "a", 1, "4", ""), false)
			add(synthRecord("math", "undeclared", nil, "a", 2, "4", ""), false) // selected, set aside
		}
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file given after t.jsonl whose name sorts before it: its record is
	// named first, whatever the order of the files.
	early := filepath.Join(filepath.Dir(file), "a.jsonl")
	if err := os.WriteFile(early, []byte(synthRecord("chat", "reply", nil, "b", 1, "hi", "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want = append([]run.Origin{{File: early, Line: 1}}, want...)
	for _, tc := range []struct {
		name    string
		targets []Target
	}{
		{"one pass", []Target{{Program: mail, Source: "s"}, {Program: math}}},
		{"two passes", []Target{{Program: mail, Source: "s", Format: "auto"}, {Program: math}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, err := EvalTargets(tc.targets, []string{file, early}, Options{Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if n := AllBadRecords(results); n != 0 {
				errs, _ := AllErrors(results)
				t.Fatalf("%d bad records: %v", n, errs)
			}
			got := AllUnselected(results)
			if got.Records != 13 || fmt.Sprint(got.First) != fmt.Sprint(want[:MaxUnselectedListed]) {
				t.Errorf("AllUnselected = %d %v, want 13 %v", got.Records, got.First, want[:MaxUnselectedListed])
			}
			// Each contract still counts what it did not select: mail the
			// chat and math records, math the chat and mail ones.
			if m, n := results[0].Skipped[eval.NotSelected], results[1].Skipped[eval.NotSelected]; m != 15 || n != 14 {
				t.Errorf("not selected: mail %d, math %d; want 15, 14", m, n)
			}
		})
	}
}
