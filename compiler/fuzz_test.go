package compiler_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/fuzzseed"
	"github.com/tenetlang/tenet/lang/diag"
)

// FuzzCompile parses, checks and compiles one contract file and, when it
// compiles, encodes its bundle. No input may make it panic or report an
// internal error; every diagnostic has a code and a location inside the
// file (so the CLI prints file:line:col); a bundle decodes to the same
// value, re-encodes to the same bytes and id, and plans for evaluation.
// Seeds: every contract of the repository (contracts/, examples/,
// lang/testdata, testdata/*.txtar, testdata/hostile) of at most 16 KiB,
// its files concatenated into one.
func FuzzCompile(f *testing.F) {
	for _, c := range fuzzseed.Contracts() {
		// The AgentDojo contracts (60-80 KB) take a tenth of a second each
		// to compile: the mutator gets further from the small ones.
		if src := c.Source(); len(src) <= maxSeed {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		built, diags := compileSource(src)
		checkLocated(t, src, diags)
		if built.Bundle == nil {
			if !diags.HasErrors() {
				t.Fatal("no bundle and no error")
			}
			return
		}
		checkBundle(t, built)
	})
}

// maxSeed bounds the size of a seed contract.
const maxSeed = 16 << 10

// compileSource builds src as the only file of a contract directory.
func compileSource(src []byte) (*compiler.Built, hcl.Diagnostics) {
	return compiler.BuildFiles("fuzz", map[string][]byte{"a.tenet.hcl": src}, compiler.Options{Formats: transcript.Formats()})
}

// checkLocated fails on an internal error, a diagnostic without a code, or
// one whose range is not inside src.
func checkLocated(t *testing.T, src []byte, diags hcl.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		code := diag.Of(d)
		if code == "" || code == "internal-error" {
			t.Fatalf("[%s] %s: %s", code, d.Summary, d.Detail)
		}
		s := d.Subject
		if s == nil {
			t.Fatalf("[%s] %s: no location", code, d.Summary)
		}
		if s.Filename != "a.tenet.hcl" || s.Start.Line < 1 || s.Start.Column < 1 ||
			s.Start.Byte < 0 || s.Start.Byte > len(src) || s.End.Byte < s.Start.Byte || s.End.Byte > len(src) ||
			s.End.Line < s.Start.Line {
			t.Fatalf("[%s] %s: bad location %s (%d..%d of %d bytes)", code, d.Summary, s, s.Start.Byte, s.End.Byte, len(src))
		}
	}
}

// checkBundle decodes a built bundle, re-encodes the result and plans it.
func checkBundle(t *testing.T, built *compiler.Built) {
	t.Helper()
	data, id := built.Data, built.ID
	got, gotID, err := bundle.Decode(data)
	if err != nil {
		t.Fatalf("a bundle tenet encoded does not decode: %v", err)
	}
	if gotID != id {
		t.Fatalf("id %s decodes as %s", id, gotID)
	}
	again, againID, err := bundle.Encode(got)
	if err != nil || !bytes.Equal(again, data) || againID != id {
		t.Fatalf("re-encoding differs (err %v)", err)
	}
	if _, err := eval.Plan(got, gotID); err != nil {
		t.Fatalf("a bundle tenet compiled does not plan: %v", err)
	}
	// Decoding is exact: the decoded value encodes like the original, and
	// a second decode gives an equal value.
	third, _, err := bundle.Decode(again)
	if err != nil || !reflect.DeepEqual(third, got) {
		t.Fatalf("decode is not stable (err %v)", err)
	}
}
