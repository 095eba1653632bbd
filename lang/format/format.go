// Package format lays contract files out canonically: the layout `tenet
// fmt` writes and checks.
//
// Its contract: Format takes one file's bytes and gives them in canonical
// layout — only the whitespace between tokens changes — or nil and
// diagnostics with codes (lang/diag) when the file does not parse. Files
// lists the contract files of directories and file names; Run formats
// them, rewriting every changed file at once or none. It imports lang (for
// its pre-parse checks and file suffix), lang/diag and internal packages;
// nothing in it knows CEL.
package format

import (
	"bytes"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
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
// diagnostics, with codes and with filename in their ranges, say why. So is
// a file that indexes a literal number, bool or null (0 .0, true[1]): that
// is an error wherever it is written, reported as tenet check reports it
// (invalid-value "Invalid index"). Format does not check the contract's
// blocks otherwise; a file with an unknown block is formatted like any
// other.
func Format(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	toks, refused := lang.Lex(src, filename)
	if refused != nil {
		return nil, hcl.Diagnostics{refused}
	}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	diags = diag.FromHCL(diags, diag.HCLSyntax)
	if diags.HasErrors() {
		return nil, diags
	}
	if body, ok := f.Body.(*hclsyntax.Body); ok {
		diags = append(diags, literalTraversals(body)...)
		if diags.HasErrors() {
			return nil, diags
		}
	}
	out := hclwrite.Format(src)
	// Formatting must change whitespace only; anything else would be a bug
	// that must not reach the user's file.
	again, _ := hclsyntax.LexConfig(out, filename, hcl.InitialPos)
	if !sameTokens(toks, again) {
		out, again = keepApart(out, toks, again, filename)
	}
	// hclwrite keeps the spaces before the end of the file; drop them.
	if n := len(again); n >= 2 {
		out = out[:again[n-2].Range.End.Byte]
	} else {
		out = out[:0]
	}
	if !sameTokens(toks, again) {
		return nil, hcl.Diagnostics{diag.ErrorfNoRange(diag.InternalError, "Internal error in the contract formatter",
			"Formatting %s would change more than whitespace; the file is left as it is. This is a bug in tenet; please report it with the file.", filename)}
	}
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if _, pd := hclsyntax.ParseConfig(out, filename, hcl.InitialPos); pd.HasErrors() {
		return nil, hcl.Diagnostics{diag.ErrorfNoRange(diag.InternalError, "Internal error in the contract formatter",
			"The formatted %s does not parse; the file is left as it is. This is a bug in tenet; please report it with the file.", filename)}
	}
	return out, diags
}

// sameTokens reports whether a and b are the same tokens (type and bytes),
// whatever the whitespace between them.
func sameTokens(a, b hclsyntax.Tokens) bool {
	return slices.EqualFunc(a, b, func(x, y hclsyntax.Token) bool {
		return x.Type == y.Type && bytes.Equal(x.Bytes, y.Bytes)
	})
}

// keepApart undoes what hclwrite.Format does to adjacent tokens that run
// together once the whitespace between them is gone: it removes the space
// before a "." of a traversal, so "0 .0" (the number 0 and the legacy index
// .0) and "b.0 .0" (b[0][0]) would become the number 0.0 and "b.0.0",
// which lex differently. got are the tokens of out, want those of the
// source; a token of got that is several tokens of want run together gets
// a space back after the first of them, which is enough for every input
// found so far, and failing that between each of them. It returns out and
// its tokens unchanged when the tokens do not align that way (Format then
// reports an internal error, as before). Linear in the size of out.
func keepApart(out []byte, want, got hclsyntax.Tokens, filename string) ([]byte, hclsyntax.Tokens) {
	for _, every := range []bool{false, true} {
		fixed, ok := splitRuns(out, want, got, every)
		if !ok {
			break
		}
		again, _ := hclsyntax.LexConfig(fixed, filename, hcl.InitialPos)
		if sameTokens(want, again) {
			return fixed, again
		}
	}
	return out, got
}

// splitRuns inserts a space into out inside each token of got that is
// several tokens of want run together: after the first of them or, with
// every, between each two of them.
func splitRuns(out []byte, want, got hclsyntax.Tokens, every bool) ([]byte, bool) {
	var b []byte
	last, i := 0, 0
	for _, g := range got {
		if i >= len(want) {
			return nil, false
		}
		if g.Type == want[i].Type && bytes.Equal(g.Bytes, want[i].Bytes) {
			i++
			continue
		}
		rest, at := g.Bytes, g.Range.Start.Byte
		for n := 0; len(rest) > 0; n++ {
			if i >= len(want) || len(want[i].Bytes) == 0 || !bytes.HasPrefix(rest, want[i].Bytes) {
				return nil, false
			}
			if n == 1 || n > 1 && every {
				b = append(append(b, out[last:at]...), ' ')
				last = at
			}
			at += len(want[i].Bytes)
			rest = rest[len(want[i].Bytes):]
			i++
		}
	}
	if i != len(want) {
		return nil, false
	}
	return append(b, out[last:]...), true
}

// literalTraversals reports every attribute access or index applied to a
// literal number, bool or null — always an error, since such values have
// neither — with the diagnostic HCL gives when tenet check evaluates it.
func literalTraversals(body *hclsyntax.Body) hcl.Diagnostics {
	var out hcl.Diagnostics
	_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		var src hclsyntax.Expression
		switch x := n.(type) {
		case *hclsyntax.RelativeTraversalExpr:
			src = x.Source
		case *hclsyntax.IndexExpr:
			src = x.Collection
		default:
			return nil
		}
		if _, ok := src.(*hclsyntax.LiteralValueExpr); ok {
			if _, diags := n.(hclsyntax.Expression).Value(nil); diags.HasErrors() {
				out = append(out, diag.FromHCL(diags, diag.InvalidValue)...)
			}
		}
		return nil
	})
	return out
}
