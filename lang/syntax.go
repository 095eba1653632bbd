package lang

import "github.com/hashicorp/hcl/v2"

// Syntax lists every block of the language with its attributes: block
// type → attribute names (nested blocks are named "parent.child", such as
// "task.step"). The golden-coverage test uses it to require an example of
// each.
func Syntax() map[string][]string {
	out := map[string][]string{}
	names := func(s *hcl.BodySchema, except []string) []string {
		var out []string
		for _, a := range s.Attributes {
			if !contains(except, a.Name) {
				out = append(out, a.Name)
			}
		}
		return out
	}
	add := func(block string, s *hcl.BodySchema, except ...string) {
		out[block] = names(s, except)
		for _, b := range s.Blocks {
			if b.Type == "step" { // the step blocks of criterion blocks
				out[block+".step"] = names(stepSchema, nil)
			}
		}
	}
	add("contract", contractSchema)
	add("threat_model", threatModelSchema)
	add("params", &hcl.BodySchema{})
	add("registry", registrySchema)
	add("tool", toolSchema)
	add("grant", grantSchema)
	add("grant.allow", allowSchema)
	// forbid is in every criterion block's schema, to be refused with a
	// precise message; only invariant and side_effect allow it.
	add("predicate", predicateSchema, "forbid")
	add("task", taskSchema, "forbid")
	add("goal", goalSchema, "forbid")
	add(LabelSideEffect, sideEffectSchema)
	add("cases", casesSchema)
	add("goal_tasks", goalTasksSchema)
	add("source", sourceSchema)
	add("source.given", givenSchema)
	add("task.variant", &hcl.BodySchema{Attributes: attrs([]string{"when", LabelUtility})})
	add("goal.variant", &hcl.BodySchema{Attributes: attrs([]string{"when", "success"})})
	add("invariant", invariantSchema)
	add("failure", failureSchema, "forbid")
	add("gate", gateSchema)
	add("test", testSchema)
	add("use", useSchema)
	add("profile", profileSchema)
	add("attack_aggregate", attackAggregateSchema)
	return out
}
