package tally

import "github.com/tenetlang/tenet/eval/runs"

// AttackOf is the typed name of an attack's condition (docs/metrics.md
// "Attacks as conditions"), embedded in Agreement, Checks and AuditCounts:
// their Condition is then "pipeline @ attack" (runs.ShownCondition), and
// Name quotes the pipeline and the attack apart, as runs.Key does. Both
// are "" when no attack is named.
type AttackOf struct {
	Pipeline string
	Attack   string
}

// name is the display name of (contract, condition) as Name gives it.
func (a AttackOf) name(contract, condition string) string {
	if a.Attack != "" {
		return runs.AttackConditionName(contract, a.Pipeline, a.Attack)
	}
	return runs.ConditionName(contract, condition)
}

// of returns the AttackOf and the shown condition of (pipeline, attack).
func of(pipeline, attack string) (AttackOf, string) {
	if attack == "" {
		return AttackOf{}, pipeline
	}
	return AttackOf{Pipeline: pipeline, Attack: attack}, runs.ShownCondition(pipeline, attack)
}

// NewAttackAgreement, NewAttackChecksAcc and NewAttackAuditAcc are
// NewAgreement, NewChecksAcc and NewAuditAcc for the condition (pipeline,
// attack); with attack "" they are those.
func NewAttackAgreement(contract, pipeline, attack string) Agreement {
	o, shown := of(pipeline, attack)
	a := NewAgreement(contract, shown)
	a.AttackOf = o
	return a
}

func NewAttackChecksAcc(contract, pipeline, attack string) *ChecksAcc {
	o, shown := of(pipeline, attack)
	a := NewChecksAcc(contract, shown)
	a.c.AttackOf = o
	return a
}

func NewAttackAuditAcc(contract, pipeline, attack string) *AuditAcc {
	o, shown := of(pipeline, attack)
	a := NewAuditAcc(contract, shown)
	a.a.AttackOf = o
	return a
}
