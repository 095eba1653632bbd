package consistency_test

import (
	"strings"
	"testing"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/consistency"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/fuzzseed"
)

const swapContract = `contract "c" {}
threat_model {
  injection_vectors = ["send"]
}
tool "send" {
  operation = "update"
  params    = { to = string }
}
task "a" { utility = "output.contains('alpha')" }
task "b" { utility = "!calls.exists(c, c.tool == 'send') && sets.equivalent(['x'], ['x'])" }
`

// compileBundle compiles a one-file contract and returns its bundle as a
// reader decodes it from its bytes.
func compileBundle(t *testing.T, src string) *bundle.Bundle {
	t.Helper()
	b, _, err := bundle.Decode(evaltest.BuildFrom(t, map[string][]byte{"c.tenet.hcl": []byte(src)}).Data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// swapBundle compiles swapContract and returns its bundle decoded, with
// the index of task a's and task b's utility expressions.
func swapBundle(t *testing.T) (*bundle.Bundle, int, int) {
	t.Helper()
	b := compileBundle(t, swapContract)
	return b, b.Plan.Tasks[0].Utility.Expr, b.Plan.Tasks[1].Utility.Expr
}

func TestPlanRechecksTextsSwappedExpression(t *testing.T) {
	b, a, c := swapBundle(t)
	// Task a's text, task b's compiled form: what an attacker who keeps
	// the text (and source hashes) and recomputes the sha256 produces.
	b.Exprs[a].Checked = b.Exprs[c].Checked
	_, err := eval.Plan(b, "sha256:x")
	if err == nil {
		t.Fatal("a bundle whose compiled expression was swapped is accepted")
	}
	want := `expression 0 (utility of task a, c.tenet.hcl:9:22): its compiled form is not its text's: the text reads "output.contains('alpha')" but what runs reads "!(__comprehension__(calls, c, @result, false, @not_strictly_false(!@result), @result || c.tool == \"send\", @result)) && sets.equivalent([\"x\"], [\"x\"])"`
	if got := err.Error(); got != want {
		t.Errorf("error\n%s\nwant\n%s", got, want)
	}
	issues, err := consistency.CheckTexts(b, true)
	if err != nil || issues.Len() != 1 || issues.Exprs[a] == nil {
		t.Errorf("CheckTexts(full) = %v, %v; want one issue, for expression %d", issues, err, a)
	}
}

// TestPlanRechecksTextsRerouteIdentifier: the tree is the text's, but the
// reference map makes output read another variable.
func TestPlanRechecksTextsRerouteIdentifier(t *testing.T) {
	b, a, _ := swapBundle(t)
	var ce exprpb.CheckedExpr
	if err := proto.Unmarshal(b.Exprs[a].Checked, &ce); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ref := range ce.ReferenceMap {
		if ref.Name == "output" {
			ref.Name = "meta"
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d references to output, want 1", n)
	}
	b.Exprs[a].Checked, _ = proto.MarshalOptions{Deterministic: true}.Marshal(&ce)
	_, err := eval.Plan(b, "sha256:x")
	if err == nil || !strings.Contains(err.Error(), `resolves "output" (node 1) to "meta", not to what the text names`) {
		t.Fatalf("Plan: %v", err)
	}
}

// TestCheckTextsFullCatchesTypes: a change to the recorded types alone
// passes the quick check Plan makes and is caught by the full one
// (inspect --verify), which is why both exist.
func TestCheckTextsFullCatchesTypes(t *testing.T) {
	b, a, _ := swapBundle(t)
	var ce exprpb.CheckedExpr
	if err := proto.Unmarshal(b.Exprs[a].Checked, &ce); err != nil {
		t.Fatal(err)
	}
	ce.TypeMap[ce.Expr.Id] = &exprpb.Type{TypeKind: &exprpb.Type_Primitive{Primitive: exprpb.Type_STRING}}
	b.Exprs[a].Checked, _ = proto.MarshalOptions{Deterministic: true}.Marshal(&ce)
	quick, err := consistency.CheckTexts(b, false)
	if err != nil || quick.Len() != 0 {
		t.Errorf("quick check: %v, %v; want nothing", quick, err)
	}
	full, err := consistency.CheckTexts(b, true)
	if err != nil || full.Exprs[a] == nil || !strings.Contains(full.Exprs[a].Error(), "its compiled form is not its text's") {
		t.Errorf("full check: %v, %v; want expression %d flagged", full, err, a)
	}
}

// TestCheckTextsAcceptRepositoryContracts: every contract in the
// repository that compiles passes both checks, so the check refuses no
// bundle the compiler makes (including namespaced functions, step guards,
// imports, gates and sources).
func TestCheckTextsAcceptRepositoryContracts(t *testing.T) {
	n := 0
	for _, c := range fuzzseed.Contracts() {
		built, diags := compiler.BuildFiles("seed", c.Files, evaltest.Options())
		if diags.HasErrors() || built.Bundle == nil {
			continue
		}
		issues, err := consistency.CheckTexts(built.Bundle, true)
		if err != nil || issues.Len() > 0 {
			t.Errorf("%s: %v %v", c.From, issues, err)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d contracts compiled", n)
	}
}

// TestPlanRechecksTextsRerouteSelect: a reference added on a field
// selection makes the planner read it as a variable (c.tool would read
// output); the quick check refuses it.
func TestPlanRechecksTextsRerouteSelect(t *testing.T) {
	b, _, c := swapBundle(t)
	var ce exprpb.CheckedExpr
	if err := proto.Unmarshal(b.Exprs[c].Checked, &ce); err != nil {
		t.Fatal(err)
	}
	var sel int64
	var find func(x *exprpb.Expr)
	find = func(x *exprpb.Expr) {
		if x == nil || sel != 0 {
			return
		}
		switch k := x.ExprKind.(type) {
		case *exprpb.Expr_SelectExpr:
			if k.SelectExpr.Field == "tool" {
				sel = x.Id
			}
		case *exprpb.Expr_CallExpr:
			find(k.CallExpr.Target)
			for _, a := range k.CallExpr.Args {
				find(a)
			}
		case *exprpb.Expr_ComprehensionExpr:
			find(k.ComprehensionExpr.LoopStep)
		}
	}
	find(ce.Expr)
	if sel == 0 {
		t.Fatal("no selection of tool")
	}
	ce.ReferenceMap[sel] = &exprpb.Reference{Name: "output"}
	b.Exprs[c].Checked, _ = proto.MarshalOptions{Deterministic: true}.Marshal(&ce)
	_, err := eval.Plan(b, "sha256:x")
	if err == nil || !strings.Contains(err.Error(), `resolves "c.tool" (node `) || !strings.Contains(err.Error(), `) to "output", not to what the text names`) {
		t.Fatalf("Plan: %v", err)
	}
}

const patternContract = `contract "c" {}
threat_model {
  injection_vectors = ["read"]
}
tool "read" {
  operation = "read"
  params    = { path = string }
}
tool "send" {
  operation = "update"
  params    = { to = string }
}
invariant "no_send_after_read" {
  severity = "high"
  step "r" { call = "read" }
  step "s" {
    call = "send"
    when = "r.result.contains(args.to)"
  }
  forbid = "r _* s"
}
`

// TestPlanRechecksPatterns: a pattern's program, the steps its guards
// refer to and the steps it keys must be what its text and guards compile
// to.
func TestPlanRechecksPatterns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(pt *bundle.PatternPlan)
		want   string
	}{
		{"program", func(pt *bundle.PatternPlan) {
			// Matches only an empty run: the forbid never fires.
			pt.Program = []bundle.Inst{{Op: bundle.OpBol}, {Op: bundle.OpEol}, {Op: bundle.OpMatch}}
		}, `pattern 0 (invariant no_send_after_read (forbid), c.tenet.hcl:20:12): its program (3 instructions) is not the one its text "r _* s" compiles to (6 instructions)`},
		{"refs", func(pt *bundle.PatternPlan) { pt.Steps[1].Refs = nil },
			`pattern 0 (invariant no_send_after_read (forbid), c.tenet.hcl:20:12): step s refers to steps [], but its guard names steps [0]`},
		{"keyed", func(pt *bundle.PatternPlan) { pt.Keyed = nil },
			`pattern 0 (invariant no_send_after_read (forbid), c.tenet.hcl:20:12): it keys steps [], but its guards name steps [0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := compileBundle(t, patternContract)
			if len(b.Plan.Patterns) != 1 {
				t.Fatalf("%d patterns", len(b.Plan.Patterns))
			}
			tc.tamper(&b.Plan.Patterns[0])
			_, err := eval.Plan(b, "sha256:x")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Plan: %v\nwant %s", err, tc.want)
			}
			issues, err := consistency.CheckTexts(b, false)
			if err != nil || issues.Len() != 1 || issues.Patterns[0] == nil {
				t.Errorf("CheckTexts: %v, %v", issues, err)
			}
		})
	}
}
