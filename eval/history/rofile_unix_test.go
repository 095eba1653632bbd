//go:build unix

package history

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestReadOnlyFileRefusedAtOpen: a database file the process may not
// write, in a directory it may, is refused by Open, not at the first
// write: SQLite opens such a file read-only without a word, so tenet eval
// --record judged everything, wrote its outputs, and only then failed.
// Nothing is created beside the file. Root ignores file modes: as root the
// test opens the file as user nobody, in a child process.
func TestReadOnlyFileRefusedAtOpen(t *testing.T) {
	dir, err := os.MkdirTemp("", "tenet-history-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil { // writable by the child as nobody
		t.Fatal(err)
	}
	path := filepath.Join(dir, "h.db")
	readOnlyDatabase(t, path)
	want := "cannot write " + path + ": read-only (file or directory)"
	if os.Geteuid() != 0 {
		if _, err := Open(path); err == nil || err.Error() != want {
			t.Fatalf("Open = %v, want %q", err, want)
		}
	} else if out := asNobody(t, dir, path); out != want+"\n" {
		t.Fatalf("Open as nobody: %q, want %q", out, want+"\n")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"h.db"}) {
		t.Errorf("files beside the database after the refusal: %v, want only h.db", names)
	}
}

// TestCanCreateReadOnlyDirectory: a directory that takes no new file is
// refused by CanCreate, which tenet eval --record calls before judging;
// nothing is left in it. As root, checked as user nobody in a child.
func TestCanCreateReadOnlyDirectory(t *testing.T) {
	dir, err := os.MkdirTemp("", "tenet-history-rodir-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	if err := CanCreate(filepath.Join(dir, "h.db")); err != nil {
		t.Fatalf("CanCreate in a writable directory: %v", err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	want := "cannot create " + filepath.Join(ro, "h.db") + ": its directory is read-only"
	if os.Geteuid() != 0 {
		if err := CanCreate(filepath.Join(ro, "h.db")); err == nil || err.Error() != want {
			t.Fatalf("CanCreate = %v, want %q", err, want)
		}
	} else if out := asNobody(t, dir, "create:"+ro); out != want+"\n" {
		t.Fatalf("CanCreate as nobody: %q, want %q", out, want+"\n")
	}
	if entries, _ := os.ReadDir(ro); len(entries) != 0 {
		t.Errorf("%d files left in the read-only directory", len(entries))
	}
}

// asNobody runs this test binary as user nobody (the caller is root) with
// envOpen=spec, from a copy in dir (the go test binary's own directory is
// root's alone), and returns what it printed.
func asNobody(t *testing.T, dir, spec string) string {
	t.Helper()
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "history.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(bin)
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), envOpen+"="+spec)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, _ := cmd.CombinedOutput()
	return string(out)
}
