//go:build unix

package lang

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// parseWithin is ParseDir that fails the test instead of hanging: before
// contract files and directories were type-checked, opening a named pipe
// with no writer blocked for ever.
func parseWithin(t *testing.T, dir string) (*Module, []string) {
	t.Helper()
	type result struct {
		m     *Module
		diags []string
	}
	done := make(chan result, 1)
	go func() {
		m, diags := ParseDir(dir)
		done <- result{m, renderAll(diags)}
	}()
	select {
	case r := <-done:
		return r.m, r.diags
	case <-time.After(10 * time.Second):
		t.Fatalf("ParseDir(%s) blocked for 10 s", dir)
		return nil, nil
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A contract file, a contract directory or an imported directory that is
// a named pipe is an error naming it, at once.
func TestNamedPipes(t *testing.T) {
	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"a/main.tenet.hcl": "contract \"a\" {}\nuse \"../pipe\" {}\n",
		"b/main.tenet.hcl": "contract \"b\" {}\n",
	})
	mkfifo(t, filepath.Join(tmp, "b", "more.tenet.hcl"))
	mkfifo(t, filepath.Join(tmp, "pipe"))

	_, diags := parseWithin(t, filepath.Join(tmp, "a"))
	want := `[use-missing] main.tenet.hcl:2:5-2:14: Imported directory not found: "../pipe" is a named pipe (FIFO); a use block imports a contract directory.`
	if len(diags) != 1 || diags[0] != want {
		t.Errorf("use of a pipe: %q", diags)
	}

	m, diags := parseWithin(t, filepath.Join(tmp, "b"))
	want = "[read-error] more.tenet.hcl:1:1-1:1: Cannot read contract file: " + filepath.Join(tmp, "b", "more.tenet.hcl") + " is a named pipe (FIFO), not a regular file"
	if len(diags) != 1 || diags[0] != want {
		t.Errorf("a contract file that is a pipe: %q", diags)
	}
	if len(m.Files) != 1 || m.Files[0].Path != "main.tenet.hcl" {
		t.Errorf("the other file is not read: %+v", m.Files)
	}

	_, diags = parseWithin(t, filepath.Join(tmp, "pipe"))
	want = "[read-error] Cannot read contract directory: " + filepath.Join(tmp, "pipe") + " is a named pipe (FIFO), not a directory"
	if len(diags) != 1 || diags[0] != want {
		t.Errorf("a contract directory that is a pipe: %q", diags)
	}
}
