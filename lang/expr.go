package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/literal"
	"github.com/tenetlang/tenet/lang/internal/sourcetext"
)

// Pos returns the file position of byte i of Text (clamped to
// 0..len(Text); len(Text) is the position just past the text). Line and
// Column are 1-based, Column counting characters (grapheme clusters) as in
// HCL's own ranges, and Byte is the offset in the file.
func (e *Expr) Pos(i int) hcl.Pos {
	i = max(0, min(i, len(e.Text)))
	off := e.Range.Start.Byte
	if len(e.Offsets) == len(e.Text)+1 {
		off = e.Offsets[i]
	}
	if e.Lines == nil {
		return e.Range.Start
	}
	return literal.Pos(e.src, e.Lines, off)
}

// RangeOf returns the file range of Text[i:j] (both clamped; j < i is
// treated as j == i), in the file of the literal.
func (e *Expr) RangeOf(i, j int) hcl.Range {
	if j < i {
		j = i
	}
	return hcl.Range{Filename: e.Range.Filename, Start: e.Pos(i), End: e.Pos(j)}
}

// criterion decodes a CEL-valued attribute. The value must be a string
// literal without interpolations or directives: HCL would evaluate those
// before CEL ever saw the text.
func (d *decoder) criterion(attr *hcl.Attribute) *Expr {
	if attr == nil {
		return nil
	}
	return d.literalAttr(sourcetext.Criterion, attr.Name, attr.Expr, false)
}

// criterionList decodes a list of criteria written as a list literal, such
// as a gate's require. Each element is decoded like a criterion attribute.
// It returns nil after reporting a value that is not a list literal.
func (d *decoder) criterionList(attr *hcl.Attribute) []*Expr {
	if attr == nil {
		return nil
	}
	elems, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		d.errorf(diag.WrongValueType, attr.Expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute %q: a list of CEL expressions written as strings is required, like [\"...\", \"...\"]; found %s.",
			attr.Name, sourcetext.Describe(attr.Expr))
		return nil
	}
	out := []*Expr{}
	for _, el := range elems {
		if e := d.literalAttr(sourcetext.Criterion, attr.Name, el, true); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// literalAttr decodes expr, the value of the attribute name (a criterion
// or a pattern, per k) or (elem) one element of its list.
func (d *decoder) literalAttr(k sourcetext.Kind, name string, expr hcl.Expression, elem bool) *Expr {
	f := d.file(expr.Range().Filename)
	switch x := expr.(type) {
	case *hclsyntax.TemplateExpr:
		for _, part := range x.Parts {
			if _, lit := part.(*hclsyntax.LiteralValueExpr); !lit {
				d.interpolationError(k, name, expr, f)
				return nil
			}
		}
		return d.literalExpr(x, f)
	case *hclsyntax.TemplateWrapExpr:
		d.interpolationError(k, name, expr, f)
		return nil
	}
	d.diags = append(d.diags, sourcetext.NotString(k, name, expr, elem))
	return nil
}

// literalExpr builds the Expr of a template made only of literal parts.
func (d *decoder) literalExpr(x *hclsyntax.TemplateExpr, f *srcFile) *Expr {
	val, diags := x.Value(nil)
	if diags.HasErrors() { // cannot happen for literal parts; stay defensive
		d.addHCL(diags, diag.InvalidValue)
		return nil
	}
	e := &Expr{Range: x.SrcRange}
	if val.Type() == cty.String && val.IsKnown() && !val.IsNull() {
		e.Text = val.AsString()
	}
	if f == nil {
		e.setApprox()
		return e
	}
	e.Lines, e.src = f.lines, f.Bytes
	text, offs, ok := literal.Map(literal.TokensIn(f.tokens, x.SrcRange))
	if !ok || string(text) != e.Text || !offsetsInFile(offs, len(f.Bytes)) {
		e.setApprox()
		return e
	}
	e.Offsets = offs
	return e
}

// setApprox maps every byte to the literal's start: a correct if coarse
// position, used only if our decoding ever disagrees with HCL's.
func (e *Expr) setApprox() {
	e.approx = true
	e.Offsets = make([]int, len(e.Text)+1)
	for i := range e.Offsets {
		e.Offsets[i] = e.Range.Start.Byte
	}
}

// interpolationError reports what makes expr, a template, other than
// literal text (sourcetext.Interpolations), at its sequences in f's tokens
// when the file is known.
func (d *decoder) interpolationError(k sourcetext.Kind, name string, expr hcl.Expression, f *srcFile) {
	var toks hclsyntax.Tokens
	if f != nil {
		toks = f.tokens
	}
	d.diags = append(d.diags, sourcetext.Interpolations(k, name, expr, toks)...)
}

func offsetsInFile(offs []int, size int) bool {
	for _, o := range offs {
		if o < 0 || o > size {
			return false
		}
	}
	return true
}
