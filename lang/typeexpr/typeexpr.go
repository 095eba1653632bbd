package lang

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Type expressions (DESIGN §2) are read from HCL's expression syntax, not
// from text: a primitive is a bare keyword (hcl.ExprAsKeyword), a
// constructor is a static call (hcl.ExprCall) and object fields are an
// object literal (hcl.ExprMap).

// primitiveTypes are the keyword types; number is an alias of double.
var primitiveTypes = map[string]TypeKind{
	"string": TypeString,
	"int":    TypeInt,
	"double": TypeDouble,
	"number": TypeDouble,
	"bool":   TypeBool,
	"any":    TypeAny,
}

// typeNames are every word a type expression may start with, in the order
// suggestions prefer.
var typeNames = []string{"string", "int", "double", "number", "bool", "any", "list", "map", "object", "optional"}

// typeExamples show each constructor with its argument.
var typeExamples = map[string]string{
	"list":     "list(string)",
	"map":      "map(string)",
	"object":   "object({name = string})",
	"optional": "optional(string)",
}

const typeHelp = "The types are string, int, double (or number), bool, any, list(T), map(T), object({name = T, ...}), and optional(T) for an object field or tool parameter that may be absent."

// String renders t in canonical syntax, e.g.
// `list(object({a = string, b = optional(int)}))`; number is shown as double.
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	if t == nil {
		b.WriteString("<nil>")
		return
	}
	switch t.Kind {
	case TypeAny:
		b.WriteString("any")
	case TypeString:
		b.WriteString("string")
	case TypeInt:
		b.WriteString("int")
	case TypeDouble:
		b.WriteString("double")
	case TypeBool:
		b.WriteString("bool")
	case TypeList, TypeMap:
		if t.Kind == TypeList {
			b.WriteString("list(")
		} else {
			b.WriteString("map(")
		}
		t.Elem.write(b)
		b.WriteString(")")
	case TypeObject:
		b.WriteString("object({")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			f.write(b)
		}
		b.WriteString("})")
	default:
		b.WriteString("<invalid type " + strconv.Itoa(int(t.Kind)) + ">")
	}
}

// String renders the field as it is written in an object type:
// `name = T` or `name = optional(T)`.
func (f *Field) String() string {
	var b strings.Builder
	f.write(&b)
	return b.String()
}

func (f *Field) write(b *strings.Builder) {
	if isIdent(f.Name.Value) {
		b.WriteString(f.Name.Value)
	} else {
		b.WriteString(strconv.Quote(f.Name.Value))
	}
	b.WriteString(" = ")
	if f.Optional {
		b.WriteString("optional(")
		f.Type.write(b)
		b.WriteString(")")
	} else {
		f.Type.write(b)
	}
}

// ParseType reads a type expression such as `list(map(int))`. optional(T)
// is an error here: it is only valid as the type of an object field or tool
// parameter (see ParseFields). On error the returned type is nil and the
// diagnostics say why, with ranges.
func ParseType(expr hcl.Expression) (*Type, hcl.Diagnostics) {
	d := &decoder{}
	t := d.typeExpr(expr)
	return t, d.diags
}

// ParseFields reads an object of field types, `{name = T, ...}`, as written
// inside object(...) or as a tool's params. Field types may be optional(T).
// Fields are returned sorted by name; what names the fields in messages
// ("object type", "tool parameters").
func ParseFields(expr hcl.Expression, what string) ([]*Field, hcl.Diagnostics) {
	d := &decoder{}
	fs := d.fields(expr, what)
	return fs, d.diags
}

// typeExpr reads a type that is not a field type (optional is refused).
func (d *decoder) typeExpr(expr hcl.Expression) *Type {
	t, opt := d.anyTypeExpr(expr)
	if opt {
		d.errorf(codeInvalidType, expr.Range(), "Invalid type",
			"optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.")
		return nil
	}
	return t
}

// anyTypeExpr reads a type; opt reports a top-level optional(T), whose T is
// returned. The caller decides whether optional is allowed there.
func (d *decoder) anyTypeExpr(expr hcl.Expression) (t *Type, opt bool) {
	rng := expr.Range()
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		if kind, ok := primitiveTypes[kw]; ok {
			return &Type{Kind: kind, Range: rng}, false
		}
		if ex, ok := typeExamples[kw]; ok {
			d.errorf(codeInvalidType, rng, "Invalid type", "The type %s needs an argument, like %s.", kw, ex)
			return nil, false
		}
		d.unknownType(kw, rng)
		return nil, false
	}
	if call, diags := hcl.ExprCall(expr); !diags.HasErrors() {
		return d.typeCall(expr, call)
	}
	detail := "Expected a type, such as string, list(string) or object({name = string}). " + typeHelp
	if s, ok := quotedLiteral(expr); ok {
		if _, known := primitiveTypes[s]; known {
			detail = "A type is written without quotes: " + s + ", not \"" + s + "\"."
		}
	}
	d.errorf(codeInvalidType, rng, "Invalid type", "%s", detail)
	return nil, false
}

// typeCall reads list(T), map(T), object({...}) and optional(T).
func (d *decoder) typeCall(expr hcl.Expression, call *hcl.StaticCall) (*Type, bool) {
	rng := expr.Range()
	name := call.Name
	ex, known := typeExamples[name]
	if !known {
		if _, prim := primitiveTypes[name]; prim {
			d.errorf(codeInvalidType, rng, "Invalid type", "The type %s takes no argument: write %s, not %s(...).", name, name, name)
			return nil, false
		}
		d.unknownType(name, call.NameRange)
		return nil, false
	}
	if fc, ok := expr.(*hclsyntax.FunctionCallExpr); ok && fc.ExpandFinal {
		d.errorf(codeInvalidType, rng, "Invalid type", "%s(...) takes one type argument, like %s, not an expanded list (...).", name, ex)
		return nil, false
	}
	if len(call.Arguments) != 1 {
		d.errorf(codeInvalidType, call.ArgsRange, "Invalid type", "%s(...) takes exactly one argument, like %s; found %d.", name, ex, len(call.Arguments))
		return nil, false
	}
	arg := call.Arguments[0]
	switch name {
	case "list", "map":
		elem := d.typeExpr(arg)
		if elem == nil {
			return nil, false
		}
		kind := TypeList
		if name == "map" {
			kind = TypeMap
		}
		return &Type{Kind: kind, Elem: elem, Range: rng}, false
	case "object":
		fs := d.fields(arg, "object type")
		if fs == nil {
			return nil, false
		}
		return &Type{Kind: TypeObject, Fields: fs, Range: rng}, false
	default: // optional
		inner := d.typeExpr(arg)
		if inner == nil {
			return nil, false
		}
		return inner, true
	}
}

// unknownType reports a type name that is not one, with the nearest name
// when there is one and the list of types otherwise.
func (d *decoder) unknownType(name string, rng hcl.Range) {
	if s := Suggest(name, typeNames); s != "" {
		d.errorf(codeInvalidType, rng, "Invalid type", "Unknown type %q; did you mean %q?", name, s)
		return
	}
	d.errorf(codeInvalidType, rng, "Invalid type", "Unknown type %q. %s", name, typeHelp)
}

// fields reads `{name = T, ...}`, sorted by name. It returns nil after
// reporting an error, and a non-nil (possibly empty) slice otherwise.
func (d *decoder) fields(expr hcl.Expression, what string) []*Field {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		d.errorf(codeInvalidType, expr.Range(), "Invalid type",
			"The %s must be written as an object of field types, like {name = string, count = optional(int)}.", what)
		return nil
	}
	out := []*Field{}
	seen := map[string]hcl.Range{}
	failed := false
	for _, kv := range pairs {
		keyRng := kv.Key.Range()
		key, kd := kv.Key.Value(nil)
		if kd.HasErrors() || key.IsNull() || !key.IsKnown() || key.Type() != cty.String {
			d.errorf(codeInvalidName, keyRng, "Invalid field name", "A field name of the %s must be an identifier, like name.", what)
			failed = true
			continue
		}
		name := key.AsString()
		if !d.checkName(Str{Value: name, Range: keyRng}, "Invalid field name", "field name") {
			failed = true
			continue
		}
		if prev, dup := seen[name]; dup {
			d.errorf(codeDuplicateName, keyRng, "Duplicate field", "The field %q was already declared at %s.", name, at(prev))
			failed = true
			continue
		}
		seen[name] = keyRng
		t, opt := d.anyTypeExpr(kv.Value) // a field may be optional(T)
		if t == nil {
			failed = true
			continue
		}
		out = append(out, &Field{
			Name:     Str{Value: name, Range: keyRng},
			Type:     t,
			Optional: opt,
			Range:    hcl.RangeBetween(keyRng, kv.Value.Range()),
		})
	}
	if failed {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name.Value < out[j].Name.Value })
	return out
}

// quotedLiteral returns the value of a quoted string without interpolations.
func quotedLiteral(expr hcl.Expression) (string, bool) {
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) != 1 {
		return "", false
	}
	lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.IsNull() || lit.Val.Type() != cty.String {
		return "", false
	}
	return lit.Val.AsString(), true
}
