package literal

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func pos(p hcl.Pos) string { return fmt.Sprintf("%d:%d@%d", p.Line, p.Column, p.Byte) }

// TestPosMatchesHCLLexer checks Pos against the positions HCL's lexer
// gives its own tokens, on a file with a byte-order mark, multi-byte
// characters, grapheme clusters, tabs and CRLF line ends.
func TestPosMatchesHCLLexer(t *testing.T) {
	src := []byte("\ufeffa = [\"é\", \"👍🏽\", x]\r\n\tb = \"日本\" # 👩‍👩‍👧\r\nc = 1\n")
	toks, diags := hclsyntax.LexConfig(src, "f", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lines := LineStarts(src)
	for _, tok := range toks {
		for _, p := range []hcl.Pos{tok.Range.Start, tok.Range.End} {
			if got := Pos(src, lines, p.Byte); got != p {
				t.Errorf("token %s %q: Pos(%d) = %s, HCL says %s", tok.Type, tok.Bytes, p.Byte, pos(got), pos(p))
			}
		}
	}
}
