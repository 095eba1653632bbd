// Package profile checks a contract's profile blocks (docs/language.md,
// "profile") against the contract's own params and gives their bundle
// form: each key must be a declared param (else unknown-profile-param,
// with the nearest name), each value a constant whose CEL type the param's
// declared type accepts (else profile-param-type), so that every
// criterion, type-checked once against the declared params, reads an
// override as it reads the declared value. It takes the lang AST and the
// declared params as Go constants and gives sorted bundle.Profile values
// and diagnostics. It imports compiler/bundle, compiler/celenv, lang and
// lang/diag; the compiler calls it.
package profile

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/common/types"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// Check checks profiles against declared (the contract's own params by
// name, as the bundle holds them); convert turns an HCL constant into the
// bundle's Go value, as the compiler does for params. The profiles come
// back sorted by name, each one's params sorted by name; a profile with
// an error is left out.
func Check(profiles []*lang.Profile, declared map[string]any, convert func(cty.Value) (any, error)) ([]bundle.Profile, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	fail := func(code diag.Code, r hcl.Range, summary, format string, args ...any) {
		diags = append(diags, diag.Errorf(code, r, summary, format, args...))
	}
	names := make([]string, 0, len(declared))
	for n := range declared {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []bundle.Profile
	for _, p := range profiles {
		bp := bundle.Profile{Name: p.Name.Value}
		if p.Description != nil {
			bp.Description = p.Description.Value
		}
		ok := true
		for _, o := range p.Params {
			base, known := declared[o.Name.Value]
			if !known {
				detail := fmt.Sprintf("Profile %q overrides %q, which is not a param of this contract: a profile only changes the values of the contract's own params.", p.Name.Value, o.Name.Value)
				if s := diag.Suggest(o.Name.Value, names); s != "" {
					detail += fmt.Sprintf(" Did you mean %q?", s)
				} else if len(names) == 0 {
					detail += " The contract declares no params."
				}
				fail("unknown-profile-param", o.Name.Range, "Unknown param in profile", "%s", detail)
				ok = false
				continue
			}
			v, err := convert(o.Value)
			if err != nil {
				fail("unsupported-param-value", o.Range, "Unsupported parameter value", "Profile %q, param %q: %v.", p.Name.Value, o.Name.Value, err)
				ok = false
				continue
			}
			want, got := celenv.ValueType(base), celenv.ValueType(v)
			if !fits(want, v) {
				fail("profile-param-type", o.Range, "Wrong type in profile",
					"Profile %q sets params.%s to a value of type %s, but the param is declared with a value of type %s; a profile changes values, not types.",
					p.Name.Value, o.Name.Value, got, want)
				ok = false
				continue
			}
			bp.Params = append(bp.Params, bundle.Param{Name: o.Name.Value, Value: v})
		}
		if ok {
			sort.Slice(bp.Params, func(i, j int) bool { return bp.Params[i].Name < bp.Params[j].Name })
			out = append(out, bp)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, diags
}

// fits says whether value v may stand where a value of CEL type want was
// declared: element by element, so that an empty list or map fits any
// list or map type (ValueType gives it dyn elements), and anything fits
// dyn (a null param).
func fits(want *types.Type, v any) bool {
	switch v := v.(type) {
	case []any:
		if want.Kind() == types.DynKind {
			return true
		}
		if want.Kind() != types.ListKind {
			return false
		}
		for _, e := range v {
			if !fits(want.Parameters()[0], e) {
				return false
			}
		}
		return true
	case map[string]any:
		if want.Kind() == types.DynKind {
			return true
		}
		if want.Kind() != types.MapKind {
			return false
		}
		for _, e := range v {
			if !fits(want.Parameters()[1], e) {
				return false
			}
		}
		return true
	}
	return want.IsAssignableType(celenv.ValueType(v))
}
