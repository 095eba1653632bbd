package initcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/lang/format"
)

// TestStarterIsCanonical: the contract init writes is in canonical layout,
// so that tenet fmt -check passes on a new directory.
func TestStarterIsCanonical(t *testing.T) {
	src, err := starter.ReadFile("starter/" + Files[0])
	if err != nil {
		t.Fatal(err)
	}
	out, diags := format.Format(src, Files[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !bytes.Equal(out, src) {
		t.Errorf("starter/%s is not in canonical layout: run tenet fmt on it", Files[0])
	}
}

// TestWriteRefusesNonEmpty: a directory with entries is refused, the
// first five named and the rest counted, and nothing is written.
func TestWriteRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := Write(dir)
	want := "(it holds a, b, c, d, e, and 2 more)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Write = %v, want an error containing %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, Files[0])); err == nil {
		t.Error("a refused directory was written to")
	}
}

// TestWriteCreatesAndWrites: a missing directory is created, with its
// parents, and holds the starter files byte for byte.
func TestWriteCreatesAndWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "starter")
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, n := range Files {
		want, _ := starter.ReadFile("starter/" + n)
		got, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, content equal %v", n, err, bytes.Equal(got, want))
		}
	}
}

func TestWriteRefusesFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(f); err == nil || err.Error() != f+" is a file: name a new or empty directory" {
		t.Errorf("Write(file) = %v", err)
	}
}

func TestNextStepsQuotes(t *testing.T) {
	var b bytes.Buffer
	NextSteps(&b, "it's here")
	if !strings.Contains(b.String(), `tenet check 'it'\''s here'  `) {
		t.Errorf("NextSteps does not quote the directory:\n%s", b.String())
	}
}
