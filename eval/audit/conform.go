package audit

import (
	"fmt"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// ConformArgs gives a call's arguments the shape of its tool's schema, for
// the typed `tools.<name>` view (docs/language.md, tool): an int parameter sent as a
// whole JSON number becomes an int; an optional parameter sent as null is
// treated as absent. A value that does not fit its declared type (no
// coercion: "98.70" is not a double) or a missing required parameter
// becomes an error value, so a criterion that reads it is unknown, never
// silently false. Undeclared arguments are left out (the typed view cannot
// name them; the generic `calls` keeps them).
func ConformArgs(tool string, args map[string]any, schema []bundle.Field) map[string]any {
	return conformObject(tool, "", args, schema)
}

func conformObject(tool, path string, obj map[string]any, fields []bundle.Field) map[string]any {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		p := bundle.MemberPath(path, f.Name)
		v, present := obj[f.Name]
		switch {
		case (!present || v == nil) && f.Optional:
			// absent
		case !present:
			out[f.Name] = types.NewErr("argument %s of %s is missing (declared %s)", p, tool, f.Type)
		default:
			out[f.Name] = conformValue(tool, p, v, f.Type)
		}
	}
	return out
}

// conformValue is v in the shape of its declared type t for the typed
// view: a whole number declared int as an int64, an object with only its
// declared members. Containers are conformed member by member, so that a
// member that does not fit becomes an error value and its siblings keep
// theirs; whether a value fits is bundle.CheckValue's to say.
func conformValue(tool, path string, v any, t bundle.Type) any {
	switch t.Kind {
	case bundle.KindList:
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				out[i] = conformValue(tool, fmt.Sprintf("%s[%d]", path, i), e, t.ElemType())
			}
			return out
		}
	case bundle.KindMap:
		if m, ok := v.(map[string]any); ok {
			out := make(map[string]any, len(m))
			for k, e := range m {
				out[k] = conformValue(tool, bundle.MemberPath(path, k), e, t.ElemType())
			}
			return out
		}
	case bundle.KindObject:
		if m, ok := v.(map[string]any); ok {
			return conformObject(tool, path, m, t.Fields)
		}
	}
	// A scalar, or a value that is not the container declared.
	if p := bundle.CheckValue(path, v, t); p != nil {
		return types.NewErr("argument %s of %s is %s, declared %s", p.Path, tool, jsonKind(p.Value), p.Type)
	}
	if t.Kind == bundle.KindInt {
		i, _ := bundle.Int(v) // it fits: CheckValue used the same test
		return i
	}
	return v
}

// jsonKind names the JSON kind of a decoded value for messages.
func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", clip(v))
	case float64:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("%t", v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
