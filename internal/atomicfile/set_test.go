package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// setDir makes a directory holding each name with the content "old NAME".
func setDir(t *testing.T, names ...string) (dir string, paths []string) {
	t.Helper()
	dir = t.TempDir()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("old "+n), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return dir, paths
}

// checkContents fails unless each path holds its want.
func checkContents(t *testing.T, want map[string]string) {
	t.Helper()
	for p, w := range want {
		if b, err := os.ReadFile(p); err != nil || string(b) != w {
			t.Errorf("%s holds %q (%v), want %q", filepath.Base(p), b, err, w)
		}
	}
}

// writeSet creates each path in s and writes "new NAME" to it; Write
// errors are left for Commit to report.
func writeSet(t *testing.T, s *Set, paths ...string) {
	t.Helper()
	for _, p := range paths {
		f, err := s.Create(p, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("new " + filepath.Base(p)))
	}
}

// isTempOf reports whether f is the temporary file of destination dest.
func isTempOf(f *os.File, dest string) bool {
	m, _ := filepath.Match("."+filepath.Base(dest)+".tmp-*", filepath.Base(f.Name()))
	return m
}

func TestSetCommit(t *testing.T) {
	dir, paths := setDir(t, "runs.jsonl", "report.json")
	var s Set
	writeSet(t, &s, paths...)
	checkContents(t, map[string]string{paths[0]: "old runs.jsonl", paths[1]: "old report.json"})
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Abort() // after Commit: nothing
	checkContents(t, map[string]string{paths[0]: "new runs.jsonl", paths[1]: "new report.json"})
	if l := leftovers(t, dir, "runs.jsonl", "report.json"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
	if err := s.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
	if _, err := s.Create(filepath.Join(dir, "more"), 0o644); err == nil {
		t.Error("Create after Commit succeeded")
	}
}

// A full disk while the last output is written (the runs file is whole,
// the report is not): nothing is replaced, and the error says so.
func TestSetFullDiskReplacesNothing(t *testing.T) {
	dir, paths := setDir(t, "runs.jsonl", "report.json")
	s := Set{fs: &fileSystem{write: func(f *os.File, b []byte) (int, error) {
		if isTempOf(f, paths[1]) {
			return 0, syscall.ENOSPC
		}
		return f.Write(b)
	}}}
	writeSet(t, &s, paths...)
	err := s.Commit()
	want := "writing " + paths[1] + ": no space left on device; not replaced (left as they were): " + paths[0]
	var se *SetError
	if err == nil || err.Error() != want || !errors.Is(err, syscall.ENOSPC) || !errors.As(err, &se) {
		t.Fatalf("Commit = %v\nwant %s", err, want)
	}
	checkContents(t, map[string]string{paths[0]: "old runs.jsonl", paths[1]: "old report.json"})
	if l := leftovers(t, dir, "runs.jsonl", "report.json"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}

// A sync that fails (the disk fills when the data reaches it) is the same.
func TestSetSyncFailureReplacesNothing(t *testing.T) {
	dir, paths := setDir(t, "a", "b", "c")
	s := Set{fs: &fileSystem{sync: func(f *os.File) error {
		if isTempOf(f, paths[0]) {
			return syscall.EIO
		}
		return f.Sync()
	}}}
	writeSet(t, &s, paths...)
	err := s.Commit()
	want := "writing " + paths[0] + ": input/output error; not replaced (left as they were): " + paths[1] + ", " + paths[2]
	if err == nil || err.Error() != want {
		t.Fatalf("Commit = %v\nwant %s", err, want)
	}
	checkContents(t, map[string]string{paths[0]: "old a", paths[1]: "old b", paths[2]: "old c"})
	if l := leftovers(t, dir, "a", "b", "c"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}

// A rename that fails after another succeeded: the error names exactly
// what was replaced and what was not, and no temporary file is left.
func TestSetRenameFailsMidway(t *testing.T) {
	dir, paths := setDir(t, "a", "b", "c")
	var renamed []string
	s := Set{fs: &fileSystem{rename: func(oldpath, newpath string) error {
		if newpath == paths[1] {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EIO}
		}
		renamed = append(renamed, filepath.Base(newpath))
		return os.Rename(oldpath, newpath)
	}}}
	writeSet(t, &s, paths...)
	err := s.Commit()
	var se *SetError
	if !errors.As(err, &se) || len(se.Replaced) != 1 || se.Replaced[0] != paths[0] || len(se.Kept) != 1 || se.Kept[0] != paths[2] || len(se.Direct) != 0 {
		t.Fatalf("Commit = %#v", err)
	}
	if msg := err.Error(); !errors.Is(err, syscall.EIO) || msg != "writing "+paths[1]+": input/output error; replaced: "+paths[0]+"; not replaced (left as they were): "+paths[2] {
		t.Errorf("message %q", msg)
	}
	if len(renamed) != 1 || renamed[0] != "a" {
		t.Errorf("renamed %q, want only a (no rename after the failure)", renamed)
	}
	checkContents(t, map[string]string{paths[0]: "new a", paths[1]: "old b", paths[2]: "old c"})
	if l := leftovers(t, dir, "a", "b", "c"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}

// An output that cannot be created names the outputs already in the set;
// aborting the set leaves them as they were.
func TestSetCreateFails(t *testing.T) {
	dir, paths := setDir(t, "runs.jsonl")
	var s Set
	writeSet(t, &s, paths[0])
	missing := filepath.Join(dir, "missing", "report.json")
	_, err := s.Create(missing, 0o644)
	want := "writing " + missing + ": no such file or directory; not replaced (left as they were): " + paths[0]
	if err == nil || err.Error() != want {
		t.Fatalf("Create = %v\nwant %s", err, want)
	}
	s.Abort()
	checkContents(t, map[string]string{paths[0]: "old runs.jsonl"})
	if l := leftovers(t, dir, "runs.jsonl"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
	if err := s.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

// A real full device: /dev/full is written directly, its write fails, and
// the regular output of the set is not replaced. A device written before
// another output fails is listed apart (what it got cannot be taken back).
func TestSetDevices(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	dir, paths := setDir(t, "runs.jsonl")
	var s Set
	writeSet(t, &s, paths[0], "/dev/full")
	err := s.Commit()
	want := "writing /dev/full: no space left on device; not replaced (left as they were): " + paths[0]
	if err == nil || err.Error() != want {
		t.Errorf("Commit = %v\nwant %s", err, want)
	}
	checkContents(t, map[string]string{paths[0]: "old runs.jsonl"})

	s = Set{fs: &fileSystem{write: func(f *os.File, b []byte) (int, error) {
		if isTempOf(f, paths[0]) {
			return 0, syscall.ENOSPC
		}
		return f.Write(b)
	}}}
	writeSet(t, &s, os.DevNull, paths[0])
	err = s.Commit()
	want = "writing " + paths[0] + ": no space left on device; written directly (not regular files): " + os.DevNull
	if err == nil || err.Error() != want {
		t.Errorf("Commit = %v\nwant %s", err, want)
	}
	checkContents(t, map[string]string{paths[0]: "old runs.jsonl"})
	if l := leftovers(t, dir, "runs.jsonl"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}

// A File of a set is committed by the set only; one output alone gives
// the plain error.
func TestSetOwnsItsFiles(t *testing.T) {
	dir, paths := setDir(t, "a")
	s := Set{fs: &fileSystem{sync: func(*os.File) error { return syscall.EIO }}}
	f, err := s.Create(paths[0], 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err == nil || err.Error() != "writing "+paths[0]+": part of a set: commit the set" {
		t.Errorf("File.Commit = %v", err)
	}
	if err := s.Commit(); err == nil || err.Error() != "writing "+paths[0]+": input/output error" {
		t.Errorf("Commit = %v", err)
	}
	checkContents(t, map[string]string{paths[0]: "old a"})
	if l := leftovers(t, dir, "a"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}

// An interrupt (Stop) before Commit: nothing is replaced.
func TestSetStop(t *testing.T) {
	reset := func() {
		mu.Lock()
		stopped, open, committed = false, map[*File]bool{}, nil
		mu.Unlock()
	}
	reset()
	t.Cleanup(reset)
	dir, paths := setDir(t, "a", "b")
	var s Set
	writeSet(t, &s, paths...)
	Stop()
	err := s.Commit()
	if !errors.Is(err, ErrStopped) || err.Error() != "interrupted; not replaced (left as they were): "+paths[0]+", "+paths[1] {
		t.Errorf("Commit = %v", err)
	}
	checkContents(t, map[string]string{paths[0]: "old a", paths[1]: "old b"})
	if l := leftovers(t, dir, "a", "b"); len(l) != 0 {
		t.Errorf("left behind %q", l)
	}
}
