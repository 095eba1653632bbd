package lang

import "github.com/hashicorp/hcl/v2"

// Syntax lists every block of the language with its attributes: block
// type → attribute names (nested blocks are named "parent.child"). The
// golden-coverage test uses it to require an example of each.
func Syntax() map[string][]string {
	out := map[string][]string{}
	add := func(block string, s *hcl.BodySchema) {
		var names []string
		for _, a := range s.Attributes {
			names = append(names, a.Name)
		}
		out[block] = names
	}
	add("contract", contractSchema)
	add("threat_model", threatModelSchema)
	add("params", &hcl.BodySchema{})
	add("registry", registrySchema)
	add("tool", toolSchema)
	add("grant", grantSchema)
	add("grant.allow", allowSchema)
	add("predicate", predicateSchema)
	add("task", taskSchema)
	add("goal", goalSchema)
	add("side_effect", sideEffectSchema)
	add("cases", casesSchema)
	add("source", sourceSchema)
	add("source.given", givenSchema)
	add("invariant", &hcl.BodySchema{Attributes: attrs(nil, "description", "severity", "assert")}) // step/forbid: not yet
	add("failure", failureSchema)
	add("gate", gateSchema)
	add("test", testSchema)
	add("use", useSchema)
	return out
}
