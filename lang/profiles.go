package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/sourcetext"
)

// Profile is a `profile "name" { description = "…" params = { … } }` block:
// a named set of overrides of the contract's own params, which tenet eval
// --profile judges runs under besides the params as declared (a condition
// of its own, docs/language.md "profile"). That each key is a declared
// param and each value fits its type is the compiler's check.
type Profile struct {
	Name        Str
	Description *Str
	Params      []*Param // in source order; Range is the key = value pair's
	Range       hcl.Range
}

var profileSchema = &hcl.BodySchema{Attributes: attrs([]string{"params"}, "description")}

// profile decodes a profile block; nil when it is a duplicate.
func (d *decoder) profile(b *hcl.Block) *Profile {
	c := d.content(b.Body, profileSchema)
	p := &Profile{Name: d.label(b, "name", true), Description: d.str(c.Attributes["description"]), Range: b.DefRange}
	if a := c.Attributes["params"]; a != nil {
		p.Params = d.profileParams(a)
	}
	if !d.declare("profile", p.Name, b.DefRange) {
		return nil
	}
	return p
}

// profileParams decodes a profile's params object: param name = constant.
func (d *decoder) profileParams(a *hcl.Attribute) []*Param {
	pairs, diags := hcl.ExprMap(a.Expr)
	if diags.HasErrors() {
		d.errorf(diag.WrongValueType, a.Expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute \"params\": an object of param overrides is required, like { strict = false }; found %s.", sourcetext.Describe(a.Expr))
		return nil
	}
	var out []*Param
	seen := map[string]hcl.Range{}
	for _, kv := range pairs {
		key, kd := kv.Key.Value(nil)
		if kd.HasErrors() {
			d.addHCL(kd, diag.InvalidValue)
			continue
		}
		if key.IsNull() || !key.IsKnown() || key.Type() != cty.String {
			d.errorf(diag.InvalidName, kv.Key.Range(), "Invalid param name", "A key of a profile's params is the name of a declared param.")
			continue
		}
		name := Str{Value: key.AsString(), Range: kv.Key.Range()}
		if !d.checkName(name, "Invalid param name", "param name") {
			continue
		}
		if prev, dup := seen[name.Value]; dup {
			d.errorf(diag.DuplicateAttribute, name.Range, "Duplicate param override",
				"This profile already sets %q at %s.", name.Value, at(prev))
			continue
		}
		seen[name.Value] = name.Range
		if val, ok := d.constValue(kv.Value); ok {
			out = append(out, &Param{Name: name, Value: val, Range: hcl.RangeBetween(name.Range, kv.Value.Range())})
		}
	}
	return out
}
