package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// A symbolic link is followed: the file it names gets the new content and
// the link stays a link, also when it dangles.
func TestCreateFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("made.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(b) != "x" {
		t.Fatalf("dangling link's target holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Fatalf("want target, link, dangling, made.txt; have %d entries", len(ents))
	}
}

// A destination that is not a regular file is written directly, never
// replaced: /dev/null stays a device, a FIFO stays a FIFO and its reader
// gets the data.
func TestCreateWritesDevicesDirectly(t *testing.T) {
	if err := Write(os.DevNull, []byte("discarded"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, fi.Mode(), err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := Write(fifo, []byte("through the pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("FIFO replaced: %v %v", fi.Mode(), err)
	}
}
