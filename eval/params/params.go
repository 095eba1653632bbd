// Package params builds the params value a bundle's criteria see in each
// scope: a contract's own params, and an import's also reachable from its
// parent's under its namespace, converted to CEL values once per bundle
// (not element by element at every access).
package params

import (
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
)

// Scopes builds the params of each scope of b, index-aligned with
// b.Decls.Scopes, with the bundle's values as written, and the index of
// scopes by path. consistency.NewEnvs has checked that every import names
// a scope the bundle contains.
func Scopes(b *bundle.Bundle) (params []map[string]any, index map[string]int) {
	params = make([]map[string]any, len(b.Decls.Scopes))
	index = map[string]int{}
	for i, sc := range b.Decls.Scopes {
		params[i] = map[string]any{}
		for _, pr := range sc.Params {
			params[i][pr.Name] = pr.Value
		}
		index[sc.Path] = i
	}
	for i, sc := range b.Decls.Scopes {
		for _, ns := range sc.Namespaces {
			params[i][ns] = params[index[celenv.Child(sc.Path, ns)]]
		}
	}
	return params, index
}

// Convert replaces each scope's params values by CEL values (an import's
// params map is shared with its parent's, so it is converted once too);
// override replaces the contract's own (scope 0) values by name (a
// profile's).
func Convert(b *bundle.Bundle, params []map[string]any, override map[string]any, adapter types.Adapter) {
	for i, sc := range b.Decls.Scopes {
		for _, pr := range sc.Params {
			v := pr.Value
			if o, ok := override[pr.Name]; ok && i == 0 {
				v = o
			}
			params[i][pr.Name] = Value(adapter, v)
		}
	}
}

// Value converts a constant (nil, bool, float64, string, []any,
// map[string]any, as params are) to a CEL value, lists and maps deeply, as
// cel-go would convert it at every access.
func Value(adapter types.Adapter, v any) ref.Val {
	switch v := v.(type) {
	case []any:
		elems := make([]ref.Val, len(v))
		for i, e := range v {
			elems[i] = Value(adapter, e)
		}
		return types.NewRefValList(adapter, elems)
	case map[string]any:
		m := make(map[ref.Val]ref.Val, len(v))
		for k, e := range v {
			m[types.String(k)] = Value(adapter, e)
		}
		return types.NewRefValMap(adapter, m)
	}
	return adapter.NativeToValue(v)
}
