package eval

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/lang/diag"
)

// This file is how this package's tests get a Program. Tests outside
// package eval use internal/evaltest, which these cannot import (it imports
// eval); the helpers here do the same thing: compiler.BuildDir or
// BuildFiles with the formats the readers know, then Load from the bundle
// bytes, as `tenet eval DIR` does.

// compileDir is the Program of the contract directory dir.
func compileDir(tb testing.TB, dir string) *Program {
	tb.Helper()
	return loadBuilt(tb, buildDir(tb, dir))
}

// compileProgram is the Program of a one-file contract (c.tenet.hcl).
func compileProgram(tb testing.TB, src string) *Program {
	tb.Helper()
	b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, testOptions())
	checkBuilt(tb, ".", b, diags)
	return loadBuilt(tb, b)
}

// buildDir is the compiled and encoded contract in dir.
func buildDir(tb testing.TB, dir string) *compiler.Built {
	tb.Helper()
	b, diags := compiler.BuildDir(dir, testOptions())
	checkBuilt(tb, dir, b, diags)
	return b
}

func testOptions() compiler.Options { return compiler.Options{Formats: transcript.Formats()} }

// checkBuilt fails the test when diags has an error, with the diagnostics
// as tenet prints them.
func checkBuilt(tb testing.TB, dir string, b *compiler.Built, diags hcl.Diagnostics) {
	tb.Helper()
	if !diags.HasErrors() {
		return
	}
	var files map[string]*hcl.File
	if b != nil && b.Module != nil {
		files = b.Module.FileMap()
	}
	var sb strings.Builder
	diag.WriteText(&sb, dir, files, diags)
	tb.Fatalf("compile %s:\n%s", dir, sb.String())
}

// loadBuilt loads the bundle bytes of b.
func loadBuilt(tb testing.TB, b *compiler.Built) *Program {
	tb.Helper()
	p, err := Load(b.Data)
	if err != nil {
		tb.Fatalf("load the bundle %s: %v", b.ID, err)
	}
	return p
}
