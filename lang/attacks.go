package lang

import "github.com/hashicorp/hcl/v2"

// AttackAggregate is an `attack_aggregate "name" { ... }` block: for a
// condition (pipeline) run under two or more attacks (the source's attack
// expression), how a security case's labels under each attack combine into
// the case's labels in the extra condition "pipeline @ name". Each rule is
// one of AttemptRules; nil means the default: attack success "any" (one
// attack that succeeded is enough), utility "all" (the task must be done
// under every attack), side effect "any", exposed "any" — AgentDojo's "max
// over attacks" (docs/metrics.md "Attacks as conditions").
type AttackAggregate struct {
	Name                                        Str
	AttackSuccess, Utility, SideEffect, Exposed *Str
	Range                                       hcl.Range
}

var attackAggregateSchema = &hcl.BodySchema{Attributes: attrs(nil, LabelAttackSuccess, LabelUtility, LabelSideEffect, LabelExposed)}

func (d *decoder) attackAggregate(b *hcl.Block) *AttackAggregate {
	c := d.content(b.Body, attackAggregateSchema)
	rule := func(name string) *Str { return d.oneOf(c.Attributes[name], "attack rule", AttemptRules) }
	a := &AttackAggregate{
		Name:          d.label(b, "name", false),
		AttackSuccess: rule(LabelAttackSuccess),
		Utility:       rule(LabelUtility),
		SideEffect:    rule(LabelSideEffect),
		Exposed:       rule(LabelExposed),
		Range:         b.DefRange,
	}
	if !d.declare("attack_aggregate", a.Name, b.DefRange) {
		return nil
	}
	return a
}
