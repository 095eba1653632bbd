package profile_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
)

const base = `contract "c" {}
threat_model {
  injection_vectors = []
}
params {
  strict = true
  names  = ["a"]
  limit  = 2
  any    = null
}
task "t" { utility = "params.strict && size(params.names) > 0 && params.limit > 1.0 && params.any == null" }
`

func build(t *testing.T, profiles string) (*compiler.Built, string) {
	t.Helper()
	b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(base + profiles)}, compiler.Options{})
	var msgs []string
	for _, d := range diags {
		if d.Severity == 1 { // hcl.DiagError
			msgs = append(msgs, fmt.Sprintf("%d:%d %s: %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
		}
	}
	return b, strings.Join(msgs, "\n")
}

// TestProfilesInTheBundle: profiles are sorted by name (their params too),
// part of the bundle id (a profile's value changes it), and an empty list
// or any value for a null param fits the declared type.
func TestProfilesInTheBundle(t *testing.T) {
	b1, errs := build(t, `
profile "zeta" {
  params = { strict = false, names = [] }
}
profile "alpha" {
  description = "loose"
  params = { limit = 10, any = "x" }
}
`)
	if errs != "" {
		t.Fatal(errs)
	}
	want := []bundle.Profile{
		{Name: "alpha", Description: "loose", Params: []bundle.Param{{Name: "any", Value: "x"}, {Name: "limit", Value: 10.0}}},
		{Name: "zeta", Params: []bundle.Param{{Name: "names", Value: []any{}}, {Name: "strict", Value: false}}},
	}
	if got := b1.Bundle.Decls.Profiles; !reflect.DeepEqual(got, want) {
		t.Errorf("profiles %+v, want %+v", got, want)
	}
	b2, _ := build(t, `
profile "zeta" {
  params = { strict = false, names = [] }
}
profile "alpha" {
  description = "loose"
  params = { limit = 11, any = "x" }
}
`)
	b3, _ := build(t, "")
	if b1.ID == b2.ID || b1.ID == b3.ID || b2.ID == b3.ID {
		t.Errorf("bundle ids %s, %s, %s: a profile must change the id", b1.ID, b2.ID, b3.ID)
	}
	if b3.Bundle.Decls.Profiles != nil {
		t.Errorf("no profile blocks: %+v", b3.Bundle.Decls.Profiles)
	}
}

// TestProfileRefusals: an undeclared param (with the nearest name) and a
// value of another type, each at the key or the pair.
func TestProfileRefusals(t *testing.T) {
	_, errs := build(t, `
profile "p" {
  params = {
    strikt = false
    names  = [1]
    limit  = "3"
  }
}
`)
	want := `15:5 Unknown param in profile: Profile "p" overrides "strikt", which is not a param of this contract: a profile only changes the values of the contract's own params. Did you mean "strict"?
16:5 Wrong type in profile: Profile "p" sets params.names to a value of type list(double), but the param is declared with a value of type list(string); a profile changes values, not types.
17:5 Wrong type in profile: Profile "p" sets params.limit to a value of type string, but the param is declared with a value of type double; a profile changes values, not types.`
	if errs != want {
		t.Errorf("got\n%s\nwant\n%s", errs, want)
	}
}
