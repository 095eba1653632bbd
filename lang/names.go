package lang

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/ident"
)

// at renders where a range starts as file:line:col, the form every tenet
// message uses (file relative to the contract directory).
func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// ReservedWords are the identifiers CEL reserves (ident.ReservedWords).
var ReservedWords = ident.ReservedWords

// IsReserved reports whether name is one of CEL's ReservedWords.
func IsReserved(name string) bool { return ident.IsReserved(name) }

// checkName reports a name CEL refers to that is not an identifier or is a
// reserved word; what names the thing in messages ("tool name", "param
// name", ...). It returns whether the name is valid.
func (d *decoder) checkName(name Str, summary, what string) bool {
	switch {
	case !ident.IsIdent(name.Value):
		d.errorf(diag.InvalidName, name.Range, summary, "%q is not a valid %s: %s", name.Value, what, ident.Rule(name.Value))
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
