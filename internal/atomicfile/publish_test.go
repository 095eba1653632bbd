package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestPublish: the report and the set's other outputs are in place
// together; a report for stdout is printed after the set is committed, and
// a report that cannot be created leaves the other outputs as they were.
func TestPublish(t *testing.T) {
	dir := t.TempDir()
	runs, rep := filepath.Join(dir, "runs.jsonl"), filepath.Join(dir, "report.txt")
	read := func(name string) string {
		data, err := os.ReadFile(name)
		if err != nil {
			return "(" + err.Error() + ")"
		}
		return string(data)
	}

	var s Set
	f, err := s.Create(runs, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("runs 1"))
	var stdout bytes.Buffer
	if err := s.Publish(rep, []byte("report 1"), 0o644, &stdout); err != nil {
		t.Fatal(err)
	}
	if read(runs) != "runs 1" || read(rep) != "report 1" || stdout.Len() != 0 {
		t.Fatalf("to a file: runs %q, report %q, stdout %q", read(runs), read(rep), stdout.String())
	}

	s = Set{}
	f, err = s.Create(runs, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("runs 2"))
	if err := s.Publish("", []byte("report 2"), 0o644, &stdout); err != nil {
		t.Fatal(err)
	}
	if read(runs) != "runs 2" || stdout.String() != "report 2" {
		t.Fatalf("to stdout: runs %q, stdout %q", read(runs), stdout.String())
	}

	s = Set{}
	f, err = s.Create(runs, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("runs 3"))
	if err := s.Publish(filepath.Join(dir, "missing", "report.txt"), []byte("report 3"), 0o644, &stdout); err == nil {
		t.Fatal("a report in a missing directory was published")
	}
	if read(runs) != "runs 2" {
		t.Fatalf("the runs file was replaced (%q) although the report failed", read(runs))
	}
}
