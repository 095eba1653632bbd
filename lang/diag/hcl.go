package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// The codes of the diagnostics lang reports, registered (with their
// documentation) in lang/diag/lang_codes.go.
const (
	codeSyntax             diag.Code = "hcl-syntax"
	codeTooDeep            diag.Code = "nesting-too-deep"
	codeReadError          diag.Code = "read-error"
	codeNoFiles            diag.Code = "no-contract-files"
	codeMissingContract    diag.Code = "missing-contract"
	codeUnknownBlock       diag.Code = "unknown-block"
	codeUnknownAttribute   diag.Code = "unknown-attribute"
	codeMissingAttribute   diag.Code = "missing-attribute"
	codeMissingBlock       diag.Code = "missing-block"
	codeDuplicateAttribute diag.Code = "duplicate-attribute"
	codeDuplicateBlock     diag.Code = "duplicate-block"
	codeDuplicateName      diag.Code = "duplicate-name"
	codeLabels             diag.Code = "invalid-labels"
	codeInvalidName        diag.Code = "invalid-name"
	codeReserved           diag.Code = "reserved-word"
	codeNotString          diag.Code = "criterion-not-string"
	codeInterpolation      diag.Code = "criterion-interpolation"
	codeInvalidType        diag.Code = "invalid-type"
	codeWrongType          diag.Code = "wrong-value-type"
	codeInvalidValue       diag.Code = "invalid-value"
	codeNotConstant        diag.Code = "not-constant"
	codeConflicting        diag.Code = "conflicting-attributes"
	codePatternSyntax      diag.Code = "pattern-syntax"
	codeUnknownStep        diag.Code = "unknown-step"
	codeUnusedStep         diag.Code = "unused-step"
	codeShadowed           diag.Code = "step-shadows-variable"
	codeUseCycle           diag.Code = "use-cycle"
	codeUseMissing         diag.Code = "use-missing"
	codeUseDuplicate       diag.Code = "use-duplicate"
	codeUseTooDeep         diag.Code = "use-too-deep"
	codeStringTooLarge     diag.Code = "string-too-large"
	codeInternal           diag.Code = "internal-error" // registered with the compiler's codes
)

// hclCodes gives HCL's own diagnostics a code, by summary. It is the one
// place that knows HCL's wording; a summary not listed here gets the
// fallback of the call site (hcl-syntax for parsing, invalid-value for
// evaluating a constant).
var hclCodes = map[string]diag.Code{
	// hclsyntax's parser.
	"Attribute redefined": codeDuplicateAttribute,
	// Body.Content, Body.PartialContent and Body.JustAttributes.
	"Unsupported argument":      codeUnknownAttribute,
	"Unsupported block type":    codeUnknownBlock,
	"Missing required argument": codeMissingAttribute,
	"Duplicate argument":        codeDuplicateAttribute,
	// Evaluating a constant without an EvalContext.
	"Variables not allowed":      codeNotConstant,
	"Function calls not allowed": codeNotConstant,
	"Unknown variable":           codeNotConstant,
	"Call to unknown function":   codeNotConstant,
	"Duplicate object key":       codeDuplicateAttribute,
}

// hclCode returns the code of an HCL diagnostic with this summary.
func hclCode(summary string, fallback diag.Code) diag.Code {
	if c, ok := hclCodes[summary]; ok {
		return c
	}
	switch {
	case strings.HasPrefix(summary, "Extraneous label for "),
		strings.HasPrefix(summary, "Missing ") && strings.Contains(summary, " for "):
		return codeLabels // "Missing name for task"
	case strings.HasPrefix(summary, "Unexpected \"") && strings.HasSuffix(summary, "\" block"):
		return codeUnknownBlock // a block inside params
	}
	return fallback
}

// addHCL appends diagnostics produced by HCL, giving each one without a
// code the code its summary maps to (or fallback).
func (d *decoder) addHCL(diags hcl.Diagnostics, fallback diag.Code) {
	for _, x := range diags {
		if diag.Of(x) == "" {
			diag.Set(x, hclCode(x.Summary, fallback))
		}
		// HCL's own diagnostics get the same repair as tenet's: evaluating
		// "t = i(" at the end of a file reports a range ending at 0:0.
		if x.Subject != nil {
			r := ordered(*x.Subject)
			x.Subject = &r
		}
		d.diags = append(d.diags, x)
	}
}

// errorf appends an error diagnostic with a code on subject.
func (d *decoder) errorf(code diag.Code, subject hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, newError(code, subject, summary, format, args...))
}

// errorNoRange returns an error diagnostic with a code and no source range
// (about a directory or file as a whole).
func errorNoRange(code diag.Code, summary, format string, args ...any) *hcl.Diagnostic {
	return diag.Set(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
	}, code)
}

// newError returns an error diagnostic with a code on subject.
func newError(code diag.Code, subject hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return diag.Set(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  ordered(subject).Ptr(),
	}, code)
}

// ordered returns r, or the empty range at its start when its end comes
// before it: HCL's parser, recovering from an unterminated expression at
// the end of a file ("utility = A("), gives the expression an end of 0:0.
func ordered(r hcl.Range) hcl.Range {
	if r.End.Byte < r.Start.Byte || r.End.Line < r.Start.Line {
		r.End = r.Start
	}
	return r
}
