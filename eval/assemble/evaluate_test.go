package assemble

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval/pipeline"
)

// TestSortDirNear: the sorters spill next to the runs file, unless its
// directory is missing or it is not a regular file.
func TestSortDirNear(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "runs.jsonl"), dir},
		{filepath.Join(dir, "missing", "runs.jsonl"), ""},
		{"/dev/null", ""},
	} {
		if got := SortDirNear(c.out); got != c.want {
			t.Errorf("SortDirNear(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

// TestBadRecordsError: the count, then each line; the records' errors
// are unwrapped.
func TestBadRecordsError(t *testing.T) {
	first := errors.New("a.jsonl:2: not JSON")
	e := &BadRecordsError{N: 3, Lines: []string{first.Error(), "... 2 more bad records not shown"}, errs: []error{first}}
	if want := "3 bad records:\na.jsonl:2: not JSON\n... 2 more bad records not shown"; e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if !errors.Is(e, first) {
		t.Error("errors.Is(e, first record's error) = false")
	}
}

// TestEvaluateChecksInputs: the inputs tenet eval refuses are refused by
// Evaluate itself, before anything is read and with the CLI's words, so
// the Go API cannot judge a directory as a file or a file twice: it expands
// its files as tenet eval does.
func TestEvaluateChecksInputs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files []string
		opt   pipeline.Options
		want  string
	}{
		{"no files", nil, pipeline.Options{}, "no transcript files to evaluate"},
		// A directory is walked (internal/inputs): a file in it is then
		// given twice; a directory with nothing to read is an error.
		{"directory", []string{a, dir}, pipeline.Options{}, a + " is given twice (also as " + a + ")"},
		{"empty directory", []string{empty}, pipeline.Options{}, empty + ": no file to read in this directory (hidden files and directories are skipped)"},
		{"stdin twice", []string{"-", a, "-"}, pipeline.Options{}, "- (standard input) is given twice: it can be read once"},
		{"twice", []string{a, filepath.Join(dir, ".", "a.jsonl")}, pipeline.Options{}, filepath.Join(dir, ".", "a.jsonl") + " is given twice (also as " + a + ")"},
		{"missing", []string{missing}, pipeline.Options{}, "stat " + missing + ": no such file or directory"},
		{"workers", []string{a}, pipeline.Options{Workers: MaxWorkers + 1}, "Options.Workers 1025: want 0 (one per CPU) to 1024"},
		{"negative workers", []string{a}, pipeline.Options{Workers: -1}, "Options.Workers -1: want 0 (one per CPU) to 1024"},
	} {
		ev, err := Evaluate(EvalInput{Files: c.files, Options: c.opt})
		if ev != nil || err == nil || err.Error() != c.want {
			t.Errorf("%s: Evaluate = %v, %v; want the error %q", c.name, ev, err, c.want)
		}
		if c.name == "missing" && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing: errors.Is(%v, fs.ErrNotExist) = false", err)
		}
	}
}
