package lang

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
)

// Attribute decoders. Each takes the attribute (nil when absent), reports
// problems into the decoder and returns nil (or the zero value) on error, so
// decoding continues and every problem is reported in one pass. Values are
// evaluated without an EvalContext: a contract is constant, and HCL itself
// then reports variables and function calls as not allowed.

// constValue evaluates expr as a constant; ok is false after reporting.
func (d *decoder) constValue(expr hcl.Expression) (cty.Value, bool) {
	val, diags := expr.Value(nil)
	d.addHCL(diags, diag.InvalidValue)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if !val.IsWhollyKnown() {
		d.errorf(diag.NotConstant, expr.Range(), "Invalid value", "The value must be a constant.")
		return cty.NilVal, false
	}
	return val, true
}

// typeError reports that the value of attr is not of the wanted kind.
func (d *decoder) typeError(name string, expr hcl.Expression, val cty.Value, want string) {
	got := "null"
	if !val.IsNull() {
		got = val.Type().FriendlyName()
	}
	d.errorf(diag.WrongValueType, expr.Range(), "Incorrect attribute value type",
		"Inappropriate value for attribute %q: %s required, not %s.", name, want, got)
}

// strExpr decodes expr as a string; name is used in messages.
func (d *decoder) strExpr(name string, expr hcl.Expression) (Str, bool) {
	val, ok := d.constValue(expr)
	if !ok {
		return Str{}, false
	}
	if val.IsNull() || val.Type() != cty.String {
		d.typeError(name, expr, val, "a string is")
		return Str{}, false
	}
	return Str{Value: val.AsString(), Range: expr.Range()}, true
}

// str decodes an optional string attribute.
func (d *decoder) str(attr *hcl.Attribute) *Str {
	if attr == nil {
		return nil
	}
	s, ok := d.strExpr(attr.Name, attr.Expr)
	if !ok {
		return nil
	}
	return &s
}

// reqStr decodes a required string attribute (HCL has already reported it
// missing when attr is nil).
func (d *decoder) reqStr(attr *hcl.Attribute) Str {
	if s := d.str(attr); s != nil {
		return *s
	}
	return Str{}
}

// strList decodes a list of strings written as a list literal, keeping
// each element's range.
func (d *decoder) strList(attr *hcl.Attribute) []Str {
	if attr == nil {
		return nil
	}
	out, _ := d.strListExpr(attr.Name, attr.Expr)
	return out
}

// strListExpr decodes expr, the value of attribute name, as a list literal
// of strings; ok is false when it is not a list literal. Elements that are
// not strings are reported and left out.
func (d *decoder) strListExpr(name string, expr hcl.Expression) (out []Str, ok bool) {
	elems, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		d.errorf(diag.WrongValueType, expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute %q: a list of strings is required, like [\"a\", \"b\"].", name)
		return nil, false
	}
	out = make([]Str, 0, len(elems))
	for _, el := range elems {
		val, valid := d.constValue(el)
		if !valid {
			continue
		}
		if val.IsNull() || val.Type() != cty.String {
			got := "null"
			if !val.IsNull() {
				got = val.Type().FriendlyName()
			}
			d.errorf(diag.WrongValueType, el.Range(), "Incorrect attribute value type",
				"Inappropriate element in attribute %q: a string is required, not %s.", name, got)
			continue
		}
		out = append(out, Str{Value: val.AsString(), Range: el.Range()})
	}
	return out, true
}

// flag decodes an optional bool attribute; absent is false.
func (d *decoder) flag(attr *hcl.Attribute) bool {
	if attr == nil {
		return false
	}
	val, ok := d.constValue(attr.Expr)
	if ok && (val.IsNull() || val.Type() != cty.Bool) {
		d.typeError(attr.Name, attr.Expr, val, "a bool is")
		return false
	}
	return ok && val.True()
}

// integer decodes a whole number that fits in 64 bits.
func (d *decoder) integer(attr *hcl.Attribute) *Int {
	if attr == nil {
		return nil
	}
	val, ok := d.constValue(attr.Expr)
	if !ok {
		return nil
	}
	if val.IsNull() || val.Type() != cty.Number {
		d.typeError(attr.Name, attr.Expr, val, "a whole number is")
		return nil
	}
	n, acc := val.AsBigFloat().Int64()
	if acc != big.Exact {
		d.errorf(diag.WrongValueType, attr.Expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute %q: a whole number is required, not %s.", attr.Name, val.AsBigFloat().Text('g', -1))
		return nil
	}
	return &Int{Value: n, Range: attr.Expr.Range()}
}
