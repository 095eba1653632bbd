package describe

import (
	"encoding/json"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// A hand-made bundle: every criterion form (expression, pattern, negated
// pattern, none), a gate, a grant, a profile, a tool with a typed param.
func TestOf(t *testing.T) {
	c := &bundle.Bundle{
		Header:   bundle.Header{FormatVersion: 2, CompilerVersion: "v", CELVersion: "c"},
		Manifest: bundle.Manifest{Contract: "k", Version: "1", ThreatModel: bundle.ThreatModel{Declared: true, Exposure: 1}},
		Decls: bundle.Decls{
			Tools:    []bundle.Tool{{Name: "send", Operation: "write", Resource: "to", Params: []bundle.Field{{Name: "to", Type: bundle.Type{Kind: bundle.KindString}}}}},
			Grants:   []bundle.Grant{{Name: "g", Allows: []bundle.Allow{{Operation: "read"}}}},
			Profiles: []bundle.Profile{{Name: "p", Params: []bundle.Param{{Name: "x", Value: []any{"a", int64(1)}}}}},
			Scopes:   []bundle.Scope{{Params: []bundle.Param{{Name: "x", Value: "d"}}}},
		},
		Exprs: []bundle.Expr{
			{Text: "output != ''", Range: bundle.Range{File: "main.tenet.hcl", Line: 7}},
			{Text: "true"},
			{Text: "metrics.violations == 0"},
		},
		Plan: bundle.Plan{
			Invariants: []bundle.InvariantPlan{
				{Name: "both", Severity: "high", Holds: bundle.Criterion{Expr: 0, Patterns: []bundle.PatternUse{{Pattern: 0, Negate: true}}}},
				{Name: "pattern", Severity: "low", Holds: bundle.Criterion{Expr: bundle.NoExpr, Patterns: []bundle.PatternUse{{Pattern: 0}}}},
				{Name: "none", Severity: "medium", Holds: bundle.Criterion{Expr: bundle.NoExpr}},
			},
			Gates:    []bundle.GatePlan{{Name: "release", Require: []int{2}}},
			Patterns: []bundle.PatternPlan{{Text: "read _* send", Range: bundle.Range{File: "p.tenet.hcl", Line: 3}}},
		},
	}
	got, err := json.Marshal(Of(c, "sha256:x", "k.tnb", 10, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":"k.tnb","id":"sha256:x","bytes":10,"signers":[],"header":{"format_version":2,"compiler_version":"v","cel_version":"c"},"name":"k","version":"1","description":"","files":[],` +
		`"threat_model":{"declared":true,"injection_vectors":[],"adversary_sees":[],"attempt_budget":0,"exposure":"true"},` +
		`"tools":[{"name":"send","description":"","operation":"write","resource":"to","params":[{"name":"to","type":"string","optional":false}]}],` +
		`"grants":[{"name":"g","allows":[{"operation":"read","resources":[]}]}],"profiles":[{"name":"p","description":"","params":[{"name":"x","value":["a",1]}]}],` +
		`"tasks":[],"goals":[],"cases":[],"side_effects":[],` +
		`"invariants":[{"name":"both","description":"","severity":"high","criterion":{"expr":"output != ''","patterns":[{"text":"read _* send","negate":true}]},"at":{"file":"main.tenet.hcl","line":7}},` +
		`{"name":"pattern","description":"","severity":"low","criterion":{"expr":null,"patterns":[{"text":"read _* send","negate":false}]},"at":{"file":"p.tenet.hcl","line":3}},` +
		`{"name":"none","description":"","severity":"medium","criterion":{"expr":null,"patterns":[]},"at":null}],` +
		`"failures":[],"gates":[{"name":"release","description":"","conditions":[],"require":["metrics.violations == 0"]}],"sources":[],"params":[{"name":"x","value":"d"}],"expressions":3,"patterns":1}`
	if string(got) != want {
		t.Errorf("Of:\n got %s\nwant %s", got, want)
	}
}
