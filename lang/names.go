package lang

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// at renders where a range starts as file:line:col, the form every tenet
// message uses (file relative to the contract directory).
func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// isIdent reports whether s is a name CEL can refer to: ASCII letters,
// digits and underscores, not starting with a digit. (HCL identifiers also
// allow '-' and non-ASCII letters; CEL identifiers do not.)
func isIdent(s string) bool {
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

// identRule explains the identifier rule for name, with a corrected
// spelling when one is obvious.
func identRule(name string) string {
	msg := "a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it."
	if fixed := identFix(name); fixed != "" && fixed != name {
		msg += " Did you mean \"" + fixed + "\"?"
	}
	return msg
}

// identFix turns name into an identifier by replacing every other character
// with '_' and prefixing '_' to a leading digit; "" if nothing useful is left.
func identFix(name string) string {
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

// checkName reports a name CEL refers to that is not an identifier or is a
// reserved word; what names the thing in messages ("tool name", "param
// name", ...). It returns whether the name is valid.
func (d *decoder) checkName(name Str, summary, what string) bool {
	switch {
	case !isIdent(name.Value):
		d.errorf(diag.InvalidName, name.Range, summary, "%q is not a valid %s: %s", name.Value, what, identRule(name.Value))
		return false
	case IsReserved(name.Value):
		d.errorf(diag.ReservedWord, name.Range, "Reserved word",
			"%q is reserved by CEL, so it cannot be used as %s: a criterion could not refer to it. Use another name, such as %q.",
			name.Value, strings.ToLower(aOrAn(what)), name.Value+"_")
		return false
	}
	return true
}

// quote renders s as a Go string literal, as messages quote names.
func quote(s string) string {
	return strconv.Quote(s)
}

// aOrAn prefixes the indefinite article to a noun phrase: "A task",
// "An invariant", "A use namespace".
func aOrAn(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) && !strings.HasPrefix(noun, "use") {
		return "An " + noun
	}
	return "A " + noun
}

// fieldName is the typeexpr.CheckName of lang: a field name is an
// identifier CEL can refer to, and not a reserved word.
func (d *decoder) fieldName(name string, rng hcl.Range) *hcl.Diagnostic {
	var sub decoder
	if sub.checkName(Str{Value: name, Range: rng}, "Invalid field name", "field name") {
		return nil
	}
	return sub.diags[0]
}
