//go:build unix

package readlimit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// withinTime runs f and fails the test if it takes more than 10 s: opening
// a named pipe with no writer blocks forever, and the test must say so
// rather than hang.
func withinTime(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked for 10 s", what)
		return nil
	}
}

// A named pipe (nobody writes to it) is refused at once, as a file and as
// a directory, with an error naming what it is.
func TestNamedPipeRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "main.tenet.hcl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	err := withinTime(t, "ReadFile of a FIFO", func() error { _, err := ReadFile(fifo, 1<<20); return err })
	var te *FileTypeError
	if !errors.As(err, &te) || te.Mode != fs.ModeNamedPipe || err.Error() != fifo+" is a named pipe (FIFO), not a regular file" {
		t.Errorf("ReadFile: %v", err)
	}
	err = withinTime(t, "ReadDir of a FIFO", func() error { _, err := ReadDir(fifo); return err })
	if err == nil || err.Error() != fifo+" is a named pipe (FIFO), not a directory" {
		t.Errorf("ReadDir: %v", err)
	}
	// Through a symbolic link: the link is followed, the pipe refused.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	err = withinTime(t, "OpenRegular of a link to a FIFO", func() error { _, err := OpenRegular(link); return err })
	if err == nil || err.Error() != link+" is a named pipe (FIFO), not a regular file" {
		t.Errorf("OpenRegular via a link: %v", err)
	}
}

// An anonymous pipe reached by name (/dev/fd/N, what a shell's <(cmd)
// gives) is refused like a named one.
func TestAnonymousPipeRefused(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	name := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	err = withinTime(t, "ReadFile of a pipe", func() error { _, err := ReadFile(name, 1<<20); return err })
	if err == nil || err.Error() != name+" is a named pipe (FIFO), not a regular file" {
		t.Errorf("ReadFile: %v", err)
	}
}

// Wrong kinds the other way round, and ReadDir's order.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "c", "a"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := ReadDir(dir)
	if err != nil || len(entries) != 3 || entries[0].Name() != "a" || entries[1].Name() != "b" || entries[2].Name() != "c" {
		t.Errorf("ReadDir = %v, %v", entries, err)
	}
	file := filepath.Join(dir, "a")
	if _, err := ReadDir(file); err == nil || err.Error() != file+" is a regular file, not a directory" {
		t.Errorf("ReadDir of a file: %v", err)
	}
	if _, err := OpenRegular(dir); err == nil || err.Error() != dir+" is a directory, not a regular file" {
		t.Errorf("OpenRegular of a directory: %v", err)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("ReadDir of a missing directory: %v", err)
	}
}
