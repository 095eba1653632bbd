package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
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
	// The trace-pattern form (step blocks and forbid) arrives with trace
	// patterns; until then it is refused once per invariant, at forbid or
	// else at the first step block.
	var pattern *hcl.Range
	if a := c.Attributes["forbid"]; a != nil {
		pattern = &a.NameRange
	} else if len(c.Blocks) > 0 {
		pattern = &c.Blocks[0].DefRange
	}
	switch {
	case pattern != nil:
		d.errorf(codeUnsupported, *pattern, "Trace patterns are not supported yet",
			"This version of tenet does not implement an invariant's step blocks and forbid pattern. Write the invariant as a CEL condition every run must satisfy: assert = \"<CEL bool>\".")
	case c.Attributes["assert"] == nil:
		d.errorf(codeMissingAttribute, b.Body.MissingItemRange(), "Missing required argument",
			"The argument \"assert\" is required, but no definition was found.")
	}
	if !d.declare("invariant", inv.Name, b.DefRange) {
		return nil
	}
	return inv
}

// severity decodes an invariant's severity; nil when absent or invalid.
func (d *decoder) severity(attr *hcl.Attribute) *Str {
	s := d.str(attr)
	if s == nil {
		return nil
	}
	for _, v := range Severities {
		if s.Value == v {
			return s
		}
	}
	detail := "The severity " + quote(s.Value) + " is not one of " + strings.Join(Severities, ", ") + "."
	if sug := Suggest(strings.ToLower(s.Value), Severities); sug != "" {
		detail += " Did you mean " + quote(sug) + "?"
	}
	d.errorf(codeInvalidValue, s.Range, "Invalid severity", "%s", detail)
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
			d.errorf(codeInvalidValue, a.Expr.Range(), "Empty gate",
				"A gate needs at least one requirement: require = [\"metrics.<name> <= ...\", ...].")
		}
	}
	if !d.declare("gate", g.Name, b.DefRange) {
		return nil
	}
	return g
}
