package costbound_test

import (
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
`
	b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]string{
		"predicate of sent":            "",
		"predicate of tools":           "",
		"utility of task t":            "",
		"assert of invariant scan":     "",
		"assert of invariant concat":   "calls _+_ (add_string)",
		"assert of invariant stdlib":   "calls lowerAscii (string_lower_ascii)",
		"assert of invariant lists":    "compares two values neither of which is of a scalar type",
		"assert of invariant computed": "reads a predicate of a non-scalar type",
		"assert of invariant regex":    "matches a regular expression that is not a literal",
		"assert of invariant filter":   "",
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
		if got := costbound.Eligible(cel.CheckedExprToAst(&ce)); got != w {
			t.Errorf("%s: %q, want %q", name, got, w)
		}
		if got := len(e.Unmetered) > 0; got != (w == "") {
			t.Errorf("%s: unmetered %v, want %v", name, got, w == "")
		}
	}
	if len(want) > 0 {
		t.Errorf("not found: %v", want)
	}
	if got := costbound.Consts(b.Bundle); got != 2 {
		t.Errorf("Consts %d, want 2", got)
	}
}
