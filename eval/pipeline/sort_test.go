package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
)

// sortedRuns sorts results with SortResults and returns the runs yielded
// and the runs file a runs.Writer makes of them (with Close's error), and
// how many runs came with their runs-file line (from a Sorter).
func sortedRuns(t *testing.T, results []*Result) ([]runs.Record, []byte, error, int) {
	t.Helper()
	var recs []runs.Record
	var file bytes.Buffer
	w := runs.NewWriter(&file)
	lines := 0
	err := SortResults(results, func(rec runs.Record, line []byte) error {
		recs = append(recs, rec)
		if line != nil {
			lines++
		}
		return w.Write(rec, line)
	})
	if err != nil {
		t.Fatal(err)
	}
	werr := w.Close()
	return recs, file.Bytes(), werr, lines
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func errTexts(es []error) []string {
	var s []string
	for _, e := range es {
		s = append(s, e.Error())
	}
	return s
}

// TestSortResultsMatchesInMemory: with the judged runs held within a
// budget (one that spills every run, one that moves the runs to Sorters
// that spill a few chunks, one that keeps them all as values), SortResults
// yields the runs the in-memory evaluation keeps, in the same order, the
// runs file has the same bytes (the same error, were it Write's), and each
// result's errors, duplicates included, are the in-memory ones in the same
// input order — for 1 and 4 workers. Whatever the budget the runs reach fn
// without a line: within the largest as the values judged, past the others
// from a Sorter that holds no JSON; only the runs Writer encodes it.
func TestSortResultsMatchesInMemory(t *testing.T) {
	mail, math := compileSource(t, mailContract), compileSource(t, mathContract)
	targets := []Target{{Program: mail, Source: "s"}, {Program: mail, Source: "all", Grant: "wide"}, {Program: math}}
	files := synthCorpus(t, 3, 60, 5)
	dir := t.TempDir()
	rec := func(task string, rep int, content string) string {
		return synthRecord("math", task, nil, "a", rep, content, "")
	}
	for i, lines := range [][]string{
		{rec("add", 1, "4"), rec("mul", 1, "6"), rec("add", 2, "4")},
		{rec("add", 3, "4"), rec("add", 1, "5"), rec("mul", 2, "6"), rec("add", 3, "no")},
		{rec("mul", 1, "7"), rec("add", 1, "x"), rec("mul", 2, "0")},
	} {
		path := filepath.Join(dir, "dup"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = slices.Insert(files, i*2, path)
	}
	opt := Options{Transcript: transcript.Options{MaxRecordBytes: 2000}}
	for _, workers := range []int{1, 4} {
		opt.Workers = workers
		ref, err := EvalTargets(targets, files, opt)
		if err != nil {
			t.Fatal(err)
		}
		wantRecs, wantFile, wantErr, _ := sortedRuns(t, ref)
		var all []runs.Record
		dups := 0
		for _, r := range ref {
			all = append(all, r.Records...)
			for _, e := range r.Errors {
				if strings.Contains(e.Error(), "duplicate run") {
					dups++
				}
			}
		}
		var b bytes.Buffer
		if werr := runs.Write(&b, all); errText(werr) != errText(wantErr) || werr == nil && !bytes.Equal(b.Bytes(), wantFile) {
			bl, wl := strings.Split(b.String(), "\n"), strings.Split(string(wantFile), "\n")
			for i := range min(len(bl), len(wl)) {
				if bl[i] != wl[i] {
					t.Logf("line %d\nWrite  %s\nWriter %s", i, bl[i], wl[i])
					break
				}
			}
			t.Fatalf("the reference Writer and Write disagree: %v, %v (%d, %d lines)", wantErr, werr, len(bl), len(wl))
		}
		if dups == 0 {
			t.Fatal("no duplicates: the corpus tests nothing")
		}
		for _, budget := range []int{1, 4 << 10, 64 << 20} {
			spill := t.TempDir()
			sopt := opt
			sopt.SortBytes, sopt.SortDir = budget, spill
			got, err := EvalTargets(targets, files, sopt)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range got {
				if r.Records != nil {
					t.Fatalf("target %d: Records kept in memory", i)
				}
			}
			recs, file, werr, lines := sortedRuns(t, got)
			if !reflect.DeepEqual(recs, wantRecs) {
				t.Errorf("%d workers, budget %d: the runs differ", workers, budget)
			}
			if lines != 0 {
				t.Errorf("%d workers, budget %d: %d of %d runs came with a line, want none", workers, budget, lines, len(recs))
			}
			if !bytes.Equal(file, wantFile) || errText(werr) != errText(wantErr) {
				t.Errorf("%d workers, budget %d: the runs file differs: %v", workers, budget, werr)
			}
			for i := range got {
				g, w := got[i], ref[i]
				if !slices.Equal(errTexts(g.Errors), errTexts(w.Errors)) {
					t.Errorf("%d workers, budget %d, target %d: errors\n got %q\nwant %q", workers, budget, i, errTexts(g.Errors), errTexts(w.Errors))
				}
				if g.Judged() != w.Judged() || g.Headers != w.Headers || !reflect.DeepEqual(g.Skipped, w.Skipped) || !reflect.DeepEqual(g.SkippedIDs, w.SkippedIDs) {
					t.Errorf("%d workers, budget %d, target %d: judged %d/%d, headers %d/%d, skipped %v/%v", workers, budget, i,
						g.Judged(), w.Judged(), g.Headers, w.Headers, g.Skipped, w.Skipped)
				}
				if err := g.Close(); err != nil {
					t.Error(err)
				}
			}
			if left, _ := os.ReadDir(spill); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		}
	}
}

// TestEvalSortFailure: a Sorter that cannot spill ends the evaluation
// with its error, leaving no temporary file.
func TestEvalSortFailure(t *testing.T) {
	math := compileSource(t, mathContract)
	files := synthCorpus(t, 1, 40, 2)
	_, err := EvalTargets([]Target{{Program: math}}, files, Options{SortBytes: 1, SortDir: filepath.Join(t.TempDir(), "missing")})
	if err == nil || !strings.Contains(err.Error(), "sorting") {
		t.Errorf("got %v, want the Sorter's error", err)
	}
}

// TestSortResultsStops: an error from fn ends SortResults with it.
func TestSortResultsStops(t *testing.T) {
	math := compileSource(t, mathContract)
	files := synthCorpus(t, 1, 40, 3)
	res, err := EvalTargets([]Target{{Program: math}}, files, Options{SortBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer res[0].Close()
	stop := os.ErrClosed
	n := 0
	if err := SortResults(res, func(runs.Record, []byte) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("got %v after %d runs, want %v after 1", err, n, stop)
	}
}

// TestMaxErrors: with Options.MaxErrors a result keeps the first bad
// records in input order (duplicates included, found in the collector or
// in the merge) and counts the rest.
func TestMaxErrors(t *testing.T) {
	math := compileSource(t, mathContract)
	dir := t.TempDir()
	rec := func(task string, rep int, content string) string {
		return synthRecord("math", task, nil, "a", rep, content, "")
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for path, lines := range map[string][]string{
		a: {rec("add", 1, "4"), "{bad", rec("add", 1, "4"), rec("mul", 1, "6"), "{bad"},
		b: {rec("mul", 1, "6"), rec("add", 2, "4"), "{bad", rec("add", 2, "5"), rec("add", 1, "x")},
	} {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{a, b}
	all, err := EvalTargets([]Target{{Program: math}}, files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := errTexts(all[0].Errors)
	if len(want) != 7 {
		t.Fatalf("%d bad records, want 7: %q", len(want), want)
	}
	for _, max := range []int{1, 2, 3, 6, 7, 8} {
		for _, sortBytes := range []int{0, 1, 1 << 20} {
			res, err := EvalTargets([]Target{{Program: math}}, files, Options{MaxErrors: max, SortBytes: sortBytes})
			if err != nil {
				t.Fatal(err)
			}
			if err := SortResults(res, nil); err != nil {
				t.Fatal(err)
			}
			r := res[0]
			keep := min(max, len(want))
			if got := errTexts(r.Errors); !slices.Equal(got, want[:keep]) || r.MoreErrors != len(want)-keep || r.BadRecords() != len(want) {
				t.Errorf("max %d, sort %d: kept %q and %d more, want %q and %d more", max, sortBytes, got, r.MoreErrors, want[:keep], len(want)-keep)
			}
			if r.Judged() != 3 {
				t.Errorf("max %d, sort %d: judged %d, want 3", max, sortBytes, r.Judged())
			}
			r.Close()
		}
	}
}

// TestUnencodableRunIsBad: a judged run the runs file cannot hold exactly
// (here its origin, a file name that is not UTF-8) is a bad record at its
// line whether the store holds the runs as values (a large budget) or has
// moved them to a Sorter (a budget of one byte), with the Sorter's words.
func TestUnencodableRunIsBad(t *testing.T) {
	math := compileSource(t, mathContract)
	path := filepath.Join(t.TempDir(), "bad\xff.jsonl")
	rec := synthRecord("math", "add", nil, "a", 1, "4", "")
	if err := os.WriteFile(path, []byte(rec+"\n"), 0o644); err != nil {
		t.Skipf("this file system refuses a name that is not UTF-8: %v", err)
	}
	for _, sortBytes := range []int{1, 1 << 20} {
		res, err := EvalTargets([]Target{{Program: math}}, []string{path}, Options{SortBytes: sortBytes})
		if err != nil {
			t.Fatal(err)
		}
		want := path + `:1: run math:a/add: origin.file is not valid UTF-8; a runs file cannot hold it`
		if got := errTexts(res[0].Errors); len(got) != 1 || got[0] != want || res[0].Judged() != 0 {
			t.Errorf("sort %d: errors %q, judged %d; want [%q], 0", sortBytes, got, res[0].Judged(), want)
		}
		res[0].Close()
	}
}
