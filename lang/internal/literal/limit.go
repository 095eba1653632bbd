package literal

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits on one string (a quoted string or a heredoc) of a contract file.
//
// HCL's parser assembles a string from its literal parts — each line of a
// heredoc, and each piece of a quoted string between $${ or %%{ escapes —
// by appending them one at a time to the text so far and deleting each
// appended part from the list of parts (hclsyntax's
// meldConsecutiveStringLiterals). That takes time proportional to
// parts × bytes: a heredoc of 40,000 short lines took 6 s to parse, one of
// 20 MB 87 s. tenet counts each string's parts and bytes on the tokens,
// before HCL parses the file, and refuses a file holding a string beyond
// these limits (string-too-large), so that parsing is bounded by
// MaxParts² + MaxWork steps per string.
const (
	// MaxParts bounds the literal parts (heredoc lines) of one string.
	MaxParts = 10_000
	// MaxWork bounds parts × bytes of one string of more than one
	// part: 1,000 lines of 256 KiB in all, or 10,000 lines of 26 KiB. The
	// longest CEL expression (100,000 code points) written 40 characters a
	// line is 2,500 lines of 100 KB, well within it. A string of one part
	// (any quoted string without those escapes, a one-line heredoc) costs
	// nothing to assemble and is bounded only by the file size.
	MaxWork = 1 << 28
)

// TooLarge returns the opening token of the first string whose
// literal parts exceed MaxParts, or whose parts × bytes exceed
// MaxWork, with its parts and bytes. It reads the tokens once.
func TooLarge(toks hclsyntax.Tokens) (open hclsyntax.Token, parts, bytes int, bad bool) {
	type str struct {
		open         hclsyntax.Token
		parts, bytes int
	}
	over := func(s str) bool {
		return s.parts > MaxParts || (s.parts > 1 && int64(s.parts)*int64(s.bytes) > MaxWork)
	}
	// Strings nest through interpolations ("${"a"}"); tooDeep has bounded
	// the nesting already, so this stack is short.
	var stack []str
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			stack = append(stack, str{open: t})
		case hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit:
			if len(stack) == 0 {
				continue // HCL reports a stray literal as a syntax error
			}
			s := &stack[len(stack)-1]
			s.parts++
			s.bytes += len(t.Bytes)
		case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if len(stack) == 0 {
				continue
			}
			// Checked when the string ends, so that the message gives its
			// whole size.
			s := stack[len(stack)-1]
			if over(s) {
				return s.open, s.parts, s.bytes, true
			}
			stack = stack[:len(stack)-1]
		}
	}
	// An unterminated string (a syntax error HCL reports) is parsed all
	// the same.
	for _, s := range stack {
		if over(s) {
			return s.open, s.parts, s.bytes, true
		}
	}
	return hclsyntax.Token{}, 0, 0, false
}
