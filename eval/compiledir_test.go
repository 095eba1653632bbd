package eval

import (
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
)

// compileDir compiles a contract directory through the bundle encoding, as
// tenet eval DIR does. (Its twin in eval/pipeline's tests went there with
// the file pipeline.)
func compileDir(t testing.TB, dir string) *Program {
	t.Helper()
	_, b, diags := compiler.CompileDir(dir, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	data, _, err := bundle.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
