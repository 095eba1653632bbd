package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/lang/diag"
)

// FuzzFormat checks that Format never reports an internal error (it would
// if formatting changed more than whitespace, as it did on A=0 .0, kept in
// testdata/fuzz/FuzzFormat), writes nothing for a file it refuses (one that
// does not parse, or indexes a literal), and is idempotent.
func FuzzFormat(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/banking/*.tenet.hcl")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range formatCases {
		f.Add([]byte(s.in))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := Format(src, "a.tenet.hcl")
		for _, d := range diags {
			if diag.Of(d) == diag.InternalError || diag.Of(d) == "" {
				t.Fatalf("%q: %s: %s", src, d.Summary, d.Detail)
			}
		}
		if diags.HasErrors() {
			if out != nil {
				t.Fatalf("output for a file with errors")
			}
			return
		}
		again, diags := Format(out, "a.tenet.hcl")
		if diags.HasErrors() || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%q\n%q\n%q", src, out, again)
		}
	})
}
