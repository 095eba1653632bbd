package tenet_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
)

// quickstartCopy copies examples/quickstart into a temporary directory
// (so that a test may change it) and returns the directory.
func quickstartCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "quickstart")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"contract.tenet.hcl", "transcripts.jsonl"} {
		b, err := os.ReadFile(filepath.Join("examples", "quickstart", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// documentJSON evaluates the directory's transcripts with b and returns
// the report document as JSON.
func documentJSON(t *testing.T, b *tenet.Bundle, dir string) string {
	t.Helper()
	ev, err := b.Evaluate([]string{filepath.Join(dir, "transcripts.jsonl")}, tenet.EvalOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(ev.Document)
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}

// TestOpenWithCache: the first Open of a directory compiles it (its
// diagnostics reported) and stores the bundle; the second takes it from
// the cache (nothing compiled, nothing reported), with the same id and
// bytes, and judges the same; a changed source is compiled again.
func TestOpenWithCache(t *testing.T) {
	dir := quickstartCopy(t)
	c := cache.New(t.TempDir(), "test binary")
	compiles := 0
	open := func() *tenet.Bundle {
		t.Helper()
		b, err := tenet.Open(dir, tenet.WithCache(c), tenet.WithDiagnostics(func(string, map[string]*hcl.File, hcl.Diagnostics) { compiles++ }))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := open()
	second := open()
	if compiles != 1 {
		t.Fatalf("%d compiles for two Opens, want 1 (the second from the cache)", compiles)
	}
	plain, err := tenet.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if second.ID() != plain.ID() || !bytes.Equal(second.Bytes(), plain.Bytes()) || first.ID() != plain.ID() {
		t.Fatalf("ids %s (compiled, stored), %s (from the cache), %s (no cache): want one", first.ID(), second.ID(), plain.ID())
	}
	// Taken from the cache, it has no test blocks: Test says so rather
	// than pass with none.
	if _, err := second.Test(tenet.TestOptions{}); err == nil || !strings.Contains(err.Error(), "compile cache") {
		t.Errorf("Test of a bundle from the cache: %v, want a refusal naming the cache", err)
	}
	if got, want := documentJSON(t, second, dir), documentJSON(t, plain, dir); got != want {
		t.Errorf("the bundle from the cache reports\n%s\nwithout the cache\n%s", got, want)
	}
	// A policy refuses a bundle from the cache as it refuses one compiled.
	wrong := "sha256:" + strings.Repeat("0", 64)
	_, errCached := tenet.Open(dir, tenet.WithCache(c), tenet.ExpectIDs(wrong))
	_, errPlain := tenet.Open(dir, tenet.ExpectIDs(wrong))
	if errCached == nil || errPlain == nil || errCached.Error() != errPlain.Error() {
		t.Errorf("ExpectIDs: from the cache %v, compiled %v; want the same refusal", errCached, errPlain)
	}
	// Another source: compiled again, then from the cache again.
	f, err := os.OpenFile(filepath.Join(dir, "contract.tenet.hcl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n# a comment changes the bytes, and the bundle's file digest\n")
	f.Close()
	changed := open()
	open()
	if compiles != 2 || changed.ID() == first.ID() {
		t.Errorf("after a change: %d compiles (want 2), id %s (was %s)", compiles, changed.ID(), first.ID())
	}
}

// TestCacheKeepsNoWarnings: a contract compiled with warnings is not
// stored, so that every Open prints them, as without the cache.
func TestCacheKeepsNoWarnings(t *testing.T) {
	dir := quickstartCopy(t)
	f, err := os.OpenFile(filepath.Join(dir, "contract.tenet.hcl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\npredicate \"unused\" {\n  expr = \"size(calls) > 0\"\n}\n")
	f.Close()
	cdir := t.TempDir()
	c := cache.New(cdir, "test binary")
	var warnings []string
	for range 2 {
		b, err := tenet.Open(dir, tenet.WithCache(c), tenet.WithDiagnostics(func(_ string, _ map[string]*hcl.File, diags hcl.Diagnostics) {
			for _, d := range diags {
				warnings = append(warnings, d.Summary)
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Warnings()) != 1 {
			t.Fatalf("warnings %v, want one", b.Warnings())
		}
	}
	if strings.Join(warnings, "|") != "Unused predicate|Unused predicate" {
		t.Errorf("warnings reported %q, want the unused predicate twice", warnings)
	}
	if entries, _ := os.ReadDir(cdir); len(entries) != 0 {
		t.Errorf("cache holds %d entries, want none", len(entries))
	}
}

// TestProgramRecordsVerified: a bundle file is planned with every check
// the first time and recorded as verified; a bundle that fails the checks
// is refused every time and never recorded.
func TestProgramRecordsVerified(t *testing.T) {
	c := cache.New(t.TempDir(), "test binary")
	b, err := tenet.Build(filepath.Join("examples", "quickstart"))
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := tenet.LoadBundle(b.Bytes(), tenet.WithCache(c))
	if err != nil {
		t.Fatal(err)
	}
	if c.Verified(b.ID()) {
		t.Fatal("verified before Program")
	}
	if _, err := loaded.Program(); err != nil {
		t.Fatal(err)
	}
	if !c.Verified(b.ID()) {
		t.Fatal("not recorded as verified after Program")
	}
	// Tampered: a predicate's text no longer what runs (a valid bundle of
	// its own id, as an edited and re-hashed payload is).
	dec, _, err := bundle.Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	i := dec.Decls.Scopes[0].Predicates[0].Expr
	dec.Exprs[i].Text = "calls"
	data, id, err := bundle.Encode(dec)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		tb, err := tenet.LoadBundle(data, tenet.WithCache(c))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Program(); err == nil || !strings.Contains(err.Error(), "its compiled form is not its text's") {
			t.Fatalf("tampered bundle planned: %v", err)
		}
	}
	if c.Verified(id) {
		t.Error("a refused bundle recorded as verified")
	}
}
