// Package diag gives every tenet diagnostic a stable code.
//
// A code is a short kebab-case name (for example "unknown-predicate") that
// never changes meaning once released: tools and people can grep for it,
// and docs/diagnostics.md documents each one. lang and the compiler attach
// a code to every hcl.Diagnostic they produce (in its Extra field); a test
// fails when a diagnostic has no code, when a code is not registered here,
// or when a registered code has no golden test under testdata/.
package diag

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// Code is a stable diagnostic code.
type Code string

// Info documents a code.
type Info struct {
	Code     Code
	Severity hcl.DiagnosticSeverity // the severity the code is always reported with
	Title    string                 // a short title, as the diagnostic's summary usually reads
	Doc      string                 // what it means and how to fix it (one paragraph)
}

// extra is the value stored in hcl.Diagnostic.Extra: the code, and
// whether the diagnostic reports a file that could not be parsed (see
// MarkSyntax).
type extra struct {
	code   Code
	syntax bool
}

// Set attaches code to d and returns d.
func Set(d *hcl.Diagnostic, code Code) *hcl.Diagnostic {
	e, _ := hcl.DiagnosticExtra[extra](d)
	e.code = code
	d.Extra = e
	return d
}

// MarkSyntax records that each of diags reports a file that could not be
// parsed (HCL's parser, or a refusal before parsing), whatever its code,
// and returns diags. lang marks them; SyntaxOnly reads the mark.
func MarkSyntax(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		e, _ := hcl.DiagnosticExtra[extra](d)
		e.syntax = true
		d.Extra = e
	}
	return diags
}

// IsSyntax reports whether d was marked by MarkSyntax.
func IsSyntax(d *hcl.Diagnostic) bool {
	e, ok := hcl.DiagnosticExtra[extra](d)
	return ok && e.syntax
}

// SyntaxOnly returns the syntax errors of diags (MarkSyntax) when there
// are any, and diags unchanged otherwise. A file that does not parse
// yields a partial AST, so what is said about the rest of the contract
// (unknown blocks after an unclosed brace, unused params whose users were
// lost) is mostly noise that hides the one real mistake: tenet check
// shows the syntax errors alone, as Terraform does.
func SyntaxOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError && IsSyntax(d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return diags
	}
	return out
}

// Of returns the code attached to d, or "" when it has none.
func Of(d *hcl.Diagnostic) Code {
	if e, ok := hcl.DiagnosticExtra[extra](d); ok {
		return e.code
	}
	return ""
}

// New returns an error (or warning, per the code's registered severity)
// diagnostic with a code.
func New(code Code, subject hcl.Range, summary, detail string) *hcl.Diagnostic {
	sev := hcl.DiagError
	if info, ok := Lookup(code); ok {
		sev = info.Severity
	}
	return Set(&hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Subject: subject.Ptr()}, code)
}

// All returns every registered code, sorted.
func All() []Info {
	all := append(append([]Info(nil), langCodes...), compilerCodes...)
	sort.Slice(all, func(i, j int) bool { return all[i].Code < all[j].Code })
	return all
}

// Lookup returns a code's documentation.
func Lookup(c Code) (Info, bool) {
	for _, i := range All() {
		if i.Code == c {
			return i, true
		}
	}
	return Info{}, false
}
