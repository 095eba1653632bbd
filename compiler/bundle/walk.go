package bundle

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Problem is where and how a value fails its declared type (CheckValue).
type Problem struct {
	// Path locates the value from the checked one: "" for itself, else
	// member names and list indexes as arguments are named, e.g.
	// "items[2].name" (CheckValue's path argument comes first).
	Path  string
	Value any  // the value found at Path
	Type  Type // the type declared at Path
	// Missing and Unexpected are set when the value at Path is an object
	// whose members are not the declared ones: the required members it
	// lacks and the undeclared members it has, each sorted. Otherwise the
	// value is not of Type's kind.
	Missing, Unexpected []string
}

// Members renders a members problem: "missing a, b; unexpected c".
func (p *Problem) Members() string {
	var parts []string
	if len(p.Missing) > 0 {
		parts = append(parts, "missing "+strings.Join(p.Missing, ", "))
	}
	if len(p.Unexpected) > 0 {
		parts = append(parts, "unexpected "+strings.Join(p.Unexpected, ", "))
	}
	return strings.Join(parts, "; ")
}

// CheckValue checks a decoded JSON value (nil, bool, float64, string,
// []any, map[string]any: what the transcript reader produces) against a
// parameter type, with no coercion — a bool is not a number, "98.70" is not
// a double, 2.5 is not an int — and returns the first problem, or nil.
// path is the value's own path (e.g. the argument's name; "" for a tool's
// whole arguments checked as an object).
//
// "First" is a fixed order, so the answer is deterministic: an object's
// members (missing or undeclared) before their values, members in
// declared (sorted) order, list elements in order, map keys sorted. An
// optional member may be absent or null. It is the one definition of
// "fits its declared type" that eval's audit (the schema checks) and its
// typed view of arguments (conformance) share.
func CheckValue(path string, v any, t Type) *Problem {
	bad := func() *Problem { return &Problem{Path: path, Value: v, Type: t} }
	switch t.Kind {
	case KindAny:
		return nil
	case KindString:
		if _, ok := v.(string); !ok {
			return bad()
		}
	case KindBool:
		if _, ok := v.(bool); !ok {
			return bad()
		}
	case KindDouble:
		if _, ok := v.(float64); !ok {
			return bad()
		}
	case KindInt:
		if _, ok := Int(v); !ok {
			return bad()
		}
	case KindList:
		l, ok := v.([]any)
		if !ok {
			return bad()
		}
		elem := t.ElemType()
		for i, e := range l {
			if p := CheckValue(path+"["+strconv.Itoa(i)+"]", e, elem); p != nil {
				return p
			}
		}
	case KindMap:
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		elem := t.ElemType()
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if p := CheckValue(MemberPath(path, k), m[k], elem); p != nil {
				return p
			}
		}
	case KindObject:
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		if missing, unexpected := members(m, t.Fields); len(missing)+len(unexpected) > 0 {
			return &Problem{Path: path, Value: v, Type: t, Missing: missing, Unexpected: unexpected}
		}
		for _, f := range t.Fields {
			fv, present := m[f.Name]
			if !present || (fv == nil && f.Optional) {
				continue
			}
			if p := CheckValue(MemberPath(path, f.Name), fv, f.Type); p != nil {
				return p
			}
		}
	default:
		// Validate refuses such a bundle; a Type built in memory with no
		// kind fits nothing rather than everything.
		return bad()
	}
	return nil
}

// members returns an object's missing required members (in declared
// order, which is sorted) and its undeclared members, sorted.
func members(m map[string]any, fields []Field) (missing, unexpected []string) {
	declared := make(map[string]bool, len(fields))
	for _, f := range fields {
		declared[f.Name] = true
		if _, ok := m[f.Name]; !ok && !f.Optional {
			missing = append(missing, f.Name)
		}
	}
	for k := range m {
		if !declared[k] {
			unexpected = append(unexpected, k)
		}
	}
	slices.Sort(unexpected)
	return missing, unexpected
}

// MemberPath is the path of member name of the value at path: "name" at
// the top, else "path.name".
func MemberPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Int is the one test of "is this JSON value an int": a float64 (JSON
// numbers decode to float64) with no fractional part, within int64's
// range; it returns the value as an int64. 2^63 itself is out of range
// (float64(math.MaxInt64) rounds up to it).
func Int(v any) (int64, bool) {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

// ElemType is the element type of a list or map type: Elem, or any when
// the bundle leaves it out.
func (t Type) ElemType() Type {
	if t.Elem == nil {
		return Type{Kind: KindAny}
	}
	return *t.Elem
}

// TypeStyle is how Type.Text writes an object's members.
type TypeStyle uint8

const (
	// Contract is contract syntax, "object({a = string, b = optional(int)})":
	// what the audit's and the typed view's messages say.
	Contract TypeStyle = iota
	// Listing is "object({a: string, b: optional(int)})", the style of
	// Disassemble's (tenet inspect's) parameter lists.
	Listing
)

// String renders t in contract syntax, e.g. "list(object({a = string}))".
func (t Type) String() string { return t.Text(Contract) }

// Text renders t in the given style; a list's or map's missing element
// type is shown as any.
func (t Type) Text(s TypeStyle) string {
	switch t.Kind {
	case KindList, KindMap:
		return t.Kind.String() + "(" + t.ElemType().Text(s) + ")"
	case KindObject:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f.Text(s)
		}
		return "object({" + strings.Join(fs, ", ") + "})"
	}
	return t.Kind.String()
}

// Text renders a member or parameter, "name = optional(T)" in contract
// style, "name: optional(T)" in listing style.
func (f Field) Text(s TypeStyle) string {
	t := f.Type.Text(s)
	if f.Optional {
		t = "optional(" + t + ")"
	}
	if s == Listing {
		return f.Name + ": " + t
	}
	return f.Name + " = " + t
}
