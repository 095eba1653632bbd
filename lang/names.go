package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
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
