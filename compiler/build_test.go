package compiler_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang/diag"
)

// TestBuildDir: a contract builds to the bytes and id bundle.Encode gives
// its compiled bundle (the id the quickstart's golden records), and a
// contract with errors gives its module and diagnostics but no bundle.
func TestBuildDir(t *testing.T) {
	dir := filepath.Join("..", "examples", "quickstart")
	built, diags := compiler.BuildDir(dir, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	const want = "sha256:c602768efefa34758131e510ad2e7290134baa161bab31f4354b244aa39d589b"
	if built.ID != want {
		t.Errorf("id %s, want %s", built.ID, want)
	}
	b, id, err := bundle.Decode(built.Data)
	if err != nil || id != built.ID || b.Manifest.Contract != built.Bundle.Manifest.Contract {
		t.Fatalf("the bytes decode to %s, %v", id, err)
	}
	if got := built.Bundle.Summary(); got != "ok: contract quickstart-mail 0.1.0: 2 tools, 1 predicate, 2 tasks, 1 goal, 2 security cases, 1 source" {
		t.Errorf("summary %q", got)
	}

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "a.tenet.hcl"), []byte("contract \"c\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	built, diags = compiler.BuildDir(bad, compiler.Options{})
	if !diags.HasErrors() || diag.Of(diags[0]) != "missing-threat-model" {
		t.Fatalf("diagnostics %v, want missing-threat-model", diags)
	}
	if built.Module == nil || len(built.Module.Files) != 1 || built.Bundle != nil || built.Data != nil || built.ID != "" {
		t.Fatalf("a contract with errors gives %+v, want its module alone", built)
	}
}
