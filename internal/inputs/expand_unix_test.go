//go:build unix

// Symbolic links and named pipes, as unix has them.

package inputs

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExpand: arguments in order, each directory in byte-wise path order,
// hidden entries skipped, --include on base names or (with /) relative
// paths, symbolic links to files and directories followed.
func TestExpand(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, f := range []string{"d/a/t.jsonl", "d/a.x/t.jsonl", "d/B.jsonl", "d/notes.txt", "d/.hidden.jsonl",
		"d/.git/x.jsonl", "d/a/deep/u.jsonl.gz", "other/o.jsonl", "f.jsonl"} {
		write(t, f, "{}\n")
	}
	if err := os.Symlink("../other", "d/link"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		include []string
		want    []string
	}{
		{[]string{"f.jsonl", "d"}, nil, []string{"f.jsonl", "d/B.jsonl", "d/a.x/t.jsonl", "d/a/deep/u.jsonl.gz", "d/a/t.jsonl", "d/link/o.jsonl", "d/notes.txt"}},
		{[]string{"d", "f.jsonl"}, []string{"*.jsonl"}, []string{"d/B.jsonl", "d/a.x/t.jsonl", "d/a/t.jsonl", "d/link/o.jsonl", "f.jsonl"}},
		{[]string{"d"}, []string{"*.jsonl", "*.gz"}, []string{"d/B.jsonl", "d/a.x/t.jsonl", "d/a/deep/u.jsonl.gz", "d/a/t.jsonl", "d/link/o.jsonl"}},
		{[]string{"d"}, []string{"a/*"}, []string{"d/a/t.jsonl"}},
		{[]string{"d"}, []string{"a/*/*"}, []string{"d/a/deep/u.jsonl.gz"}},
	} {
		l, err := Expand(c.args, Options{Include: c.include})
		if err != nil {
			t.Errorf("%q %q: %v", c.args, c.include, err)
			continue
		}
		if strings.Join(l.Files, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q %q:\n got %q\nwant %q", c.args, c.include, l.Files, c.want)
		}
	}
}

// TestExpandErrors: what Expand refuses, before reading.
func TestExpandErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	write(t, "loop/a/t.jsonl", "{}\n")
	if err := os.Symlink("..", "loop/a/up"); err != nil {
		t.Fatal(err)
	}
	write(t, "dangling/t.jsonl", "{}\n")
	if err := os.Symlink("nowhere", "dangling/x.jsonl"); err != nil {
		t.Fatal(err)
	}
	write(t, "fifo/t.jsonl", "{}\n")
	if err := syscall.Mkfifo("fifo/p.jsonl", 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, "twice/t.jsonl", "{}\n")
	os.MkdirAll("empty/.hidden", 0o755)
	write(t, "c/main.tenet.hcl", "contract \"c\" {}\n")
	for _, c := range []struct {
		args    []string
		include []string
		want    string
	}{
		{nil, nil, "no transcript files to evaluate"},
		{[]string{"-", "x", "-"}, nil, "- (standard input) is given twice: it can be read once"},
		{[]string{"empty"}, nil, "empty: no file to read in this directory (hidden files and directories are skipped)"},
		{[]string{"twice"}, []string{"*.gz"}, "twice: no file to read in this directory (none matches --include *.gz; hidden files and directories are skipped)"},
		{[]string{"twice"}, []string{"[x"}, `--include "[x": syntax error in pattern`},
		{[]string{"loop"}, nil, "loop/a/up: symbolic link loop: it leads back to loop"},
		{[]string{"dangling"}, nil, "dangling/x.jsonl: a symbolic link that leads nowhere readable: stat dangling/x.jsonl: no such file or directory"},
		{[]string{"fifo"}, nil, "fifo/p.jsonl is a named pipe (FIFO), not a regular file (it may never end); move it out or narrow --include"},
		{[]string{"twice", "twice/t.jsonl"}, nil, "twice/t.jsonl is given twice (also as twice/t.jsonl)"},
		{[]string{"missing"}, nil, "stat missing: no such file or directory"},
		{[]string{"-", StdinName}, nil, "<stdin> names standard input here; write ./<stdin> for the file of that name"},
		{[]string{"twice", "c"}, nil, "c is the contract; give the transcripts after it"},
		{[]string{"c/main.tenet.hcl"}, nil, "c/main.tenet.hcl is a contract source, not a transcript"},
		{[]string{"."}, []string{"*.hcl"}, "c/main.tenet.hcl is a contract source, not a transcript (is c a contract directory? narrow --include)"},
	} {
		_, err := Expand(c.args, Options{Include: c.include, Contract: "./c"})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q %q: %v; want %q", c.args, c.include, err, c.want)
		}
	}
	// The FIFO is not opened (that would wait): narrowing --include skips it.
	if l, err := Expand([]string{"fifo"}, Options{Include: []string{"t.*"}}); err != nil || len(l.Files) != 1 {
		t.Errorf("fifo with --include t.*: %v, %v", l, err)
	}
}

// TestStdin: "-" is spooled once and read whole at every Open (one pass
// per transcript format), named StdinName; the copy leaves no file.
func TestStdin(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	in := filepath.Join(dir, "in")
	write(t, in, "line 1\nline 2\n")
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := Expand([]string{"-"}, Options{Stdin: f})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(l.Files, " ") != StdinName || l.Size(StdinName) != 14 {
		t.Fatalf("files %q, size %d", l.Files, l.Size(StdinName))
	}
	for range 2 {
		r, err := l.Open(StdinName)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if string(b) != "line 1\nline 2\n" {
			t.Errorf("read %q", b)
		}
	}
	// On unix the copy is unlinked as soon as it is made: a tenet killed
	// before Close leaves nothing behind.
	if spooled, _ := filepath.Glob(filepath.Join(dir, "tenet-stdin-*")); len(spooled) != 0 {
		t.Errorf("the copy of standard input has a name: %q", spooled)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestStdinSameFile: standard input redirected from a file also named is
// that file given twice.
func TestStdinSameFile(t *testing.T) {
	t.Chdir(t.TempDir())
	write(t, "t.jsonl", "{}\n")
	f, err := os.Open("t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = Expand([]string{"t.jsonl", "-"}, Options{Stdin: f})
	if want := "t.jsonl is given twice (also as -, standard input)"; err == nil || err.Error() != want {
		t.Errorf("got %v; want %q", err, want)
	}
}
