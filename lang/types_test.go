package lang

import (
	"testing"
)

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
