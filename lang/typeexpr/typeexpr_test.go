package typeexpr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/lang/diag"
)

// renderAll renders each diagnostic as "[code] file:line:col-line:col:
// summary: detail", as lang's tests do.
func renderAll(diags hcl.Diagnostics) []string {
	out := []string{}
	for _, d := range diags {
		r := d.Subject
		out = append(out, fmt.Sprintf("[%s] %s:%d:%d-%d:%d: %s: %s", diag.Of(d), r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, d.Summary, d.Detail))
	}
	return out
}

func checkDiags(t *testing.T, diags hcl.Diagnostics, want ...string) {
	t.Helper()
	if got := renderAll(diags); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func parseTypeSrc(t *testing.T, src string) (*Type, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %q", src, renderAll(diags))
	}
	return Parse(expr, nil)
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
