package costbound_test

import (
	"fmt"
	"testing"

	"cel.dev/cel-go/cel"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/costbound"
)

// TestEligible: why an expression stays metered, in exact words, and the
// expressions that may run unmetered ("").
func TestEligible(t *testing.T) {
	src := `contract "c" {
  cost_budget = 1000000000000
}
threat_model {}
params {
  names = ["a", "b"]
}
predicate "sent" { expr = "calls.exists(c, c.tool == 'send')" }
predicate "tools" { expr = "calls.map(c, c.tool)" }
task "t" { utility = "pred.sent" }
invariant "scan" { assert = "calls.exists(c, c.tool in params.names && c.result.contains('x'))" }
invariant "concat" { assert = "events.exists(e, e.content + 'x' == 'yx')" }
invariant "stdlib" { assert = "events.exists(e, e.content.lowerAscii() == 'x')" }
invariant "lists" { assert = "calls.map(c, c.tool) == ['a']" }
invariant "computed" { assert = "'a' in pred.tools" }
invariant "regex" { assert = "events.exists(e, e.content.matches(e.role))" }
invariant "filter" { assert = "calls.filter(c, c.ok).size() < 3" }
predicate "joined" { expr = "calls.map(c, c.tool).join(',')" }
invariant "built" { assert = "pred.joined.contains('x')" }
`
	b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Why each is not eligible when no predicate other than a bool or a
	// number may be read, and whether the bundle has it run unmetered (reading
	// pred.tools, which builds no value, is as reading the run).
	type verdict struct {
		why       string
		unmetered bool
	}
	const readsPred = "reads a predicate that may build values larger than the run's"
	want := map[string]verdict{
		"predicate of sent":            {"", true},
		"predicate of tools":           {"", true},
		"predicate of joined":          {"calls join (list_join_string)", false},
		"utility of task t":            {"", true},
		"assert of invariant scan":     {"", true},
		"assert of invariant concat":   {"calls _+_ (add_string)", false},
		"assert of invariant stdlib":   {"calls lowerAscii (string_lower_ascii)", false},
		"assert of invariant lists":    {"compares two values neither of which is of a scalar type", false},
		"assert of invariant computed": {readsPred, true},
		"assert of invariant built":    {readsPred, false},
		"assert of invariant regex":    {"matches a regular expression that is not a literal", false},
		"assert of invariant filter":   {"", true},
	}
	for _, e := range b.Bundle.Exprs {
		name := e.Kind + " of " + e.Owner
		w, ok := want[name]
		if !ok {
			continue
		}
		delete(want, name)
		var ce exprpb.CheckedExpr
		if err := proto.Unmarshal(e.Checked, &ce); err != nil {
			t.Fatal(err)
		}
		if got := costbound.Eligible(cel.CheckedExprToAst(&ce), nil); got != w.why {
			t.Errorf("%s: %q, want %q", name, got, w.why)
		}
		if got := len(e.Unmetered) > 0; got != w.unmetered {
			t.Errorf("%s: unmetered %v, want %v", name, got, w.unmetered)
		}
	}
	if len(want) > 0 {
		t.Errorf("not found: %v", want)
	}
	if got := costbound.Consts(b.Bundle); got != 3 {
		t.Errorf("Consts %d, want 3 (the predicates)", got)
	}
}

// TestNestingBound: an expression nesting comprehensions deeper than
// MaxNesting stays metered, whatever its cost, so that eval's
// recomputation of a loaded bundle's bounds cannot take the time cel-go's
// estimator needs for deeply nested cel.bind.
func TestNestingBound(t *testing.T) {
	nest := func(n int) string {
		e := "x0 > 0"
		for i := n - 1; i >= 0; i-- {
			e = fmt.Sprintf("cel.bind(x%d, %d, %s)", i, i, e)
		}
		return e
	}
	for _, c := range []struct {
		depth int
		want  string
	}{{costbound.MaxNesting, ""}, {costbound.MaxNesting + 1, "nests comprehensions more than 6 deep"}} {
		src := "contract \"c\" {}\nthreat_model {}\ntask \"t\" { utility = \"" + nest(c.depth) + "\" }\n"
		b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, compiler.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		var ce exprpb.CheckedExpr
		if err := proto.Unmarshal(b.Bundle.Exprs[0].Checked, &ce); err != nil {
			t.Fatal(err)
		}
		if got := costbound.Eligible(cel.CheckedExprToAst(&ce), nil); got != c.want {
			t.Errorf("depth %d: %q, want %q", c.depth, got, c.want)
		}
	}
}

// TestRegexBound: matches is priced by the compiled program's size (Go's
// regexp steps through it for each byte), not the pattern's length: the
// repeated pattern has 3002 instructions, so its bound at the smallest rung
// is far above a+b's (5 instructions), though the patterns' lengths differ
// by a factor of 6 only; at the larger rungs it is over the limit and the
// expression has fewer unmetered rungs. A computed pattern stays metered
// (TestEligible).
func TestRegexBound(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []uint64
	}{
		// 1 (output) + 1 + a tenth of (rung + 1) × 5, rounded up
		{"a+b", []uint64{131, 515, 2051, 8195, 32771, 131075, 524291, 2097155, 8388611}},
		// × 3002: over the limit (10^7) from the rung of 2^16 bytes
		{"(?:a?){1000}a{1000}", []uint64{77154, 307707, 1229922, 4918779}},
	} {
		src := "contract \"c\" {}\nthreat_model {}\ntask \"t\" { utility = \"output.matches('" + c.pattern + "')\" }\n"
		b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, compiler.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := fmt.Sprint(b.Bundle.Exprs[0].Unmetered); got != fmt.Sprint(c.want) {
			t.Errorf("%s: bounds %s, want %v", c.pattern, got, c.want)
		}
	}
}
