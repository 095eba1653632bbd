package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// Severities are the severities an invariant may declare, least severe
// first; an invariant without one is "medium".
var Severities = []string{"low", "medium", "high", "critical"}

func (d *decoder) invariant(b *hcl.Block) *Invariant {
	c := d.content(b.Body, invariantSchema)
	inv := &Invariant{
		Name:        d.label(b, "name", true),
		Description: d.str(c.Attributes["description"]),
		Severity:    d.severity(c.Attributes["severity"]),
		Assert:      d.criterion(c.Attributes["assert"]),
		Range:       b.DefRange,
	}
	inv.Trace = d.trace(b, c, traceRules{forbid: true})
	d.require(b, c, []string{"assert", "match", "forbid"},
		"An invariant needs assert = \"<CEL bool that must hold>\", match = \"<trace pattern that must match>\" or forbid = \"<trace pattern that must not match>\"; any of them may be combined, and the invariant holds when every one given does.")
	if !d.declare("invariant", inv.Name, b.DefRange) {
		return nil
	}
	return inv
}

// severity decodes an invariant's severity; nil when absent or invalid.
func (d *decoder) severity(attr *hcl.Attribute) *Str {
	return d.oneOf(attr, "severity", Severities)
}

// AttemptRules are the ways the attempts of one security case combine
// into its utility, side-effect or exposure label (attack success is always
// "any": the adversary's best attempt).
var AttemptRules = []string{"any", "all", "first", "last"}

// oneOf decodes a string attribute that must be one of values; nil when
// absent or invalid (an error with the nearest value).
func (d *decoder) oneOf(attr *hcl.Attribute, what string, values []string) *Str {
	s := d.str(attr)
	if s == nil {
		return nil
	}
	for _, v := range values {
		if s.Value == v {
			return s
		}
	}
	detail := "The " + what + " " + quote(s.Value) + " is not one of " + strings.Join(values, ", ") + "."
	if sug := diag.Suggest(strings.ToLower(s.Value), values); sug != "" {
		detail += " Did you mean " + quote(sug) + "?"
	}
	d.errorf(diag.InvalidValue, s.Range, "Invalid "+what, "%s", detail)
	return nil
}

func (d *decoder) failure(b *hcl.Block) *Failure {
	c := d.content(b.Body, failureSchema)
	f := &Failure{
		Name:        d.label(b, "name", true),
		Description: d.str(c.Attributes["description"]),
		When:        d.criterion(c.Attributes["when"]),
		Range:       b.DefRange,
	}
	f.Trace = d.trace(b, c, traceRules{})
	d.require(b, c, []string{"when", "match"},
		"A failure needs when = \"<CEL bool>\", match = \"<trace pattern>\", or both (the run then belongs to the class when both hold).")
	if !d.declare("failure", f.Name, b.DefRange) {
		return nil
	}
	return f
}

func (d *decoder) gate(b *hcl.Block) *Gate {
	c := d.content(b.Body, gateSchema)
	g := &Gate{
		Name:        d.label(b, "name", false),
		Description: d.str(c.Attributes["description"]),
		Require:     d.criterionList(c.Attributes["require"]),
		Conditions:  d.strList(c.Attributes["conditions"]),
		Range:       b.DefRange,
	}
	if a := c.Attributes["require"]; a != nil {
		if elems, diags := hcl.ExprList(a.Expr); !diags.HasErrors() && len(elems) == 0 {
			d.errorf(diag.InvalidValue, a.Expr.Range(), "Empty gate",
				"A gate needs at least one requirement: require = [\"metrics.<name> <= ...\", ...].")
		}
	}
	if !d.declare("gate", g.Name, b.DefRange) {
		return nil
	}
	return g
}
