package eval

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// profileContract has a predicate constant over params (folded once per
// Program), a variant that reads a param, and a profile overriding both
// params.
const profileContract = `contract "c" {}
threat_model {
  injection_vectors = ["read"]
}
params {
  limit  = 2
  strict = true
}
profile "loose" {
  params = { limit = 10, strict = false }
}
tool "read" {
  operation = "read"
  params    = { path = string }
}
predicate "cap" { expr = "params.limit * 2.0" }
task "t" {
  utility = "double(size(calls)) <= pred.cap"
  variant "lenient" {
    when    = "!params.strict"
    utility = "true"
  }
}
task "u" { utility = "double(size(calls)) <= pred.cap" }
source "s" {
  task      = "meta.task"
  condition = "meta.agent"
}
`

// TestWithProfile: a profile's Program folds the constant predicates with
// the profile's params (pred.cap is 20, not 4), takes the variants its
// params select, names its condition <condition>+<profile>, and leaves
// the base Program as it was.
func TestWithProfile(t *testing.T) {
	p := compileProgram(t, profileContract)
	q, err := p.WithProfile("loose")
	if err != nil {
		t.Fatal(err)
	}
	r := syntheticRun(16) // more calls than the declared cap (4), fewer than the profile's (20)
	r.Meta = map[string]any{"task": "u", "agent": "A"}
	if n := len(r.Calls); n <= 4 || n > 20 {
		t.Fatalf("the run has %d calls; the test needs 5 to 20", n)
	}
	src := &p.Bundle.Plan.Sources[0]
	for _, c := range []struct {
		p        *Program
		task     string
		cond     string
		utility  bool
		constCap float64
	}{
		{p, "u", "A", false, 4}, {q, "u", "A+loose", true, 20},
		{p, "t", "A", false, 4}, {q, "t", "A+loose", true, 20},
	} {
		r.Meta["task"] = c.task
		j, err := c.p.Judge(src, r)
		if err != nil {
			t.Fatal(err)
		}
		if j.Record.Key.Condition != c.cond || !j.Record.Utility.Known || j.Record.Utility.Value != c.utility {
			t.Errorf("%s under %q: condition %q utility %v, want %q %v", c.task, c.p.Profile(), j.Record.Key.Condition, j.Record.Utility, c.cond, c.utility)
		}
		for ref, cp := range c.p.constPreds {
			if c.p.Bundle.Decls.Scopes[ref.Scope].Predicates[ref.Pred].Name == "cap" && cp.Val.Value() != c.constCap {
				t.Errorf("profile %q: folded pred.cap = %v, want %v", c.p.Profile(), cp.Val.Value(), c.constCap)
			}
		}
	}
	if _, err := p.WithProfile("strict"); err == nil || !strings.Contains(err.Error(), `contract c declares no profile "strict" (its profiles: ["loose"])`) {
		t.Errorf("an undeclared profile: %v", err)
	}
}

// TestProfileBundleValidate: a bundle whose profile overrides a param the
// contract does not declare, or whose profiles are out of order, is refused.
func TestProfileBundleValidate(t *testing.T) {
	p := compileProgram(t, profileContract)
	b := *p.Bundle
	b.Decls.Profiles = []bundle.Profile{{Name: "x", Params: []bundle.Param{{Name: "nope", Value: 1.0}}}}
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), `profile x overrides "nope", which is not a param of the contract`) {
		t.Errorf("Validate: %v", err)
	}
	b.Decls.Profiles = []bundle.Profile{{Name: "y"}, {Name: "x"}}
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), `profiles are not sorted by name and unique at "x"`) {
		t.Errorf("Validate: %v", err)
	}
}
