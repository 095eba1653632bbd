package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func parseTypeSrc(t *testing.T, src string) (*Type, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %q", src, renderAll(diags))
	}
	return ParseType(expr)
}

func TestTypeString(t *testing.T) {
	for src, want := range map[string]string{
		"string":          "string",
		"int":             "int",
		"double":          "double",
		"number":          "double",
		"bool":            "bool",
		"any":             "any",
		"list(number)":    "list(double)",
		"map(list(bool))": "map(list(bool))",
		"object({})":      "object({})",
		"list(object({b = optional(int), a = string}))":                       "list(object({a = string, b = optional(int)}))",
		"object({\n  z = map(any)\n  \"y\" = optional(object({q = int}))\n})": "object({y = optional(object({q = int})), z = map(any)})",
	} {
		typ, diags := parseTypeSrc(t, src)
		if diags.HasErrors() {
			t.Errorf("%s: %q", src, renderAll(diags))
			continue
		}
		if got := typ.String(); got != want {
			t.Errorf("%s: String() = %q, want %q", src, got, want)
		}
		// The canonical form reads back as the same type.
		again, diags := parseTypeSrc(t, want)
		if diags.HasErrors() || again.String() != want {
			t.Errorf("%s does not read back: %q %q", want, again, renderAll(diags))
		}
	}
}

func TestTypeErrorsStandalone(t *testing.T) {
	_, diags := parseTypeSrc(t, "optional(string)")
	checkDiags(t, diags, `[invalid-type] t.hcl:1:1-1:17: Invalid type: optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.`)
	_, diags = parseTypeSrc(t, "list(lsit(string))")
	checkDiags(t, diags, `[invalid-type] t.hcl:1:6-1:10: Invalid type: Unknown type "lsit"; did you mean "list"?`)
}

func TestToolParams(t *testing.T) {
	m, diags := parseSrc(header + `tool "t" {
  operation = "read"
  params = {
    tags    = list(string)
    amount  = number
    date    = optional(string)
    options = optional(object({ a = bool, b = optional(map(int)) }))
  }
}
tool "u" {
  operation = "read"
  params    = {}
}
tool "v" { operation = "read" }
`)
	checkDiags(t, diags)
	if len(m.Tools) != 3 {
		t.Fatalf("%d tools", len(m.Tools))
	}
	fs := m.Tools[0].Params
	type want struct{ field, name, typ, fieldRange string }
	wants := []want{
		{"amount = double", "main.tenet.hcl:6:5-6:11", "main.tenet.hcl:6:15-6:21", "main.tenet.hcl:6:5-6:21"},
		{"date = optional(string)", "main.tenet.hcl:7:5-7:9", "main.tenet.hcl:7:24-7:30", "main.tenet.hcl:7:5-7:31"},
		{"options = optional(object({a = bool, b = optional(map(int))}))", "main.tenet.hcl:8:5-8:12", "main.tenet.hcl:8:24-8:68", "main.tenet.hcl:8:5-8:69"},
		{"tags = list(string)", "main.tenet.hcl:5:5-5:9", "main.tenet.hcl:5:15-5:27", "main.tenet.hcl:5:5-5:27"},
	}
	if len(fs) != len(wants) {
		t.Fatalf("%d params: %v", len(fs), fs)
	}
	for i, w := range wants {
		f := fs[i]
		if got := f.String(); got != w.field {
			t.Errorf("param %d = %q, want %q", i, got, w.field)
		}
		if got := rng(f.Name.Range); got != w.name {
			t.Errorf("%s: name range %s, want %s", f.Name.Value, got, w.name)
		}
		if got := rng(f.Type.Range); got != w.typ {
			t.Errorf("%s: type range %s, want %s", f.Name.Value, got, w.typ)
		}
		if got := rng(f.Range); got != w.fieldRange {
			t.Errorf("%s: field range %s, want %s", f.Name.Value, got, w.fieldRange)
		}
	}
	if !fs[1].Optional || fs[0].Optional || !fs[2].Optional || fs[2].Type.Kind != TypeObject || !fs[2].Type.Fields[1].Optional {
		t.Errorf("optional flags wrong: %v", fs)
	}
	if m.Tools[1].Params == nil || len(m.Tools[1].Params) != 0 {
		t.Errorf("params = {} must be an empty, non-nil schema: %#v", m.Tools[1].Params)
	}
	if m.Tools[2].Params != nil {
		t.Errorf("no params attribute must give a nil schema: %#v", m.Tools[2].Params)
	}
}
