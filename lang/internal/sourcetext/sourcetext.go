// Package sourcetext words the refusals of an attribute that must hold
// source text for another language — a CEL criterion or a trace pattern —
// but does not: an HCL template with an interpolation (${...}) or a
// directive (%{...}), which HCL would evaluate before CEL or the pattern
// reader saw the text, and a value that is not a string at all (Describe
// names what it is).
//
// It takes the attribute's expression and its file's tokens (from HCL's
// lexer) and gives diagnostics with lang/diag's codes, each at the
// offending sequence; package lang decodes the literal text itself. It
// imports lang/diag and lang/internal/literal only.
package sourcetext

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/literal"
)

// Kind says what a literal-text attribute holds, for messages: a CEL
// criterion or a trace pattern. Both are decoded alike.
type Kind struct {
	noun   string // "criterion"
	title  string // "Criterion"
	isA    string // "a CEL expression"
	source string // "CEL source text"
	reader string // "CEL sees it"
}

// Criterion and Pattern are the two kinds.
var (
	Criterion = Kind{"criterion", "Criterion", "a CEL expression", "CEL source text", "CEL sees it"}
	Pattern   = Kind{"pattern", "Pattern", "a trace pattern", "trace-pattern text", "the pattern is read"}
)

// Interpolations reports the first top-level ${...} and the first
// %{...} sequence of the criterion expr (of attribute name), each with the
// sequence's own range (one report per kind: "%{ if }...%{ endif }" is one
// mistake, not two). fileToks are the tokens of expr's file, nil when the
// file is not known: the whole expression is reported then.
func Interpolations(k Kind, name string, expr hcl.Expression, fileToks hclsyntax.Tokens) hcl.Diagnostics {
	var diags hcl.Diagnostics
	rng := expr.Range()
	reported := false
	if fileToks != nil {
		toks := literal.TokensIn(fileToks, rng)
		depth := 0
		seen := map[hclsyntax.TokenType]bool{} // one report per kind is enough
		for i, tok := range toks {
			switch tok.Type {
			case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
				depth++
				if depth > 1 || seen[tok.Type] {
					continue
				}
				seen[tok.Type] = true
				seq := tok.Range
				for k, nest := i+1, 1; k < len(toks); k++ {
					switch toks[k].Type {
					case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
						nest++
					case hclsyntax.TokenTemplateSeqEnd:
						nest--
					}
					if nest == 0 {
						seq = hcl.RangeBetween(tok.Range, toks[k].Range)
						break
					}
				}
				diags = append(diags, templateSeqError(k, name, seq, tok.Type == hclsyntax.TokenTemplateControl, rng))
				reported = true
			case hclsyntax.TokenTemplateSeqEnd:
				depth = max(0, depth-1)
			}
		}
	}
	if !reported {
		diags = append(diags, templateSeqError(k, name, rng, false, rng))
	}
	return diags
}

func templateSeqError(k Kind, name string, seq hcl.Range, directive bool, whole hcl.Range) *hcl.Diagnostic {
	dg := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  k.title + " contains an HCL interpolation",
		Detail: fmt.Sprintf("The %s %s is %s, but HCL would evaluate this ${...} interpolation before %s. Write $${ for a literal ${.",
			name, k.noun, k.source, k.reader),
		Subject: seq.Ptr(),
		Context: whole.Ptr(),
	}
	if directive {
		dg.Summary = k.title + " contains an HCL template directive"
		dg.Detail = fmt.Sprintf("The %s %s is %s, but HCL would evaluate this %%{...} template directive before %s. Write %%%%{ for a literal %%{.",
			name, k.noun, k.source, k.reader)
	}
	return diag.Set(dg, diag.CriterionInterpolation)
}

// NotString refuses expr, the value of the attribute name (or, with
// elem, one element of its list), which is not an HCL string.
func NotString(k Kind, name string, expr hcl.Expression, elem bool) *hcl.Diagnostic {
	if elem {
		return diag.Errorf(diag.CriterionNotString, expr.Range(), k.title+" must be a string",
			"Each %s %s is %s written as an HCL string, quoted (%s = [\"...\"]) or as a heredoc (<<EOT); found %s.",
			name, k.noun, k.isA, name, Describe(expr))
	}
	return diag.Errorf(diag.CriterionNotString, expr.Range(), k.title+" must be a string",
		"The %s %s is %s written as an HCL string, quoted (%s = \"...\") or as a heredoc (<<EOT); found %s.",
		name, k.noun, k.isA, name, Describe(expr))
}

// Describe names what a non-string expression is, for error details.
func Describe(expr hcl.Expression) string {
	switch x := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		switch {
		case x.Val.IsNull():
			return "null"
		case x.Val.Type() == cty.Number:
			return "a number"
		case x.Val.Type() == cty.Bool:
			return "a bool"
		}
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr:
		return "a string"
	case *hclsyntax.TupleConsExpr:
		return "a list"
	case *hclsyntax.ObjectConsExpr:
		return "an object"
	case *hclsyntax.ScopeTraversalExpr:
		return "a bare reference (put the CEL expression in quotes)"
	case *hclsyntax.FunctionCallExpr:
		return "a function call (put the CEL expression in quotes)"
	case *hclsyntax.ParenthesesExpr:
		return "a parenthesized expression (write the string literal without parentheses)"
	}
	return "an HCL expression (put the CEL expression in quotes)"
}
