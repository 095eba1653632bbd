package stdlib

import (
	"slices"
	"strings"
	"testing"
)

// Every documented example evaluates to its documented result or error, so
// the docs cannot drift from the implementation.
func TestFunctionDocExamples(t *testing.T) {
	env := newEnv(t)
	for _, d := range Functions() {
		if len(d.Examples) == 0 || d.Examples[0].Error != "" {
			t.Errorf("%s: the first example must succeed", d.Name)
		}
		for _, e := range d.Examples {
			if (e.Result == "") == (e.Error == "") {
				t.Errorf("%s: example %q must have exactly one of Result and Error", d.Name, e.Expr)
				continue
			}
			t.Run(d.Name+"/"+e.Expr, func(t *testing.T) {
				check(t, env, expect{expr: e.Expr, result: e.Result, err: e.Error})
			})
		}
	}
}

func TestFunctionsSortedAndComplete(t *testing.T) {
	docs := Functions()
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
	}
	want := []string{"approx", "arg", "containsFold", "copiedFrom", "eqFold", "fold", "num", "parseJSON", "parseTime", "parseYAML", "truthy", "unknown", "with", "without"}
	if !slices.Equal(names, want) {
		t.Fatalf("Functions() names = %v, want %v", names, want)
	}
	env := newEnv(t)
	for _, d := range docs {
		if d.Summary == "" || len(d.Semantics) == 0 || len(d.Errors) == 0 || d.Cost == "" || len(d.Signatures) == 0 {
			t.Errorf("%s: incomplete doc %+v", d.Name, d)
		}
		switch d.Kind {
		case "function":
			fn, ok := env.Functions()[d.Name]
			if !ok {
				t.Errorf("%s: not declared", d.Name)
				continue
			}
			var ids []string
			for _, o := range fn.OverloadDecls() {
				ids = append(ids, o.ID())
			}
			var docIDs []string
			for _, s := range d.Signatures {
				docIDs = append(docIDs, s.Overload)
				// A member function's signature starts with its receiver's type.
				if !strings.HasPrefix(s.Text, d.Name+"(") && !strings.HasPrefix(s.Text[strings.Index(s.Text, ").")+2:], d.Name+"(") {
					t.Errorf("%s: signature %q does not start with the name (or a receiver's type and the name)", d.Name, s.Text)
				}
			}
			if !slices.Equal(ids, docIDs) {
				t.Errorf("%s: declared overloads %v, documented %v", d.Name, ids, docIDs)
			}
		case "macro":
			found := false
			for _, m := range env.Macros() {
				if m.Function() == d.Name {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: macro not declared", d.Name)
			}
		default:
			t.Errorf("%s: kind %q", d.Name, d.Kind)
		}
	}
	// Functions returns fresh values: changing one result does not change the next.
	docs[0].Name = "changed"
	docs[0].Examples[0].Expr = "changed"
	again := Functions()
	if again[0].Name == "changed" || again[0].Examples[0].Expr == "changed" {
		t.Error("Functions() shares state between calls")
	}
}
