// Package evaltest is the one way tests get an *eval.Program (or the
// compiled bundle behind it) from a contract: a directory, or sources held
// in memory. It takes the test's testing.TB and the contract; it gives
// what `tenet eval DIR` would judge with — the contract compiled with the
// transcript formats the readers know (compiler.BuildDir / BuildFiles),
// encoded to bundle bytes and loaded back from them (eval.Load) — or fails
// the test with the diagnostics printed as tenet's commands print them
// (lang/diag). It may import compiler, eval, eval/transcript and lang/diag;
// only tests import it, and tests inside those packages (and inside
// packages eval imports) cannot, so they build through compiler.BuildDir
// themselves.
package evaltest

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/lang/diag"
)

// Options are the compiler options `tenet build` and `tenet eval` use: a
// source may name only a format a reader exists for.
func Options() compiler.Options {
	return compiler.Options{Formats: transcript.Formats()}
}

// Build compiles and encodes the contract in dir. The test fails when a
// diagnostic is an error; warnings are returned with nothing said.
func Build(tb testing.TB, dir string) *compiler.Built {
	tb.Helper()
	b, diags := compiler.BuildDir(dir, Options())
	check(tb, dir, b, diags)
	return b
}

// BuildFrom is Build for sources in memory: file name → contents, the
// names relative to the current directory (diagnostics show them as they
// are).
func BuildFrom(tb testing.TB, files map[string][]byte) *compiler.Built {
	tb.Helper()
	b, diags := compiler.BuildFiles(".", files, Options())
	check(tb, ".", b, diags)
	return b
}

// Program is the contract in dir loaded from its bundle bytes, as
// `tenet eval DIR` loads it.
func Program(tb testing.TB, dir string) *eval.Program {
	tb.Helper()
	return Load(tb, Build(tb, dir))
}

// ProgramFrom is Program for sources in memory (see BuildFrom).
func ProgramFrom(tb testing.TB, files map[string][]byte) *eval.Program {
	tb.Helper()
	return Load(tb, BuildFrom(tb, files))
}

// Load plans the bundle bytes of b (from Build or BuildFrom, for a test
// that needs the Module as well, e.g. its test blocks). A bundle the
// compiler made that does not load is a bug in tenet, not in the test's
// contract; the test fails with Load's error.
func Load(tb testing.TB, b *compiler.Built) *eval.Program {
	tb.Helper()
	p, err := eval.Load(b.Data)
	if err != nil {
		tb.Fatalf("load the bundle %s: %v", b.ID, err)
	}
	return p
}

// check fails the test when diags has an error, printing every diagnostic
// (warnings too, for context) with its file:line:col, code and snippet.
func check(tb testing.TB, dir string, b *compiler.Built, diags hcl.Diagnostics) {
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
