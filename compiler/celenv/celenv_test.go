package celenv

import (
	"os"
	"regexp"
	"testing"

	"cel.dev/cel-go/common/types"
)

// TestCELVersionMatchesGoMod keeps the version recorded in bundle headers
// equal to the cel-go tenet is built with.
func TestCELVersionMatchesGoMod(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*cel\.dev/cel-go (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod does not require cel.dev/cel-go")
	}
	if string(m[1]) != CELVersion {
		t.Errorf("go.mod has cel-go %s, CELVersion is %s", m[1], CELVersion)
	}
}

func TestValueType(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{"x", "string"},
		{2.0, "double"},
		{true, "bool"},
		{nil, "dyn"},
		{[]any{"a", "b"}, "list(string)"},
		{[]any{"a", 1.0}, "list(dyn)"},
		{[]any{}, "list(dyn)"},
		{map[string]any{"a": 1.0, "b": 2.0}, "map(string, double)"},
		{map[string]any{"a": 1.0, "b": "x"}, "map(string, dyn)"},
		{[]any{map[string]any{"id": 1.0}}, "list(map(string, double))"},
	}
	for _, c := range cases {
		if got := ValueType(c.v).String(); got != c.want {
			t.Errorf("ValueType(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// TestTypedFields: tenet.Event and tenet.Call are declared object types, so
// a misspelt field fails to check instead of evaluating to an error.
func TestTypedFields(t *testing.T) {
	u := NewUniverse(nil)
	u.AddScope("", []Param{{Name: "limit", Value: 3.0}})
	u.DeclarePred("", "sent", types.BoolType)
	env, err := u.Env("")
	if err != nil {
		t.Fatal(err)
	}
	for expr, want := range map[string]string{
		"calls.exists(c, c.tool == 'x' && c.ok)": "",
		"events.exists(e, e.calls.size() > 0)":   "",
		"params.limit == 3.0 && pred.sent":       "",
		"calls.exists(c, c.tool_name == 'x')":    "ERROR: <input>:1:18: undefined field 'tool_name'\n | calls.exists(c, c.tool_name == 'x')\n | .................^",
		"params.limt == 3.0":                     "ERROR: <input>:1:7: undefined field 'limt'\n | params.limt == 3.0\n | ......^",
		"pred.sent == 1":                         "ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(bool, int)'\n | pred.sent == 1\n | ..........^",
	} {
		_, iss := env.Compile(expr)
		got := ""
		if iss.Err() != nil {
			got = iss.Err().Error()
		}
		if got != want {
			t.Errorf("%s:\ngot  %q\nwant %q", expr, got, want)
		}
	}
}
