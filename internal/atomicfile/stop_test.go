package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestStop: Stop removes the temporary file of a write in progress, which
// then fails to commit; a file committed before stays whole; later writes
// fail; Stop names what was committed.
func TestStop(t *testing.T) {
	reset := func() {
		mu.Lock()
		stopped, open, committed = false, map[*File]bool{}, nil
		mu.Unlock()
	}
	reset()
	t.Cleanup(reset)
	dir := t.TempDir()
	done, pending := filepath.Join(dir, "done"), filepath.Join(dir, "pending")
	if err := Write(done, []byte("whole\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(pending, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	if got := Stop(); !slices.Equal(got, []string{done}) {
		t.Errorf("Stop() = %q, want [%s]", got, done)
	}
	if _, err := os.Stat(f.tmp.Name()); !os.IsNotExist(err) {
		t.Errorf("temporary file still there: %v", err)
	}
	f.Write([]byte(" more")) // its writer carries on, into an unlinked file
	if err := f.Commit(); !errors.Is(err, ErrStopped) {
		t.Errorf("Commit after Stop: %v, want ErrStopped", err)
	}
	if _, err := Create(filepath.Join(dir, "later"), 0o644); !errors.Is(err, ErrStopped) {
		t.Errorf("Create after Stop: %v, want ErrStopped", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "done" {
		t.Errorf("directory holds %v, want only done", entries)
	}
	if b, _ := os.ReadFile(done); string(b) != "whole\n" {
		t.Errorf("done holds %q", b)
	}
	if got := Stop(); !slices.Equal(got, []string{done}) {
		t.Errorf("second Stop() = %q", got)
	}
}
