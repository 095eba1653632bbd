package sourcetext

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/literal"
)

// literalKind says what a literal-text attribute holds, for messages: a
// CEL criterion or a trace pattern. Both are decoded alike.
type literalKind struct {
	noun   string // "criterion"
	title  string // "Criterion"
	isA    string // "a CEL expression"
	source string // "CEL source text"
	reader string // "CEL sees it"
}

var (
	criterionText = literalKind{"criterion", "Criterion", "a CEL expression", "CEL source text", "CEL sees it"}
	patternText   = literalKind{"pattern", "Pattern", "a trace pattern", "trace-pattern text", "the pattern is read"}
)

// interpolationError reports the first top-level ${...} and the first
// %{...} sequence of the criterion expr (of attribute name), each with the
// sequence's own range (one report per kind: "%{ if }...%{ endif }" is one
// mistake, not two).
func (d *decoder) interpolationError(k literalKind, name string, expr hcl.Expression, f *srcFile) {
	rng := expr.Range()
	reported := false
	if f != nil {
		toks := literal.TokensIn(f.tokens, rng)
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
				d.templateSeqError(k, name, seq, tok.Type == hclsyntax.TokenTemplateControl, rng)
				reported = true
			case hclsyntax.TokenTemplateSeqEnd:
				depth = max(0, depth-1)
			}
		}
	}
	if !reported {
		d.templateSeqError(k, name, rng, false, rng)
	}
}

func (d *decoder) templateSeqError(k literalKind, name string, seq hcl.Range, directive bool, whole hcl.Range) {
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
	d.diags = append(d.diags, diag.Set(dg, diag.CriterionInterpolation))
}

// describeExpr names what a non-string expression is, for error details.
func describeExpr(expr hcl.Expression) string {
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
