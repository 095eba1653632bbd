// Package ident holds the rules for the names a contract's CEL refers to
// (tools, predicates, params, side effects, invariants, failures, steps,
// schema fields, use namespaces): an identifier is ASCII letters, digits
// and underscores, not starting with a digit, and not a word CEL reserves.
// It takes a name and says whether it is one, why not, and a corrected
// spelling. It imports nothing of tenet.
package ident

import "strings"

// IsIdent reports whether s is a name CEL can refer to: ASCII letters,
// digits and underscores, not starting with a digit. (HCL identifiers also
// allow '-' and non-ASCII letters; CEL identifiers do not.)
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Rule explains the identifier rule for name, with a corrected
// spelling when one is obvious.
func Rule(name string) string {
	msg := "a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it."
	if fixed := Fix(name); fixed != "" && fixed != name {
		msg += " Did you mean \"" + fixed + "\"?"
	}
	return msg
}

// Fix turns name into an identifier by replacing every other character
// with '_' and prefixing '_' to a leading digit; "" if nothing useful is left.
func Fix(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			b.WriteRune(r)
		case '0' <= r && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if strings.Trim(b.String(), "_") == "" {
		return ""
	}
	return b.String()
}

// ReservedWords are the identifiers CEL reserves: none of them can name
// anything a criterion refers to (a tool, predicate, param, side effect,
// invariant, failure, schema field or use namespace).
var ReservedWords = []string{
	"as", "break", "const", "continue", "else", "false", "for", "function", "if", "import",
	"in", "let", "loop", "namespace", "null", "package", "return", "true", "var", "void", "while",
}

// IsReserved reports whether name is one of CEL's ReservedWords.
func IsReserved(name string) bool {
	for _, w := range ReservedWords {
		if w == name {
			return true
		}
	}
	return false
}
