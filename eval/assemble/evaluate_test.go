package assemble

import (
	"errors"
	"path/filepath"
	"testing"
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
	if Count(1, "bad record") != "1 bad record" || Count(0, "run") != "0 runs" {
		t.Errorf("Count: %q, %q", Count(1, "bad record"), Count(0, "run"))
	}
}
