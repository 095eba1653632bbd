package lang

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/lang/diag"
)

// FuzzParseFiles checks that no input makes the front end panic (ParseFiles
// turns a panic into an "Internal error" diagnostic, which fails here too),
// and that every criterion's offsets stay inside its file, never go back,
// and map byte for byte (no fallback) when the file is syntactically valid.
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
			if diag.Of(d) == codeInternal || diag.Of(d) == "" {
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

// FuzzFormat checks that Format never fails on a file that parses (it
// would report an internal error if formatting changed more than
// whitespace), refuses exactly the files that do not parse, and is
// idempotent.
func FuzzFormat(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/banking/*.tenet.hcl")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range formatCases {
		f.Add([]byte(s.in))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := Format(src, "a.tenet.hcl")
		for _, d := range diags {
			if diag.Of(d) == codeInternal || diag.Of(d) == "" {
				t.Fatalf("%q: %s: %s", src, d.Summary, d.Detail)
			}
		}
		if diags.HasErrors() {
			if out != nil {
				t.Fatalf("output for a file with errors")
			}
			return
		}
		again, diags := Format(out, "a.tenet.hcl")
		if diags.HasErrors() || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%q\n%q\n%q", src, out, again)
		}
	})
}
