package runs

// Attacks as conditions (docs/metrics.md "Attacks as conditions"): a run
// made under a named attack belongs to the condition (pipeline, attack); a
// pipeline's benign runs are the benign side of each of its attacks'
// conditions. The typed pair is Key.Condition and Key.Attack; the name
// reports show is composed here, once, and never parsed back.

// AttackSeparator joins a pipeline and an attack in a condition's name.
// Safe quotes a name holding a space, so in messages (Key.String) the
// separator cannot be read as part of either name.
const AttackSeparator = " @ "

// ShownCondition is the name of the condition of pipeline condition under
// attack: "condition @ attack", or condition alone when attack is "" (no
// attack named: the condition is the pipeline, as without attacks).
func ShownCondition(condition, attack string) string {
	if attack == "" {
		return condition
	}
	return condition + AttackSeparator + attack
}

// attackSuffix is " @ attack" as Key.String writes it, or "".
func attackSuffix(attack string) string {
	if attack == "" {
		return ""
	}
	return AttackSeparator + Safe(attack)
}

// AttackConditionName names the condition (condition, attack) of contract
// in messages: ConditionName's "contract:condition", then " @ attack" when
// attack is not "", each part quoted as Safe quotes it.
func AttackConditionName(contract, condition, attack string) string {
	return ConditionName(contract, condition) + attackSuffix(attack)
}
