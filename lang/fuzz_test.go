package lang

import (
	"os"
	"path/filepath"
	"testing"
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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, diags := ParseFiles("fuzz", map[string][]byte{"a.tenet.hcl": src})
		for _, d := range diags {
			if d.Summary == "Internal error in the contract parser" {
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
