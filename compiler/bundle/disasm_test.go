package bundle_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
)

// TestDisassembleGolden: the bundle of testdata/vocab (every instruction,
// every type kind, nested) encodes to the id and disassembles to the text
// in testdata/disassemble.golden, which `tenet inspect` printed before
// opcodes and kinds were typed constants and the disassembler moved here:
// the text forms on the wire, hence the bundle id, and the output are
// unchanged.
func TestDisassembleGolden(t *testing.T) {
	_, b, diags := compiler.CompileDir(filepath.Join("testdata", "vocab"), compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	data, id, err := bundle.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "disassemble.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	bundle.Disassemble(&got, b, id, bundle.Annotations{Size: len(data)})
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("Disassemble:\n%s\nwant (testdata/disassemble.golden):\n%s", got.Bytes(), want)
	}

	// What eval found is marked where it applies.
	got.Reset()
	bundle.Disassemble(&got, b, id, bundle.Annotations{
		Exprs:    map[int]bundle.ExprMismatch{0: {Err: errors.New("text says a"), Runs: "b"}},
		Patterns: map[int]error{0: errors.New("text says c")},
	})
	for _, line := range []string{
		"bundle " + id + "\n",
		"\n     MISMATCH: text says a\n     runs: b\n",
		"\n     MISMATCH: text says c (the disassembly below is what runs)\n",
	} {
		if !strings.Contains(got.String(), line) {
			t.Errorf("no %q in\n%s", line, got.String())
		}
	}
}
