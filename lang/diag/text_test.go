package diag_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/lang/diag"
)

// snippetSources returns contract sources to print snippets of: every
// contract file of the repository and of the goldens, and files with the
// line endings, blank lines and bytes that make snippets tricky.
func snippetSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{
		"crlf.tenet.hcl":     []byte("contract \"x\" {\r\n  version = \"1\"\r\n\r\n}\r\ntask \"t\" {\r\n  utility = \"nope\"\r\n}\r\n"),
		"lonecr.tenet.hcl":   []byte("# a\rb\ncontract \"x\" {}\r\rtask \"t\" { utility = \"x\" }"),
		"blank.tenet.hcl":    []byte("\n\n\ntask \"t\" {\n\n\n  utility = \"nope\"\n\n}\n\n"),
		"utf8.tenet.hcl":     []byte("task \"é\" {\n  utility = \"e\u0301 ❤️ 👍🏽\"\n}\n# \xff\xfe bad\nparams { x = \"\xc3\" }"),
		"noeol.tenet.hcl":    []byte("params { x = 1 }"),
		"empty.tenet.hcl":    nil,
		"broken.tenet.hcl":   []byte("task \"t\" {\n  utility = \n}\ngoal {\ncontract \"c\" { x = [1, 2\n"),
		"nested.tenet.hcl":   []byte("a { b { c {} } }\nd \"e\" \"f\" {\n}\n"),
		"unclosed.tenet.hcl": []byte("task \"a\" {\n  x = 1\n"),
		"overlaps.tenet.hcl": []byte("a {}\nb {} c {}\n"),
		"onlycrlf.tenet.hcl": []byte("\r\n\r\n\r\n"),
		"trailing.tenet.hcl": []byte("a {}\n\n\n\n"),
	}
	root := filepath.Join("..", "..")
	for _, dir := range []string{"contracts", "examples", "lang"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".tenet.hcl") {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				out[p] = b
			}
			return nil
		})
	}
	scripts, _ := filepath.Glob(filepath.Join(root, "testdata", "*.txtar"))
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".tenet.hcl") {
				out[s+"/"+f.Name] = f.Data
			}
		}
	}
	return out
}

// TestTextWriterMatchesHCL prints diagnostics on every token, and on
// random ranges with and without a context range, with TextWriter and
// with HCL's own text writer, and requires identical output.
func TestTextWriterMatchesHCL(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	n := 0
	for name, src := range snippetSources(t) {
		f, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		if f == nil {
			f = &hcl.File{Bytes: src}
		}
		files := map[string]*hcl.File{name: f, "nav-less": {Bytes: src}}
		toks, _ := hclsyntax.LexConfig(src, name, hcl.InitialPos)
		var diags hcl.Diagnostics
		// HCL's writer is slow on large files (which is why TextWriter
		// exists): the larger the file, the fewer diagnostics.
		per := max(4, min(40, 30_000/max(len(src), 1)))
		for i := range min(len(toks), per) {
			r := toks[i*len(toks)/min(len(toks), per)].Range
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "token", Detail: "at " + r.String(), Subject: &r})
		}
		pos := func() hcl.Pos {
			b := rnd.Intn(len(src) + 3)
			return hcl.Pos{Byte: b, Line: 1 + rnd.Intn(40), Column: 1 + rnd.Intn(80)}
		}
		for range per {
			s := hcl.Range{Filename: name, Start: pos(), End: pos()}
			if rnd.Intn(3) > 0 && s.End.Byte < s.Start.Byte {
				s.Start, s.End = s.End, s.Start
			}
			d := &hcl.Diagnostic{Severity: hcl.DiagnosticSeverity(rnd.Intn(3)), Summary: "random", Subject: &s}
			switch rnd.Intn(4) {
			case 0:
				c := hcl.Range{Filename: name, Start: pos(), End: pos()}
				if c.End.Byte < c.Start.Byte {
					c.Start, c.End = c.End, c.Start
				}
				d.Context = &c
			case 1:
				c := s
				c.Filename = "other"
				c.End.Byte += rnd.Intn(20)
				d.Context = &c
			case 2:
				s.Filename = "nav-less"
			}
			diags = append(diags, d)
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "unlocated", Detail: "detail"},
			&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "unknown file", Subject: &hcl.Range{Filename: "missing"}})
		var want, got bytes.Buffer
		hw := hcl.NewDiagnosticTextWriter(&want, files, 0, false)
		sw := diag.NewTextWriter(&got, files)
		for _, d := range diags {
			hw.WriteDiagnostic(d)
			sw.WriteDiagnostic(d)
			if w := hclSnippetLines(want.Bytes()); string(w) != got.String() {
				t.Fatalf("%s: diagnostic %+v (context %+v):\nHCL:\n%s\nTextWriter:\n%s", name, d.Subject, d.Context, w, got.String())
			}
			want.Reset()
			got.Reset()
			n++
		}
	}
	t.Logf("%d diagnostics compared", n)
}

// hclSnippetLines applies diag.SnippetLine to every line of HCL's output, as
// TextWriter does to source lines: HCL prints control characters raw.
// No other line of the output holds any, and no source line is long
// enough to be cut.
func hclSnippetLines(out []byte) []byte {
	lines := bytes.Split(out, []byte("\n"))
	for i, l := range lines {
		lines[i] = diag.SnippetLine(l, 0)
	}
	return bytes.Join(lines, []byte("\n"))
}

// TestSnippetLine: ordinary lines are printed as they are; control and
// bidirectional formatting characters are escaped; a long line is cut to
// a window around the highlight.
func TestSnippetLine(t *testing.T) {
	long := strings.Repeat("[", 5000) + "x" + strings.Repeat("]", 5000)
	for _, c := range []struct {
		line string
		hl   int
		want string
	}{
		{"  utility = \"output == 'é ❤️'\"", 2, "  utility = \"output == 'é ❤️'\""},
		{"a\tb \xff\xfe", 0, "a\tb \xff\xfe"},
		{"x = \"\x1b[31mred\x00\r\x7f\"", 0, `x = "\x1b[31mred\x00\x0d\x7f"`},
		{"task \"\u202eevil\u2066\" {\u0085}", 0, `task "\u202eevil\u2066" {\u0085}`},
		{strings.Repeat("a", diag.MaxSnippetLine), 0, strings.Repeat("a", diag.MaxSnippetLine)},
		{long, 5000, "…" + strings.Repeat("[", diag.SnippetBefore) + "x" + strings.Repeat("]", diag.SnippetWindow-diag.SnippetBefore-1) + "… (4701 more bytes)"},
		{long, 0, strings.Repeat("[", diag.SnippetWindow) + "… (9601 more bytes)"},
		{strings.Repeat("é", 1000), 1001, "…" + strings.Repeat("é", 200) + "… (700 more bytes)"},
	} {
		if got := string(diag.SnippetLine([]byte(c.line), c.hl)); got != c.want {
			t.Errorf("snippetLine(%.40q, %d) =\n%q\nwant\n%q", c.line, c.hl, got, c.want)
		}
	}
}

const perfHeader = `contract "perf" { version = "1" }
threat_model {}
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
`

// TestScanLinesMatchesHCL compares scanLines with HCL's range scanner on
// random text made of line breaks, multi-byte and invalid UTF-8 and
// combining characters.
func TestScanLinesMatchesHCL(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	pieces := []string{"a", " ", "\r", "\n", "\r\n", "\xc3", "\xe2\x80", "\xff", "\u0301", "\u200d", "é", "👍🏽", "❤️", "\x00"}
	for range 3000 {
		var b strings.Builder
		for range rnd.Intn(30) {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		src := []byte(b.String())
		got := diag.ScanLines(src)
		sc := hcl.NewRangeScanner(src, "", bufio.ScanLines)
		i := 0
		for ; sc.Scan(); i++ {
			r := sc.Range()
			if i >= len(got) {
				t.Fatalf("%q: scanLines has %d lines, HCL more", src, len(got))
			}
			rng, text := diag.IndexedLine(got[i])
			if rng.Start.Byte != r.Start.Byte || rng.End.Byte != r.End.Byte || rng.Start.Line != r.Start.Line || !bytes.Equal(text, sc.Bytes()) {
				t.Fatalf("%q: line %d is %+v %q, HCL has %+v %q", src, i, rng, text, r, sc.Bytes())
			}
		}
		if i != len(got) {
			t.Fatalf("%q: scanLines has %d lines, HCL %d", src, len(got), i)
		}
	}
}

// badTasksContract is a contract of n tasks over about 4n lines, each with
// a criterion that does not type-check: n errors.
func badTasksContract(n int) []byte {
	var b strings.Builder
	b.WriteString(perfHeader)
	for i := range n {
		fmt.Fprintf(&b, "task \"t%d\" {\n  utility = \"nope\"\n}\n\n", i)
	}
	return []byte(b.String())
}

// compileBytes compiles a one-file contract in a temporary directory.
func compileBytes(tb testing.TB, src []byte) (string, map[string]*hcl.File, hcl.Diagnostics) {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.tenet.hcl"), src, 0o644); err != nil {
		tb.Fatal(err)
	}
	mod, _, diags := compiler.CompileDir(dir, compiler.Options{Formats: transcript.Formats()})
	return dir, mod.FileMap(), diags
}

// TestWriteTextLinear checks that printing 2,000 diagnostics of a
// 8,000-line file indexes the file once and looks at a bounded number of
// lines per diagnostic (it used to scan the whole file for each one).
func TestWriteTextLinear(t *testing.T) {
	const n = 2000
	dir, files, diags := compileBytes(t, badTasksContract(n))
	if len(diags) != n {
		t.Fatalf("%d diagnostics, want %d", len(diags), n)
	}
	scans, visited := diag.WriteTextCounting(io.Discard, dir, files, diags)
	if scans != 1 {
		t.Errorf("the file was indexed %d times, want once", scans)
	}
	if visited > 2*n {
		t.Errorf("%d lines visited to print %d one-line snippets, want at most %d", visited, n, 2*n)
	}
}

// BenchmarkWriteText prints n type errors of a 4n-line contract, as
// tenet check does; time per op should grow linearly with n.
func BenchmarkWriteText(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir, files, diags := compileBytes(b, badTasksContract(n))
			for b.Loop() {
				diag.WriteText(io.Discard, dir, files, diags)
			}
		})
	}
}

// unusedParamsContract is a contract of n unused params, each a string of
// width bytes on its own line: n warnings.
func unusedParamsContract(n, width int) []byte {
	var b strings.Builder
	b.WriteString(perfHeader + "params {\n")
	v := strings.Repeat("x", width)
	for i := range n {
		fmt.Fprintf(&b, "  p%d = %q\n", i, v)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// BenchmarkCheckLarge is tenet check (compile and print) of a 4.4 MB
// contract with 2,000 unused params.
func BenchmarkCheckLarge(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.tenet.hcl"), unusedParamsContract(2000, 2180), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		mod, _, diags := compiler.CompileDir(dir, compiler.Options{Formats: transcript.Formats()})
		diag.WriteText(io.Discard, dir, mod.FileMap(), diags)
	}
}
