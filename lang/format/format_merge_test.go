package format

import (
	"testing"

	"github.com/tenetlang/tenet/lang"
)

// TestFormatKeepsTokensApart: hclwrite.Format removes the space before
// the "." of a traversal, which runs a number and a following legacy index
// together ("b.0 .0" would become b.0.0, whose last part lexes as the
// number 0.0). Format used to refuse such files with an internal error
// (the fuzz crasher testdata/fuzz/FuzzFormat/number_legacy_index); it keeps
// one space instead, and the result is stable.
func TestFormatKeepsTokensApart(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a = b.0 .0\n", "a = b.0 .0\n"},
		{"a = b.0. 0\n", "a = b.0 .0\n"},
		{"a  = b.*.0 .0 # c\nbb = 1\n", "a  = b.*.0 .0 # c\nbb = 1\n"},
		{"a = [b.0 .0, c.1   .2]\n", "a = [b.0 .0, c.1 .2]\n"},
		{"a = b .0\n", "a = b.0\n"}, // nothing runs together: the space goes
	} {
		got, diags := Format([]byte(tt.in), "a.tenet.hcl")
		checkDiags(t, diags)
		if string(got) != tt.want {
			t.Errorf("Format(%q) = %q, want %q", tt.in, got, tt.want)
		}
		again, diags := Format(got, "a.tenet.hcl")
		checkDiags(t, diags)
		if string(again) != string(got) {
			t.Errorf("not idempotent: %q, then %q", got, again)
		}
	}
}

// TestFormatLiteralIndex: an index or attribute of a literal number, bool
// or null is refused with the diagnostic tenet check gives when it
// evaluates the value, not an internal error.
func TestFormatLiteralIndex(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"A=0 .0", `[invalid-value] a.tenet.hcl:1:5-1:7: Invalid index: This value does not have any indices.`},
		{"a = 1 .2 .3\n", `[invalid-value] a.tenet.hcl:1:7-1:9: Invalid index: This value does not have any indices.`},
		{"a = true[0]\n", `[invalid-value] a.tenet.hcl:1:9-1:12: Invalid index: This value does not have any indices.`},
		{"a = 1 .e2\n", `[invalid-value] a.tenet.hcl:1:7-1:10: Unsupported attribute: Can't access attributes on a primitive-typed value (number).`},
		{"a = [f(2 .0)]\n", `[invalid-value] a.tenet.hcl:1:10-1:12: Invalid index: This value does not have any indices.`},
	} {
		got, diags := Format([]byte(tt.in), "a.tenet.hcl")
		if got != nil {
			t.Errorf("Format(%q) = %q, want no output", tt.in, got)
		}
		checkDiags(t, diags, tt.want)
	}
	// The same file, checked: the same diagnostic.
	_, diags := lang.ParseFiles("dir", map[string][]byte{"a.tenet.hcl": []byte("contract \"c\" {\n  version = 0 .0\n}\n")})
	checkDiags(t, diags, `[invalid-value] a.tenet.hcl:2:15-2:17: Invalid index: This value does not have any indices.`)
	got, diags := Format([]byte("contract \"c\" {\n  version = 0 .0\n}\n"), "a.tenet.hcl")
	if got != nil {
		t.Errorf("output %q", got)
	}
	checkDiags(t, diags, `[invalid-value] a.tenet.hcl:2:15-2:17: Invalid index: This value does not have any indices.`)
}
