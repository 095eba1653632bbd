package lang

import (
	"bytes"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical layout — the layout `tenet fmt` writes:
// HCL's canonical layout (hclwrite.Format, as terraform fmt), that is two
// spaces of indentation per level of nesting, one space between most tokens
// and none inside brackets, the = of consecutive attributes and the comments
// ending consecutive lines aligned, no trailing spaces; and a final newline.
// Only the whitespace between tokens changes: string literals, heredocs and
// comments, and so every criterion, are kept byte for byte, and Format
// checks that the result reads back as the same tokens.
//
// A file that does not parse is refused: the output is nil and the
// diagnostics, with codes and with filename in their ranges, say why. Format
// does not check the contract's blocks; a file with an unknown block is
// formatted like any other.
func Format(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	d := &decoder{}
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if tok, deep := tooDeep(toks); deep {
		d.errorf(codeTooDeep, tok.Range, "Nesting too deep",
			"Brackets, braces and parentheses nest more than %d levels deep here; tenet refuses such files.", MaxNesting)
		return nil, d.diags
	}
	if d.refuseLargeString(toks) {
		return nil, d.diags
	}
	_, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	d.addHCL(diags, codeSyntax)
	if d.diags.HasErrors() {
		return nil, d.diags
	}
	out := hclwrite.Format(src)
	// Formatting must change whitespace only; anything else would be a bug
	// that must not reach the user's file.
	again, _ := hclsyntax.LexConfig(out, filename, hcl.InitialPos)
	// hclwrite keeps the spaces before the end of the file; drop them.
	if n := len(again); n >= 2 {
		out = out[:again[n-2].Range.End.Byte]
	} else {
		out = out[:0]
	}
	if !sameTokens(toks, again) {
		return nil, hcl.Diagnostics{errorNoRange(codeInternal, "Internal error in the contract formatter",
			"Formatting %s would change more than whitespace; the file is left as it is. This is a bug in tenet; please report it with the file.", filename)}
	}
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if _, pd := hclsyntax.ParseConfig(out, filename, hcl.InitialPos); pd.HasErrors() {
		return nil, hcl.Diagnostics{errorNoRange(codeInternal, "Internal error in the contract formatter",
			"The formatted %s does not parse; the file is left as it is. This is a bug in tenet; please report it with the file.", filename)}
	}
	return out, d.diags
}

// sameTokens reports whether a and b are the same tokens (type and bytes),
// whatever the whitespace between them.
func sameTokens(a, b hclsyntax.Tokens) bool {
	return slices.EqualFunc(a, b, func(x, y hclsyntax.Token) bool {
		return x.Type == y.Type && bytes.Equal(x.Bytes, y.Bytes)
	})
}
