package evaltest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/internal/evaltest"
)

const contract = `contract "c" {}
threat_model {}
task "t" { utility = "true" }
`

// TestProgramFromIsTheBuiltBundle: the Program is the bundle BuildFiles
// makes, loaded from its bytes (same id), with the formats the readers know.
func TestProgramFromIsTheBuiltBundle(t *testing.T) {
	files := map[string][]byte{"c.tenet.hcl": []byte(contract)}
	want, diags := compiler.BuildFiles(".", files, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := evaltest.ProgramFrom(t, files)
	if p.ID != want.ID || p.Bundle.Manifest.Contract != "c" {
		t.Errorf("program %s of contract %q, want %s of \"c\"", p.ID, p.Bundle.Manifest.Contract, want.ID)
	}
	if f := evaltest.Options().Formats; len(f) == 0 {
		t.Errorf("Options().Formats is empty, want the transcript formats")
	}
}

// fatalTB records the message a helper fails a test with and stops the
// helper as t.Fatal would (by a panic the test recovers).
type fatalTB struct {
	testing.TB
	msg string
}

type stopped struct{}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// TestDiagnosticsAsTenetPrintsThem: a contract with an error fails the test
// with the diagnostic as lang/diag writes it (file:line:col, code, snippet)
// and does not return.
func TestDiagnosticsAsTenetPrintsThem(t *testing.T) {
	bad := contract + "task \"u\" { utility = \"nope +\" }\n"
	tb := &fatalTB{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopped); !ok {
					panic(r)
				}
			}
		}()
		evaltest.ProgramFrom(tb, map[string][]byte{"c.tenet.hcl": []byte(bad)})
		t.Error("ProgramFrom returned on a contract with an error")
	}()
	for _, want := range []string{"compile .:\n", "\nc.tenet.hcl:4:29: [cel-syntax] Error: Syntax error", "\n   4: task \"u\" { utility = \"nope +\" }\n"} {
		if !strings.Contains(tb.msg, want) {
			t.Errorf("failed with\n%s\nwant it to contain %q", tb.msg, want)
		}
	}
}
