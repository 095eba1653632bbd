// Package lex refuses a contract file before HCL parses it, from its
// tokens: brackets nested too deeply (HCL's parser recurses once per
// level, so hostile input could exhaust the stack) and strings too large
// (HCL assembles a string in time quadratic in its parts). It takes a
// file's bytes and gives its tokens and the diagnostic that refuses it, or
// none. It imports lang/diag and lang/internal/literal.
package lex

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/literal"
)

// Lex returns the tokens of a contract file as HCL's lexer gives them and,
// when the file must not be parsed, the error that says why: brackets
// nested beyond MaxNesting (HCL's parser recurses once per level, so
// hostile input could exhaust the stack), or a string beyond
// literal.MaxParts or literal.MaxWork (HCL assembles a string in time
// quadratic in its parts). Lexing errors are left to the parser to report.
func Lex(src []byte, filename string) (hclsyntax.Tokens, *hcl.Diagnostic) {
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if tok, deep := tooDeep(toks); deep {
		return toks, diag.Errorf(diag.NestingTooDeep, tok.Range, "Nesting too deep",
			"Brackets, braces and parentheses nest more than %d levels deep here; tenet refuses such files.", MaxNesting)
	}
	if open, parts, bytes, bad := literal.TooLarge(toks); bad {
		return toks, diag.Errorf(diag.StringTooLarge, open.Range, "String too large",
			"This string has %d parts (heredoc lines, or pieces between $${ and %%%%{ escapes) and %d bytes; HCL assembles a string part by part, in time proportional to parts × bytes, so tenet refuses a string of more than %d parts or whose parts × bytes exceed %d (1,000 lines of 256 KiB in all). Shorten it, or join its lines: a criterion is at most 100,000 code points anyway.",
			parts, bytes, literal.MaxParts, literal.MaxWork)
	}
	return toks, nil
}

// MaxNesting bounds how deeply brackets, braces, parentheses and template
// interpolations may nest in a contract file.
const MaxNesting = 128

// tooDeep returns the first token that opens a level beyond MaxNesting.
func tooDeep(toks hclsyntax.Tokens) (hclsyntax.Token, bool) {
	depth := 0
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrack, hclsyntax.TokenOBrace, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
			if depth > MaxNesting {
				return t, true
			}
		case hclsyntax.TokenCBrack, hclsyntax.TokenCBrace, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
			if depth > 0 {
				depth--
			}
		}
	}
	return hclsyntax.Token{}, false
}
