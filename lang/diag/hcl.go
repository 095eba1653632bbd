package diag

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// hclCodes gives HCL's own diagnostics a code, by summary. It is the one
// place that knows HCL's wording; a summary not listed here gets the
// fallback of the call site (hcl-syntax for parsing, invalid-value for
// evaluating a constant).
var hclCodes = map[string]Code{
	// hclsyntax's parser.
	"Attribute redefined": DuplicateAttribute,
	// Body.Content, Body.PartialContent and Body.JustAttributes.
	"Unsupported argument":      UnknownAttribute,
	"Unsupported block type":    UnknownBlock,
	"Missing required argument": MissingAttribute,
	"Duplicate argument":        DuplicateAttribute,
	// Evaluating a constant without an EvalContext.
	"Variables not allowed":      NotConstant,
	"Function calls not allowed": NotConstant,
	"Unknown variable":           NotConstant,
	"Call to unknown function":   NotConstant,
	"Duplicate object key":       DuplicateAttribute,
}

// hclCode returns the code of an HCL diagnostic with this summary.
func hclCode(summary string, fallback Code) Code {
	if c, ok := hclCodes[summary]; ok {
		return c
	}
	switch {
	case strings.HasPrefix(summary, "Extraneous label for "),
		strings.HasPrefix(summary, "Missing ") && strings.Contains(summary, " for "):
		return InvalidLabels // "Missing name for task"
	case strings.HasPrefix(summary, "Unexpected \"") && strings.HasSuffix(summary, "\" block"):
		return UnknownBlock // a block inside params
	}
	return fallback
}

// FromHCL gives each diagnostic produced by HCL that has no code the code
// its summary maps to (or fallback), repairs its subject with Ordered, and
// returns diags (changed in place).
func FromHCL(diags hcl.Diagnostics, fallback Code) hcl.Diagnostics {
	for _, x := range diags {
		if Of(x) == "" {
			Set(x, hclCode(x.Summary, fallback))
		}
		// HCL's own diagnostics get the same repair as tenet's: evaluating
		// "t = i(" at the end of a file reports a range ending at 0:0.
		if x.Subject != nil {
			r := Ordered(*x.Subject)
			x.Subject = &r
		}
	}
	return diags
}

// Errorf returns an error diagnostic with a code on subject (repaired by
// Ordered), its detail formatted.
func Errorf(code Code, subject hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return Set(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  Ordered(subject).Ptr(),
	}, code)
}

// ErrorfNoRange returns an error diagnostic with a code and no source range
// (about a directory or file as a whole).
func ErrorfNoRange(code Code, summary, format string, args ...any) *hcl.Diagnostic {
	return Set(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
	}, code)
}

// Ordered returns r, or the empty range at its start when its end comes
// before it: HCL's parser, recovering from an unterminated expression at
// the end of a file ("utility = A("), gives the expression an end of 0:0.
func Ordered(r hcl.Range) hcl.Range {
	if r.End.Byte < r.Start.Byte || r.End.Line < r.Start.Line {
		r.End = r.Start
	}
	return r
}
