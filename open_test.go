package tenet_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
)

// TestOpenDirAndFile: Open builds a directory and reads a bundle file to
// the same id; a directory under a policy with keys is refused before it
// is compiled (no diagnostics reported); a directory's diagnostics reach
// WithDiagnostics.
func TestOpenDirAndFile(t *testing.T) {
	var seen []string
	dirB, err := tenet.Open("examples/quickstart", tenet.WithDiagnostics(func(dir string, _ map[string]*hcl.File, _ hcl.Diagnostics) {
		seen = append(seen, dir)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "examples/quickstart" {
		t.Errorf("diagnostics reported for %q, want once for examples/quickstart", seen)
	}
	file := filepath.Join(t.TempDir(), "q.tnb")
	if err := os.WriteFile(file, dirB.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fileB, err := tenet.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	if fileB.ID() != dirB.ID() || !strings.HasPrefix(dirB.ID(), "sha256:") {
		t.Errorf("file id %s, directory id %s: want the same sha256 id", fileB.ID(), dirB.ID())
	}
	seen = nil
	_, err = tenet.Open("examples/quickstart", tenet.TrustKeys(make([]byte, 32)), tenet.WithDiagnostics(func(dir string, _ map[string]*hcl.File, _ hcl.Diagnostics) {
		seen = append(seen, dir)
	}))
	var ude *tenet.UnsignedDirError
	if !errors.As(err, &ude) || ude.Dir != "examples/quickstart" || seen != nil {
		t.Errorf("directory under a key policy: %v (diagnostics for %q); want *UnsignedDirError before compiling", err, seen)
	}
}

// TestInspect: Inspect lists the bundle under its id, with no mismatch for
// a bundle just compiled.
func TestInspect(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	issues, err := b.Inspect(&out, 0, true)
	if err != nil || issues.Len() != 0 {
		t.Fatalf("Inspect: %v, %d mismatches; want none", err, issues.Len())
	}
	if want := "bundle " + b.ID() + "\nunsigned\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("Inspect wrote %.80q…, want it to start %q", out.String(), want)
	}
}
