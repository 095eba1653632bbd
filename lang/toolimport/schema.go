package toolimport

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/lang"
)

// converter maps one tool's JSON Schema to tenet parameter types, noting
// what the types do not say.
type converter struct {
	tool      string
	root      any // the tool's schema, for local $refs
	rootPtr   string
	nodes     int
	expanding map[string]bool // $refs being expanded: a loop is refused
	seen      map[string]bool // warnings given (pointer, format)
	warnings  []Warning
}

func (c *converter) warn(ptr, format string, args ...any) {
	// A schema reached by several $refs is reported once, where it is.
	key := ptr + "\x00" + format
	if c.seen[key] {
		return
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[key] = true
	c.warnings = append(c.warnings, Warning{Tool: c.tool, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// Keywords that describe a value without constraining it: dropping them
// loses nothing a contract checks, so they are not warned about.
var annotationKeywords = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "$schema": true,
	"$id": true, "$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"$defs": true, "definitions": true,
}

// Keywords the mapping itself reads.
var structuralKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true,
	"additionalProperties": true, "anyOf": true, "oneOf": true, "$ref": true, "nullable": true,
}

// params maps the top-level schema: an object's properties become the
// params attribute. Anything else gives no params (untyped arguments).
func (c *converter) params(schema any, ptr string) string {
	c.root, c.rootPtr, c.expanding = schema, ptr, map[string]bool{"#": true}
	obj, ok := schema.(map[string]any)
	if !ok {
		c.warn(ptr, "the schema is %s, not an object schema: arguments are untyped (no params)", clip(jsonText(schema), 60))
		return ""
	}
	if t, ok := obj["type"]; ok && t != "object" {
		c.warn(ptr+"/type", "arguments of type %s, not object: untyped (no params)", clip(jsonText(t), 60))
		return ""
	}
	if _, ok := obj["properties"]; !ok {
		if ap, ok := obj["additionalProperties"]; ok && ap != false {
			c.warn(ptr, "arguments with any names (additionalProperties without properties): untyped (no params)")
			return ""
		}
	}
	return c.object(obj, ptr, 0, true)
}

// typ maps one schema to a type expression; depth counts the levels of
// nesting above it.
func (c *converter) typ(schema any, ptr string, depth int) (t string, nullable bool) {
	c.nodes++
	if c.nodes > MaxNodes {
		if c.nodes == MaxNodes+1 {
			c.warn(ptr, "more than %d schemas in this tool: this one and the rest are any", MaxNodes)
		}
		return "any", false
	}
	if depth > MaxDepth {
		c.warn(ptr, "nested more than %d levels deep: any", MaxDepth)
		return "any", false
	}
	switch s := schema.(type) {
	case bool:
		if !s {
			c.warn(ptr, "schema false (no value is valid): any")
		}
		return "any", false
	case map[string]any:
		return c.schemaObject(s, ptr, depth)
	}
	c.warn(ptr, "not a schema (%s): any", clip(jsonText(schema), 60))
	return "any", false
}

func (c *converter) schemaObject(s map[string]any, ptr string, depth int) (string, bool) {
	for _, k := range sortedKeys(s) {
		if annotationKeywords[k] || structuralKeywords[k] {
			continue
		}
		switch k {
		case "enum", "const":
			c.warn(ptr+"/"+esc(k), "%s %s: only the type is checked", k, clip(jsonText(s[k]), 120))
		default:
			c.warn(ptr+"/"+esc(k), "%s %s not expressed: only the type is checked", k, clip(jsonText(s[k]), 80))
		}
	}
	if ref, ok := s["$ref"]; ok {
		return c.ref(ref, ptr+"/$ref", depth)
	}
	nullable := s["nullable"] == true // OpenAPI 3.0's spelling, used by some servers
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k]; ok {
			t, n := c.alternatives(alts, ptr+"/"+k, depth)
			return t, n || nullable
		}
	}
	switch t := s["type"].(type) {
	case nil:
		if _, ok := s["properties"]; ok {
			return c.object(s, ptr, depth, false), nullable
		}
		if _, ok := s["items"]; ok {
			return c.array(s, ptr, depth), nullable
		}
		if t := valuesType(s); t != "" {
			return t, nullable // {"enum": ["a", "b"]}: the values say the type
		}
		return "any", nullable
	case string:
		return c.single(t, s, ptr, depth), nullable
	case []any:
		var kinds []string
		for _, k := range t {
			if k == "null" {
				nullable = true
				continue
			}
			if ks, ok := k.(string); ok {
				kinds = append(kinds, ks)
			}
		}
		if len(kinds) == 1 {
			return c.single(kinds[0], s, ptr, depth), nullable
		}
		if len(kinds) > 1 {
			c.warn(ptr+"/type", "one of the types %s: any", clip(jsonText(t), 80))
		}
		return "any", nullable
	}
	c.warn(ptr+"/type", "type %s is not a type name: any", clip(jsonText(s["type"]), 60))
	return "any", nullable
}

func (c *converter) single(kind string, s map[string]any, ptr string, depth int) string {
	switch kind {
	case "string":
		return "string"
	case "integer":
		return "int"
	case "number":
		return "double"
	case "boolean":
		return "bool"
	case "array":
		return c.array(s, ptr, depth)
	case "object":
		if _, ok := s["properties"]; ok {
			return c.object(s, ptr, depth, false)
		}
		if ap, ok := s["additionalProperties"]; ok && ap != true {
			if ap == false {
				c.warn(ptr, "an object with no keys: map(any)")
				return "map(any)"
			}
			t, _ := c.typ(ap, ptr+"/additionalProperties", depth+1)
			return "map(" + t + ")"
		}
		return "map(any)"
	case "null":
		c.warn(ptr+"/type", "type null: any")
		return "any"
	}
	c.warn(ptr+"/type", "unknown type %s: any", clip(strconv.Quote(kind), 60))
	return "any"
}

func (c *converter) array(s map[string]any, ptr string, depth int) string {
	items, ok := s["items"]
	if !ok {
		return "list(any)"
	}
	if _, tuple := items.([]any); tuple {
		c.warn(ptr+"/items", "a tuple (items as an array): list(any)")
		return "list(any)"
	}
	t, _ := c.typ(items, ptr+"/items", depth+1)
	return "list(" + t + ")"
}

// object maps properties to fields: required ones plain, the others
// optional. Property names that are not identifiers cannot be fields; they
// are left out of the typed view (raw_args still has them), with a warning.
func (c *converter) object(s map[string]any, ptr string, depth int, top bool) string {
	props, _ := s["properties"].(map[string]any)
	if _, ok := s["properties"]; ok && props == nil {
		c.warn(ptr+"/properties", "properties is not an object: ignored")
	}
	required := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, n := range r {
			if ns, ok := n.(string); ok {
				required[ns] = true
			}
		}
	}
	if ap, ok := s["additionalProperties"]; ok && ap != false && props != nil {
		c.warn(ptr+"/additionalProperties", "other keys besides the properties: not in the typed view")
	}
	var b strings.Builder
	b.WriteString("{\n")
	fields := 0
	for _, k := range sortedKeys(props) {
		p := ptr + "/properties/" + esc(k)
		if !isIdent(k) || lang.IsReserved(k) {
			why := "not a tenet identifier"
			if lang.IsReserved(k) {
				why = "reserved by CEL"
			}
			c.warn(p, "property %s is %s: not typed (read it from raw_args)", clip(strconv.Quote(k), 80), why)
			continue
		}
		t, nullable := c.typ(props[k], p, depth+1)
		if !required[k] || nullable {
			if required[k] {
				c.warn(p, "required but may be null: optional (null counts as absent)")
			}
			t = "optional(" + t + ")"
		}
		fmt.Fprintf(&b, "%s = %s\n", k, t)
		fields++
	}
	for _, k := range sortedKeys(mapOf(required)) {
		if _, ok := props[k]; !ok {
			c.warn(ptr+"/required", "required property %s has no schema: not typed", clip(strconv.Quote(k), 80))
		}
	}
	b.WriteString("}")
	switch {
	case fields == 0 && top:
		return "{}"
	case fields == 0:
		return "object({})"
	case top:
		return b.String()
	}
	return "object(" + b.String() + ")"
}

// alternatives maps anyOf/oneOf: X or null is a nullable X, alternatives of
// one type are that type, anything else is any.
func (c *converter) alternatives(v any, ptr string, depth int) (string, bool) {
	alts, ok := v.([]any)
	if !ok || len(alts) == 0 {
		c.warn(ptr, "not a list of schemas: any")
		return "any", false
	}
	nullable := false
	var types []string
	start := len(c.warnings)
	for i, a := range alts {
		if m, ok := a.(map[string]any); ok && m["type"] == "null" && len(m) == 1 {
			nullable = true
			continue
		}
		t, n := c.typ(a, ptr+"/"+strconv.Itoa(i), depth+1)
		nullable = nullable || n
		types = append(types, t)
	}
	same := len(types) > 0
	for _, t := range types {
		same = same && t == types[0]
	}
	if same {
		if len(types) > 1 {
			c.warn(ptr, "alternatives of one type %s: their differences are not checked", types[0])
		}
		return types[0], nullable
	}
	// Warnings about the parts of an alternative that became any say less
	// than the one about the alternative.
	c.warnings = c.warnings[:start]
	c.warn(ptr, "%d alternatives of different types: any", len(types))
	return "any", nullable
}

// ref resolves a local $ref ("#/$defs/x") within the tool's schema.
func (c *converter) ref(v any, ptr string, depth int) (string, bool) {
	r, _ := v.(string)
	if !strings.HasPrefix(r, "#") {
		c.warn(ptr, "$ref %s outside this schema: any", clip(strconv.Quote(r), 80))
		return "any", false
	}
	if c.expanding[r] {
		c.warn(ptr, "$ref %s refers to itself (a recursive type): any", clip(strconv.Quote(r), 80))
		return "any", false
	}
	target, ok := resolve(c.root, r[1:])
	if !ok {
		c.warn(ptr, "$ref %s does not resolve: any", clip(strconv.Quote(r), 80))
		return "any", false
	}
	c.expanding[r] = true
	defer delete(c.expanding, r)
	return c.typ(target, c.rootPtr+r[1:], depth+1)
}

// resolve follows a JSON pointer into doc.
func resolve(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch d := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = d[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(d) {
				return nil, false
			}
			doc = d[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// esc escapes a JSON pointer token (RFC 6901).
func esc(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func mapOf(m map[string]bool) map[string]any {
	out := make(map[string]any, len(m))
	for k := range m {
		out[k] = nil
	}
	return out
}

// valuesType is the type of an untyped schema's enum or const values when
// they all have one scalar type, else "".
func valuesType(s map[string]any) string {
	vals, _ := s["enum"].([]any)
	if c, ok := s["const"]; ok {
		vals = append(vals[:len(vals):len(vals)], c)
	}
	kind := ""
	for _, v := range vals {
		k := ""
		switch v := v.(type) {
		case string:
			k = "string"
		case bool:
			k = "bool"
		case json.Number:
			k = "double"
			if _, err := v.Int64(); err == nil {
				k = "int"
			}
		case float64: // decoded without UseNumber (tests)
			k = "double"
		default:
			return ""
		}
		if kind != "" && k != kind {
			if kind+k == "intdouble" || kind+k == "doubleint" {
				k = "double"
			} else {
				return ""
			}
		}
		kind = k
	}
	return kind
}
