package diag_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/internal/termstyle"
	"github.com/tenetlang/tenet/lang/diag"
)

// TestWriteTextStyle: in colour, the location is bold, the code dim and
// the severity red or yellow; without the escapes the text is WriteText's,
// byte for byte; and the zero Style is WriteText.
func TestWriteTextStyle(t *testing.T) {
	src := []byte("task \"t\" {\n  utility = 1\n}\n")
	f, _ := hclsyntax.ParseConfig(src, "main.tenet.hcl", hcl.InitialPos)
	files := map[string]*hcl.File{"main.tenet.hcl": f}
	rng := hcl.Range{Filename: "main.tenet.hcl", Start: hcl.Pos{Line: 2, Column: 13, Byte: 23}, End: hcl.Pos{Line: 2, Column: 14, Byte: 24}}
	diags := hcl.Diagnostics{
		diag.New("bad-type", rng, "Wrong type", "A string is wanted."),
		{Severity: hcl.DiagWarning, Summary: "Odd", Subject: &rng},
	}
	var plain, zero, coloured bytes.Buffer
	diag.WriteText(&plain, "c", files, diags)
	diag.WriteTextStyle(&zero, "c", files, diags, termstyle.Style{})
	diag.WriteTextStyle(&coloured, "c", files, diags, termstyle.On())
	if zero.String() != plain.String() {
		t.Errorf("the zero Style differs from WriteText:\n%s\n%s", zero.String(), plain.String())
	}
	for _, want := range []string{
		"\x1b[1mc/main.tenet.hcl:2:13:\x1b[0m \x1b[2m[bad-type]\x1b[0m \x1b[1;31mError\x1b[0m: Wrong type\n",
		"\x1b[1mc/main.tenet.hcl:2:13:\x1b[0m \x1b[33mWarning\x1b[0m: Odd\n",
	} {
		if !bytes.Contains(coloured.Bytes(), []byte(want)) {
			t.Errorf("coloured output lacks %q:\n%q", want, coloured.String())
		}
	}
	if got := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(coloured.String(), ""); got != plain.String() {
		t.Errorf("without its escapes the coloured text differs:\n%s\nwant\n%s", got, plain.String())
	}
}
