package audit

import (
	"fmt"
	"math"

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
		p := f.Name
		if path != "" {
			p = path + "." + f.Name
		}
		v, present := obj[f.Name]
		switch {
		case (!present || v == nil) && f.Optional:
			// absent
		case !present:
			out[f.Name] = types.NewErr("argument %s of %s is missing (declared %s)", p, tool, typeString(f.Type))
		default:
			out[f.Name] = conformValue(tool, p, v, f.Type)
		}
	}
	return out
}

func conformValue(tool, path string, v any, t bundle.Type) any {
	bad := func() any {
		return types.NewErr("argument %s of %s is %s, declared %s", path, tool, jsonKind(v), typeString(t))
	}
	switch t.Kind {
	case "any":
		return v
	case "string":
		if _, ok := v.(string); ok {
			return v
		}
	case "bool":
		if _, ok := v.(bool); ok {
			return v
		}
	case "double":
		if _, ok := v.(float64); ok {
			return v
		}
	case "int":
		if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return int64(f)
		}
	case "list":
		l, ok := v.([]any)
		if !ok {
			return bad()
		}
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = conformValue(tool, fmt.Sprintf("%s[%d]", path, i), e, elemOf(t))
		}
		return out
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = conformValue(tool, path+"."+k, e, elemOf(t))
		}
		return out
	case "object":
		if m, ok := v.(map[string]any); ok {
			return conformObject(tool, path, m, t.Fields)
		}
	}
	return bad()
}

func elemOf(t bundle.Type) bundle.Type {
	if t.Elem == nil {
		return bundle.Type{Kind: "any"}
	}
	return *t.Elem
}

// typeString renders a parameter type in contract syntax.
func typeString(t bundle.Type) string {
	switch t.Kind {
	case "list", "map":
		return t.Kind + "(" + typeString(elemOf(t)) + ")"
	case "object":
		s := "object({"
		for i, f := range t.Fields {
			if i > 0 {
				s += ", "
			}
			ft := typeString(f.Type)
			if f.Optional {
				ft = "optional(" + ft + ")"
			}
			s += f.Name + " = " + ft
		}
		return s + "})"
	}
	return t.Kind
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
