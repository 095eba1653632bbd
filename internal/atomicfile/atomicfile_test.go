package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leftovers lists the files of dir other than want.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		keep := false
		for _, w := range want {
			keep = keep || e.Name() == w
		}
		if !keep {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestStreamCommit: the destination keeps its old content until Commit,
// then has the whole new one with the permissions asked for.
func TestStreamCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := f.Write([]byte("line\n")); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Fatalf("before Commit the destination holds %q", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: nothing
	b, err := os.ReadFile(path)
	if err != nil || string(b) != strings.Repeat("line\n", 3) {
		t.Fatalf("after Commit: %q, %v", b, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("permissions %v, want 0644", st.Mode().Perm())
	}
	if l := leftovers(t, dir, "out.jsonl"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
	if err := f.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
}

// TestStreamAbort: Abort removes the temporary file and leaves no
// destination (or the old one).
func TestStreamAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("partial")); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	f.Abort()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("destination exists after Abort: %v", err)
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Error("Write after Abort succeeded")
	}
}

// TestCreateErrorNamesDestination: a directory that does not exist is
// reported with the destination's name.
func TestCreateErrorNamesDestination(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "out.jsonl")
	_, err := Create(path, 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "writing "+path+": ") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("Create = %v, want an error naming %s", err, path)
	}
	if err := Write(path, []byte("x"), 0o644); err == nil || err.Error() != "writing "+path+": no such file or directory" {
		t.Errorf("Write = %v", err)
	}
}

// TestCommitFailureRemovesTemp: a rename that fails (the destination is a
// non-empty directory) removes the temporary file.
func TestCommitFailureRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	if err := f.Commit(); err == nil {
		t.Fatal("Commit over a non-empty directory succeeded")
	}
	if l := leftovers(t, dir, "out"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}
