package lang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/pattern"
)

// FuzzParseFiles checks that no input makes the front end panic (ParseFiles
// turns a panic into an "Internal error" diagnostic, which fails here too),
// that every criterion's and pattern's offsets stay inside its file, never
// go back, and map byte for byte (no fallback) when the file is
// syntactically valid, and that a pattern's tree only names the steps of
// its block.
func FuzzParseFiles(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/banking/*.tenet.hcl")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		header + "task \"t\" { utility = \"a \\\"b\\\" \\\\ \\n \\u00e9 \\U0001F600 $${x} %%{y} é\" }\n",
		header + "goal \"g\" {\n  success = <<-EOT\n    a\n\t  b\n\n      c $${d}\n  EOT\n}\n",
		header + "goal \"g\" {\n  success = <<EOT\r\n  x\r\nEOT\r\n}\n",
		header + "task \"t\" { utility = \"${x} %{ if y }z%{ endif }\" }\n",
		header + "tool \"t\" {\n  operation = \"read\"\n  params = { a = list(object({b = optional(map(int))})) }\n}\n",
		header + "params {\n  a = [1, \"x\", { b = null }]\n}\n",
		"\ufeff" + header + "predicate \"p\" { expr = \"\\u0301x\" }\n",
		header + "task \"t\" { utility = \"\\q \\u12 \\UFFFFFFFF $$$${ %%%%{\" }\n",
		header + "invariant \"i\" {\n  severity = \"high\"\n  assert   = \"output != ''\"\n}\n",
		header + "invariant \"i\" {\n  step \"a\" { call = \"x\" }\n  forbid = \"a _*\"\n}\n",
		header + "invariant \"i\" {\n  step \"read\" { call = \"read_file\" }\n  step \"ok\" { role = \"user\" }\n  step \"send\" {\n    call = \"*\"\n    when = \"args.body.contains(read.result)\"\n  }\n  forbid = \"^ read !ok* send{1,3} | (_ read)+ $\"\n}\n",
		header + "task \"t\" {\n  step \"a\" { role = \"user\" }\n  match = <<-P\n    a\n      (a | \\u00e9)*\n  P\n}\n",
		header + "goal \"g\" {\n  step \"a\" { call = \"t\" }\n  match = \"a{3,1} \\\"a\\\" ${x}\"\n}\n",
		header + "predicate \"p\" {\n  step \"calls\" {\n    call = \"x\"\n    role = \"tool\"\n  }\n  match = \"calls | b\"\n  expr  = \"true\"\n}\n",
		header + "side_effect \"s\" {\n  step \"x\" { call = \"*\" }\n  match  = \"x\"\n  forbid = \"(x\"\n}\nfailure \"f\" { match = \"\" }\n",
		header + "failure \"f\" { when = <<-EOT\n    a ${b}\n  EOT\n}\n",
		header + "gate \"g\" {\n  require    = [\"metrics.a <= 0.1\", <<EOT\nmetrics.b\nEOT\n, 3]\n  conditions = [\"x\"]\n}\n",
		header + "test \"t\" {\n  transcript = \"a.json\"\n  record     = 2\n  goal       = \"\"\n  expect     = { utility = true, side_effect = \"unknown\", violations = [\"i\"], \"x\" = 1 }\n}\n",
		header + "use \"../common\" { as = \"c\" }\nuse \"..\" {}\nuse \"/x\" { as = \"let\" }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, diags := ParseFiles("fuzz", map[string][]byte{"a.tenet.hcl": src})
		for _, d := range diags {
			if diag.Of(d) == diag.InternalError || diag.Of(d) == "" {
				t.Fatalf("%s: %s", d.Summary, d.Detail)
			}
		}
		if m == nil {
			t.Fatal("nil module")
		}
		syntaxOK := true
		for _, d := range diags {
			// Errors the parser reports (rather than the decoder) can
			// leave tokens the literal decoder does not expect.
			if d.Summary == "Invalid escape sequence" || d.Summary == "Invalid multi-line string" ||
				d.Summary == "Unterminated template string" || d.Summary == "Invalid character" ||
				d.Summary == "Invalid character encoding" {
				syntaxOK = false
			}
		}
		checkTraces(t, m)
		for _, e := range allExprs(m) {
			checkOffsets(t, e, len(src))
			if e.approx && syntaxOK && !diags.HasErrors() {
				t.Errorf("%s: offsets fell back on a valid file", rng(e.Range))
			}
			for i := 0; i <= len(e.Text); i++ {
				if p := e.Pos(i); p.Byte != e.Offsets[i] || p.Line < 1 || p.Column < 1 {
					t.Fatalf("Pos(%d) = %+v, offset %d", i, p, e.Offsets[i])
				}
			}
		}
	})
}

// checkTraces checks every trace of m: a pattern's tree parses from its
// text, and names only steps of its block, which have distinct names and
// exactly one selector.
func checkTraces(t *testing.T, m *Module) {
	t.Helper()
	var traces []*Trace
	for _, p := range m.Predicates {
		traces = append(traces, p.Trace)
	}
	for _, x := range m.Tasks {
		traces = append(traces, x.Trace)
	}
	for _, x := range m.Goals {
		traces = append(traces, x.Trace)
	}
	for _, x := range m.SideEffects {
		traces = append(traces, x.Trace)
	}
	for _, x := range m.Invariants {
		traces = append(traces, x.Trace)
	}
	for _, x := range m.Failures {
		traces = append(traces, x.Trace)
	}
	for _, tr := range traces {
		if tr == nil {
			continue
		}
		steps := map[string]bool{}
		for _, s := range tr.Steps {
			if steps[s.Name.Value] || (s.Call == nil) == (s.Role == nil) {
				t.Fatalf("bad step %+v", s)
			}
			steps[s.Name.Value] = true
		}
		for _, p := range []*Pattern{tr.Match, tr.Forbid} {
			if p == nil || p.Tree == nil {
				continue
			}
			if again, err := pattern.Parse(p.Expr.Text); err != nil || again.String() != p.Tree.String() {
				t.Fatalf("tree %s of %q", p.Tree, p.Expr.Text)
			}
			for _, r := range pattern.Steps(p.Tree) {
				if !steps[r.Name] {
					t.Fatalf("pattern %q names %s, not a step of its block", p.Expr.Text, r.Name)
				}
			}
		}
	}
}
