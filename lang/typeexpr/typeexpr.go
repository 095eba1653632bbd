// Package typeexpr reads the type expressions of a contract — a tool's
// params and the fields of an object type, such as
// `list(object({a = string, b = optional(int)}))` — into a Type with ranges,
// and renders a Type back in canonical syntax.
//
// Its contract: Parse and ParseFields take an hcl.Expression and give the
// type (or its fields), or nil and error diagnostics, each with a stable
// code (invalid-type, invalid-name, duplicate-name) and a "did you mean"
// suggestion where one fits. Which field names are acceptable is the
// caller's rule (a CheckName). It imports lang/diag only; package lang
// re-exports Type, Field and Kind as lang.Type, lang.Field and
// lang.TypeKind, so that the AST reads as one.
//
// Type expressions are read from HCL's expression syntax, not from text
// (docs/language.md, tool parameters): a primitive is a bare keyword
// (hcl.ExprAsKeyword), a constructor is a static call (hcl.ExprCall) and
// object fields are an object literal (hcl.ExprMap).
package typeexpr

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
)

// Kind is the kind of a parameter type.
type Kind int

// The parameter type kinds (docs/language.md).
const (
	Any Kind = iota
	String
	Int
	Double // also written `number`
	Bool
	List
	Map // map(T): string keys
	Object
)

// Type is a parameter type expression such as `list(object({a = string}))`.
type Type struct {
	Kind   Kind
	Elem   *Type    // List, Map
	Fields []*Field // Object, sorted by name
	Range  hcl.Range
}

// Field is a named, typed member of an object type or a tool's parameter
// schema. For `date = optional(string)`, Type is string (with the range of
// `string`), Optional is true and Range covers the whole item.
type Field struct {
	Name     Name
	Type     *Type
	Optional bool      // written optional(T): the key may be absent
	Range    hcl.Range // the whole `name = T` item, for diagnostics about the field
}

// Name is a field name with the range of its key.
type Name struct {
	Value string
	Range hcl.Range
}

// CheckName returns the error diagnostic for a field name the caller does
// not accept (lang requires an identifier CEL can refer to), or nil.
type CheckName func(name string, rng hcl.Range) *hcl.Diagnostic

// reader accumulates the diagnostics of one Parse or ParseFields call.
type reader struct {
	check CheckName
	diags hcl.Diagnostics
}

func (d *reader) errorf(code diag.Code, subject hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, diag.Errorf(code, subject, summary, format, args...))
}

// primitiveTypes are the keyword types; number is an alias of double.
var primitiveTypes = map[string]Kind{
	"string": String,
	"int":    Int,
	"double": Double,
	"number": Double,
	"bool":   Bool,
	"any":    Any,
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
	case Any:
		b.WriteString("any")
	case String:
		b.WriteString("string")
	case Int:
		b.WriteString("int")
	case Double:
		b.WriteString("double")
	case Bool:
		b.WriteString("bool")
	case List, Map:
		if t.Kind == List {
			b.WriteString("list(")
		} else {
			b.WriteString("map(")
		}
		t.Elem.write(b)
		b.WriteString(")")
	case Object:
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

// ident matches the names a field is written with unquoted: CEL
// identifiers, the names lang accepts.
var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// String renders the field as it is written in an object type:
// `name = T` or `name = optional(T)`.
func (f *Field) String() string {
	var b strings.Builder
	f.write(&b)
	return b.String()
}

func (f *Field) write(b *strings.Builder) {
	if ident.MatchString(f.Name.Value) {
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

// Parse reads a type expression such as `list(map(int))`. optional(T)
// is an error here: it is only valid as the type of an object field or tool
// parameter (see ParseFields). Field names of object types are checked with
// check (nil accepts any). On error the returned type is nil and the
// diagnostics say why, with ranges.
func Parse(expr hcl.Expression, check CheckName) (*Type, hcl.Diagnostics) {
	d := &reader{check: check}
	t := d.typeExpr(expr)
	return t, d.diags
}

// ParseFields reads an object of field types, `{name = T, ...}`, as written
// inside object(...) or as a tool's params. Field types may be optional(T).
// Fields are returned sorted by name; what names the fields in messages
// ("object type", "tool parameters"). It returns nil after reporting an
// error, and a non-nil (possibly empty) slice otherwise.
func ParseFields(expr hcl.Expression, what string, check CheckName) ([]*Field, hcl.Diagnostics) {
	d := &reader{check: check}
	fs := d.fields(expr, what)
	return fs, d.diags
}

// typeExpr reads a type that is not a field type (optional is refused).
func (d *reader) typeExpr(expr hcl.Expression) *Type {
	t, opt := d.anyTypeExpr(expr)
	if opt {
		d.errorf(diag.InvalidType, expr.Range(), "Invalid type",
			"optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.")
		return nil
	}
	return t
}

// anyTypeExpr reads a type; opt reports a top-level optional(T), whose T is
// returned. The caller decides whether optional is allowed there.
func (d *reader) anyTypeExpr(expr hcl.Expression) (t *Type, opt bool) {
	rng := expr.Range()
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		if kind, ok := primitiveTypes[kw]; ok {
			return &Type{Kind: kind, Range: rng}, false
		}
		if ex, ok := typeExamples[kw]; ok {
			d.errorf(diag.InvalidType, rng, "Invalid type", "The type %s needs an argument, like %s.", kw, ex)
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
	d.errorf(diag.InvalidType, rng, "Invalid type", "%s", detail)
	return nil, false
}

// typeCall reads list(T), map(T), object({...}) and optional(T).
func (d *reader) typeCall(expr hcl.Expression, call *hcl.StaticCall) (*Type, bool) {
	rng := expr.Range()
	name := call.Name
	ex, known := typeExamples[name]
	if !known {
		if _, prim := primitiveTypes[name]; prim {
			d.errorf(diag.InvalidType, rng, "Invalid type", "The type %s takes no argument: write %s, not %s(...).", name, name, name)
			return nil, false
		}
		d.unknownType(name, call.NameRange)
		return nil, false
	}
	if fc, ok := expr.(*hclsyntax.FunctionCallExpr); ok && fc.ExpandFinal {
		d.errorf(diag.InvalidType, rng, "Invalid type", "%s(...) takes one type argument, like %s, not an expanded list (...).", name, ex)
		return nil, false
	}
	if len(call.Arguments) != 1 {
		d.errorf(diag.InvalidType, call.ArgsRange, "Invalid type", "%s(...) takes exactly one argument, like %s; found %d.", name, ex, len(call.Arguments))
		return nil, false
	}
	arg := call.Arguments[0]
	switch name {
	case "list", "map":
		elem := d.typeExpr(arg)
		if elem == nil {
			return nil, false
		}
		kind := List
		if name == "map" {
			kind = Map
		}
		return &Type{Kind: kind, Elem: elem, Range: rng}, false
	case "object":
		fs := d.fields(arg, "object type")
		if fs == nil {
			return nil, false
		}
		return &Type{Kind: Object, Fields: fs, Range: rng}, false
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
func (d *reader) unknownType(name string, rng hcl.Range) {
	if s := diag.Suggest(name, typeNames); s != "" {
		d.errorf(diag.InvalidType, rng, "Invalid type", "Unknown type %q; did you mean %q?", name, s)
		return
	}
	d.errorf(diag.InvalidType, rng, "Invalid type", "Unknown type %q. %s", name, typeHelp)
}

// fields reads `{name = T, ...}`, sorted by name. It returns nil after
// reporting an error, and a non-nil (possibly empty) slice otherwise.
func (d *reader) fields(expr hcl.Expression, what string) []*Field {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		d.errorf(diag.InvalidType, expr.Range(), "Invalid type",
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
			d.errorf(diag.InvalidName, keyRng, "Invalid field name", "A field name of the %s must be an identifier, like name.", what)
			failed = true
			continue
		}
		name := key.AsString()
		if d.check != nil {
			if bad := d.check(name, keyRng); bad != nil {
				d.diags = append(d.diags, bad)
				failed = true
				continue
			}
		}
		if prev, dup := seen[name]; dup {
			d.errorf(diag.DuplicateName, keyRng, "Duplicate field", "The field %q was already declared at %s:%d:%d.", name, prev.Filename, prev.Start.Line, prev.Start.Column)
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
			Name:     Name{Value: name, Range: keyRng},
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
