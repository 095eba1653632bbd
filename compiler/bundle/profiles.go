package bundle

import "fmt"

// Profile is a `profile` block: a named set of overrides of the contract's
// own params (Decls.Scopes[0]), which eval applies to a copy of the
// Program when asked (tenet eval --profile). Params are sorted by name and
// each names a param of the contract's scope; the compiler has checked
// that each value fits the param's CEL type.
type Profile struct {
	Name        string  `cbor:"name"`
	Description string  `cbor:"description"`
	Params      []Param `cbor:"params"`
}

// validProfiles checks what eval relies on: names sorted and unique, each
// override naming a param of the contract's own scope, once.
func (b *Bundle) validProfiles() []error {
	var errs []error
	declared := map[string]bool{}
	if len(b.Decls.Scopes) > 0 {
		for _, p := range b.Decls.Scopes[0].Params {
			declared[p.Name] = true
		}
	}
	for i, pr := range b.Decls.Profiles {
		if i > 0 && b.Decls.Profiles[i-1].Name >= pr.Name {
			errs = append(errs, fmt.Errorf("profiles are not sorted by name and unique at %q", pr.Name))
		}
		for j, p := range pr.Params {
			if !declared[p.Name] || (j > 0 && pr.Params[j-1].Name >= p.Name) {
				errs = append(errs, fmt.Errorf("profile %s overrides %q, which is not a param of the contract, or not in order", pr.Name, p.Name))
			}
		}
	}
	return errs
}

// ProfileNames lists the profiles' names, sorted.
func (b *Bundle) ProfileNames() []string {
	out := make([]string, len(b.Decls.Profiles))
	for i, p := range b.Decls.Profiles {
		out[i] = p.Name
	}
	return out
}

// profiles prints the profiles (Disassemble).
func (l *listing) profiles(b *Bundle) {
	if len(b.Decls.Profiles) == 0 {
		return
	}
	l.pf("profiles\n")
	for _, pr := range b.Decls.Profiles {
		l.pf("  %s", pr.Name)
		if pr.Description != "" {
			l.pf("  %q", pr.Description)
		}
		l.pf("\n")
		for _, p := range pr.Params {
			l.pf("    params.%s = %s\n", p.Name, valueString(p.Value))
		}
	}
}
