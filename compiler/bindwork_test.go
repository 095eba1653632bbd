package compiler

import (
	"fmt"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"

	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/testtier"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// binds nests n cel.bind, each in the previous one's result, around body.
func binds(n int, body string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "cel.bind(v%d, %d, ", i, i)
	}
	return b.String() + body + strings.Repeat(")", n)
}

func parseCEL(t *testing.T, text string) *cel.Ast {
	t.Helper()
	env, err := cel.NewEnv(ext.Bindings())
	if err != nil {
		t.Fatal(err)
	}
	a, iss := env.Parse(text)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	return a
}

// TestBindWork: the work counted doubles with each cel.bind nested in a
// result. In a chain of n binds of a literal around true, the estimator
// reads a level-k result (k binds inside it) in 4·2^k − 3 nodes, once per
// bind: 4(2^n − 1) − 3n in all; capped just above MaxBindWork.
func TestBindWork(t *testing.T) {
	for n := 0; n <= 24; n++ {
		work, depth := bindWork(parseCEL(t, binds(n, "true")).NativeRep().Expr())
		want := min(uint64(4*(1<<n-1)-3*n), MaxBindWork+1)
		if work != want || depth != n {
			t.Errorf("%d binds: work %d, depth %d; want %d, %d", n, work, depth, want, n)
		}
	}
	// 20 levels are within the budget, 21 are not.
	if w, _ := bindWork(parseCEL(t, binds(20, "true")).NativeRep().Expr()); w > MaxBindWork {
		t.Errorf("20 binds: %d > MaxBindWork", w)
	}
	if w, _ := bindWork(parseCEL(t, binds(21, "true")).NativeRep().Expr()); w <= MaxBindWork {
		t.Errorf("21 binds: %d <= MaxBindWork", w)
	}
}

// TestBindWorkNotDoubled: what the estimator does not read twice is
// counted once: a bind behind && (only the first operand is sure to be
// evaluated), and a bind inside a macro's loop.
func TestBindWorkNotDoubled(t *testing.T) {
	for _, tt := range []struct {
		text  string
		work  uint64
		depth int
	}{
		// Each result "true && next" is read in 2 nodes, the last in 1.
		{strings.ReplaceAll(binds(40, "true"), ", cel.bind(", ", true && cel.bind("), 2*39 + 1, 40},
		// The two inner binds cost 9 + 3; the outer bind's result, an
		// exists, is read in its range and initial value only (4 nodes),
		// not in its loop step, which holds the inner binds.
		{"cel.bind(a, 1, [1].exists(x, " + binds(2, "x > 0") + "))", 4 + 9 + 3, 3},
	} {
		work, depth := bindWork(parseCEL(t, tt.text).NativeRep().Expr())
		if work != tt.work || depth != tt.depth {
			t.Errorf("%s: work %d, depth %d; want %d, %d", tt.text, work, depth, tt.work, tt.depth)
		}
	}
}

// compileText compiles src as the only file of a contract.
func compileText(t *testing.T, src string) (ok bool, errs []string) {
	t.Helper()
	m, diags := lang.ParseFiles("c", map[string][]byte{"a.tenet.hcl": []byte(src)})
	b, more := Compile(m, Options{Formats: transcript.Formats()})
	for _, d := range append(diags, more...) {
		if d.Severity == 1 { // hcl.DiagError
			r := d.Subject
			errs = append(errs, fmt.Sprintf("[%s] %s:%d:%d: %s: %s", diag.Of(d), r.Filename, r.Start.Line, r.Start.Column, d.Summary, d.Detail))
		}
	}
	return b != nil, errs
}

// TestBindTooDeep: 30 nested binds (minutes of cost estimation before)
// are refused at once with bind-too-deep; 20 compile.
func TestBindTooDeep(t *testing.T) {
	head := "contract \"c\" {}\nthreat_model {}\n"
	ok, errs := compileText(t, head+"task \"t\" {\n  utility = \""+binds(30, "true")+"\"\n}\n")
	want := fmt.Sprintf("[bind-too-deep] a.tenet.hcl:4:13: cel.bind nested too deeply: The utility expression of task t nests cel.bind 30 levels deep in each other's results. cel-go's cost estimate of such an expression takes time that doubles with each level, and tenet refuses one that would take more than %d steps (2^22: about 20 levels of small binds). Bind several values at one level (a list or a map), or move an inner part into a predicate.", MaxBindWork)
	if ok || len(errs) != 1 || errs[0] != want {
		t.Errorf("compiled %v, errors:\n%s\nwant:\n%s", ok, strings.Join(errs, "\n"), want)
	}
	ok, errs = compileText(t, head+"predicate \"p\" {\n  expr = \""+binds(20, "true")+"\"\n}\ntask \"t\" {\n  utility = \"pred.p\"\n}\n")
	if !ok || len(errs) != 0 {
		t.Errorf("20 binds: compiled %v, errors %v", ok, errs)
	}
}

// TestManyPredicates: 4,000 predicates, each used by the next, took 9 s
// to check (every criterion listed and sorted every predicate's name); the
// names are listed once per scope now, only when a reference names no
// predicate, and the suggestion still comes from all of them. The default
// tier checks 1,500 (quadratic work there would still cost seconds); the
// heavy tier the 4,000 of the report.
func TestManyPredicates(t *testing.T) {
	n := 1500
	if testtier.HeavyOn() {
		n = 4000
	}
	var b strings.Builder
	b.WriteString("contract \"c\" {}\nthreat_model {}\npredicate \"p0\" {\n  expr = \"calls.size() > 0\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "predicate \"p%d\" {\n  expr = \"pred.p%d || calls.size() > %d\"\n}\n", i, i-1, i)
	}
	src := b.String()
	last := fmt.Sprintf("pred.p%d", n-1)
	ok, errs := compileText(t, src+"task \"t\" {\n  utility = \""+last+"\"\n}\n")
	if !ok || len(errs) != 0 {
		t.Fatalf("compiled %v, errors %v", ok, errs)
	}
	_, errs = compileText(t, src+"task \"t\" {\n  utility = \""+last+" && pred.p399x\"\n}\n")
	// The task's utility is on the line after the n predicates (3 lines
	// each, after the contract and threat_model lines) and its task line.
	want := fmt.Sprintf(`[unknown-predicate] a.tenet.hcl:%d:%d: Unknown predicate: In the utility expression of task t: there is no predicate "p399x". Did you mean "p399"?`, 3*n+4, 22+len(last))
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), want)
	}

	s := &scope{preds: map[string]*lang.Predicate{"b": nil, "a": nil}}
	c := &compiler{}
	first := s.predNames(c)
	if strings.Join(first, ",") != "a,b" || &s.predNames(c)[0] != &first[0] {
		t.Errorf("predNames %v: not listed once, sorted", first)
	}
}

// TestManyUnknownPredicates: 1,000 references to predicates that do not
// exist among 1,000 that do. Each used to list and sort the fields of the
// pred type (every predicate) when the type checker missed it, and to take
// the full edit distance to every predicate's name for a suggestion; now
// the fields are listed only for an error that is reported with them, and
// the distance is bounded (diag.Suggest), so this is linear in the
// references times the names, with a small constant.
func TestManyUnknownPredicates(t *testing.T) {
	var b strings.Builder
	b.WriteString("contract \"c\" {}\nthreat_model {}\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "predicate \"p%d\" {\n  expr = \"calls.size() > %d\"\n}\ntask \"t%d\" {\n  utility = \"pred.p%d || pred.p%dx\"\n}\n", i, i, i, i, i)
	}
	_, errs := compileText(t, b.String())
	if len(errs) != 1000 {
		t.Fatalf("%d errors, want 1000", len(errs))
	}
	want := `[unknown-predicate] a.tenet.hcl:7:29: Unknown predicate: In the utility expression of task t0: there is no predicate "p0x". Did you mean "p0"?`
	if errs[0] != want {
		t.Errorf("got:\n%s\nwant:\n%s", errs[0], want)
	}
}
