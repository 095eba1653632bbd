package lang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// exprOf parses `predicate "p" { expr = LIT }` after header and returns
// the expression. The line "  expr = LIT" is line 3 and starts at byte 32.
func exprOf(t *testing.T, lit string) *Expr {
	t.Helper()
	src := header + "predicate \"p\" {\n  expr = " + lit + "\n}\n"
	m, diags := parseSrc(src)
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics: %q", renderAll(diags))
	}
	if len(m.Predicates) != 1 || m.Predicates[0].Expr == nil {
		t.Fatalf("no expression decoded")
	}
	e := m.Predicates[0].Expr
	if e.approx {
		t.Errorf("offsets fell back to the literal start")
	}
	checkOffsets(t, e, len(src))
	return e
}

// checkOffsets checks the invariants of every Expr: one offset per byte plus
// one, all within the file, never decreasing.
func checkOffsets(t *testing.T, e *Expr, size int) {
	t.Helper()
	if len(e.Offsets) != len(e.Text)+1 {
		t.Fatalf("%d offsets for %d bytes of text", len(e.Offsets), len(e.Text))
	}
	for i, o := range e.Offsets {
		if o < 0 || o > size {
			t.Fatalf("offset %d = %d outside the file (size %d)", i, o, size)
		}
		if i > 0 && o < e.Offsets[i-1] {
			t.Fatalf("offset %d = %d goes back from %d", i, o, e.Offsets[i-1])
		}
	}
}

func pos(p hcl.Pos) string { return fmt.Sprintf("%d:%d@%d", p.Line, p.Column, p.Byte) }

// posAtIndex gives the expected position of Text[i] as line:col@byte.
type posAtIndex struct {
	i    int
	want string
}

func TestExprQuotedEscapes(t *testing.T) {
	// Columns on line 3: the quote is at column 10 (byte 41), the text
	// starts at column 11 (byte 42).
	e := exprOf(t, `"a \"b\" \\ c\n d \u00e9 f $${x} %%{y} é z"`)
	if want := "a \"b\" \\ c\n d é f ${x} %{y} é z"; e.Text != want {
		t.Fatalf("Text = %q, want %q", e.Text, want)
	}
	if got := rng(e.Range); got != "main.tenet.hcl:3:10-3:53" {
		t.Errorf("Range = %s", got)
	}
	for _, c := range []posAtIndex{
		{0, "3:11@42"},  // a
		{2, "3:13@44"},  // " from \" starts at the backslash
		{3, "3:15@46"},  // b
		{4, "3:16@47"},  // " from \"
		{6, "3:19@50"},  // \ from \\
		{8, "3:22@53"},  // c
		{9, "3:23@54"},  // newline from \n
		{11, "3:26@57"}, // d
		{13, "3:28@59"}, // é from \u00e9, first byte
		{14, "3:28@59"}, // é from \u00e9, second byte
		{16, "3:35@66"}, // f
		{18, "3:37@68"}, // $ from $${
		{19, "3:37@68"}, // { from $${
		{20, "3:40@71"}, // x
		{21, "3:41@72"}, // }
		{23, "3:43@74"}, // % from %%{
		{25, "3:46@77"}, // y
		{28, "3:49@80"}, // literal é, first byte
		{29, "3:49@81"}, // literal é, second byte: same character, so same column
		{30, "3:50@82"}, // space after é: one column further, two bytes further
		{31, "3:51@83"}, // z
		{32, "3:52@84"}, // just past the text: the closing quote
		{-5, "3:11@42"}, // clamped
		{99, "3:52@84"}, // clamped
	} {
		if got := pos(e.Pos(c.i)); got != c.want {
			t.Errorf("Pos(%d) (%q) = %s, want %s", c.i, e.Text[max(0, min(c.i, len(e.Text)-1)):][:min(1, len(e.Text))], got, c.want)
		}
	}
	if got := rng(e.RangeOf(31, 32)); got != "main.tenet.hcl:3:51-3:52" {
		t.Errorf("RangeOf(31, 32) = %s", got)
	}
	if got := rng(e.RangeOf(5, 2)); got != "main.tenet.hcl:3:18-3:18" {
		t.Errorf("RangeOf(5, 2) = %s", got)
	}
}

func TestExprMultiByteBeforePosition(t *testing.T) {
	// 👍🏽 is two code points, eight bytes and one character (one grapheme
	// cluster, so one column); 日本 are two characters of three bytes each.
	e := exprOf(t, `"'👍🏽日本' == x"`)
	if e.Text != "'👍🏽日本' == x" {
		t.Fatalf("Text = %q", e.Text)
	}
	x := strings.IndexByte(e.Text, 'x')
	for _, c := range []posAtIndex{
		{0, "3:11@42"},     // '
		{1, "3:12@43"},     // 👍🏽
		{5, "3:12@47"},     // second code point of the cluster: same column
		{9, "3:13@51"},     // 日
		{12, "3:14@54"},    // 本
		{15, "3:15@57"},    // '
		{x, "3:20@62"},     // x
		{x + 1, "3:21@63"}, // closing quote
	} {
		if got := pos(e.Pos(c.i)); got != c.want {
			t.Errorf("Pos(%d) = %s, want %s", c.i, got, c.want)
		}
	}
}

func TestExprNormalized(t *testing.T) {
	// HCL (cty) NFC-normalizes strings: a decomposed "e" + U+0301 in the
	// file is "é" (U+00E9) in the text, both of whose bytes map to the "e".
	e := exprOf(t, "\"e\u0301 == x\"")
	if e.Text != "\u00e9 == x" {
		t.Fatalf("Text = %q", e.Text)
	}
	for _, c := range []posAtIndex{
		{0, "3:11@42"}, // é from e
		{1, "3:11@42"}, // é from e
		{2, "3:12@45"}, // the space after the combining mark: one character
		{6, "3:16@49"}, // x
	} {
		if got := pos(e.Pos(c.i)); got != c.want {
			t.Errorf("Pos(%d) = %s, want %s", c.i, got, c.want)
		}
	}
}

func TestExprHeredoc(t *testing.T) {
	e := exprOf(t, "<<EOT\ncalls.exists(c,\n  c.tool == \"x\\n\" && '$${a}' != '%%{b}')\nEOT")
	want := "calls.exists(c,\n  c.tool == \"x\\n\" && '${a}' != '%{b}')\n"
	if e.Text != want {
		t.Fatalf("Text = %q, want %q", e.Text, want)
	}
	if got := rng(e.Range); got != "main.tenet.hcl:3:10-6:4" {
		t.Errorf("Range = %s", got)
	}
	// Line 4 ("calls.exists(c,") starts at byte 32+15 = 47, line 5 at
	// 47+16 = 63; on line 5, column c is byte 62+c.
	for _, c := range []posAtIndex{
		{0, "4:1@47"},                                 // calls
		{strings.Index(want, "(c,"), "4:13@59"},       // (
		{strings.Index(want, ",\n") + 1, "4:16@62"},   // the newline ending line 4
		{strings.Index(want, "c.tool") - 2, "5:1@63"}, // indentation is kept
		{strings.Index(want, "c.tool"), "5:3@65"},
		{strings.Index(want, `\n`), "5:15@77"}, // no escapes in heredocs: \n stays two characters
		{strings.Index(want, `\n`) + 1, "5:16@78"},
		{strings.Index(want, "&&"), "5:19@81"},
		{strings.Index(want, "${a}"), "5:23@85"},     // $ of $${
		{strings.Index(want, "${a}") + 1, "5:23@85"}, // { of $${
		{strings.Index(want, "${a}") + 2, "5:26@88"}, // a
		{strings.Index(want, "%{b}"), "5:34@96"},     // % of %%{
		{strings.Index(want, "%{b}") + 2, "5:37@99"}, // b
		{len(want) - 1, "5:41@103"},                  // the final newline
		{len(want), "6:1@104"},                       // just past: the closing marker's line
	} {
		if got := pos(e.Pos(c.i)); got != c.want {
			t.Errorf("Pos(%d) (%q) = %s, want %s", c.i, e.Text[c.i:min(c.i+1, len(e.Text))], got, c.want)
		}
	}
}

func TestExprFlushHeredoc(t *testing.T) {
	// The smallest indentation (4 spaces, line 5) is removed from every
	// line; the blank line 6 is neither counted nor trimmed; the closing
	// marker's indentation does not matter.
	e := exprOf(t, "<<-EOT\n      a &&\n    b ||\n  \n        é\n  EOT")
	want := "  a &&\nb ||\n  \n    é\n"
	if e.Text != want {
		t.Fatalf("Text = %q, want %q", e.Text, want)
	}
	// Line 4 starts at byte 32+16 = 48, line 5 at 48+11 = 59, line 6 at
	// 59+9 = 68, line 7 at 68+3 = 71.
	for _, c := range []posAtIndex{
		{0, "4:5@52"},                           // first kept space of line 4
		{2, "4:7@54"},                           // a
		{strings.Index(want, "b"), "5:5@63"},    // b
		{strings.Index(want, "  \n"), "6:1@68"}, // the blank line is untouched
		{strings.Index(want, "é"), "7:9@79"},    // é
		{len(want) - 1, "7:10@81"},              // final newline
		{len(want), "8:1@82"},                   // the closing marker's line
	} {
		if got := pos(e.Pos(c.i)); got != c.want {
			t.Errorf("Pos(%d) (%q) = %s, want %s", c.i, e.Text[c.i:min(c.i+1, len(e.Text))], got, c.want)
		}
	}
}

func TestExprFlushHeredocTabsAndCRLF(t *testing.T) {
	// HCL counts indentation in characters, a tab being one, and keeps
	// "\r\n" line ends in the text.
	e := exprOf(t, "<<-EOT\r\n\t\ta\r\n\t  b\r\n\tEOT")
	// Both lines have two characters of indentation: "\t\t" and "\t ".
	if want := "a\r\n b\r\n"; e.Text != want {
		t.Fatalf("Text = %q, want %q", e.Text, want)
	}
	// Line 4 starts at 32+17 = 49: "\t\ta\r\n", then line 5 at 54.
	if got := pos(e.Pos(0)); got != "4:3@51" {
		t.Errorf("Pos(a) = %s", got)
	}
	if got := pos(e.Pos(4)); got != "5:4@57" {
		t.Errorf("Pos(b) = %s", got)
	}
}

func TestExprEmpty(t *testing.T) {
	e := exprOf(t, `""`)
	if e.Text != "" || pos(e.Pos(0)) != "3:11@42" {
		t.Errorf("Text = %q, Pos(0) = %s", e.Text, pos(e.Pos(0)))
	}
	e = exprOf(t, "<<EOT\nEOT")
	if e.Text != "" || pos(e.Pos(0)) != "4:1@47" {
		t.Errorf("Text = %q, Pos(0) = %s", e.Text, pos(e.Pos(0)))
	}
}

// TestExprMatchesHCLValue decodes many literals and checks, through
// exprOf, that our text is HCL's value and that no offset fell back.
func TestExprMatchesHCLValue(t *testing.T) {
	for _, lit := range []string{
		`"plain"`,
		`"\t\r\n\\\""`,
		`"\U0001F600 \u0041"`,
		`"$$ $$$ $${ $$${ %% %%% %%{ %%%{ $ % $x %x"`,
		`"trailing $"`,
		`"trailing %"`,
	} {
		t.Run(lit, func(t *testing.T) { exprOf(t, lit) })
	}
	for _, body := range []string{
		"a\n",
		"  a\n b\n",
		"$$\n$${\n%%{\n",
		"\n\n",
		"   \n",
		"  x $${y}\n   z\n",
		"\u00a0 a\n  b\n", // U+00A0 is white space to unicode.IsSpace
		"  a$\n  b%\n",
	} {
		for _, marker := range []string{"<<EOT\n", "<<-EOT\n"} {
			lit := marker + body + "EOT"
			t.Run(lit, func(t *testing.T) { exprOf(t, lit) })
		}
	}
}

func TestExprWithoutSource(t *testing.T) {
	// An Expr built by hand (no file bytes) counts columns in bytes.
	e := &Expr{Text: "ab", Offsets: []int{10, 11, 12}, Lines: []int{0, 5}}
	if got := pos(e.Pos(1)); got != "2:7@11" {
		t.Errorf("Pos(1) = %s", got)
	}
	e = &Expr{Text: "ab", Range: hcl.Range{Start: hcl.Pos{Line: 3, Column: 4, Byte: 20}}}
	if got := pos(e.Pos(1)); got != "3:4@20" {
		t.Errorf("Pos(1) without offsets = %s", got)
	}
}

// TestLiteralDecodingRandom builds many literals from the pieces that make
// decoding tricky and checks that, whenever HCL accepts the file, the text
// maps byte for byte (our decoding agrees with HCL's value).
func TestLiteralDecodingRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	quoted := []string{"a", " ", `\n`, `\t`, `\r`, `\"`, `\\`, `\u00e9`, `\U0001F600`, "$", "$$", "$${", "%", "%%", "%%{", "{", "}", "é", "\u0301", "'", "\t", "👍🏽"}
	heredoc := []string{"a", " ", "  ", "\t", `\n`, "$", "$$", "$${", "%", "%%", "%%{", "{", "}", "é", "\u0301", "\u00a0", "EOT", "'"}
	pick := func(pieces []string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	checked := 0
	for range 3000 {
		var lit string
		switch r.IntN(3) {
		case 0:
			lit = `"` + pick(quoted, r.IntN(12)) + `"`
		default:
			nl := "\n"
			if r.IntN(4) == 0 {
				nl = "\r\n"
			}
			marker := "<<EOT"
			if r.IntN(2) == 0 {
				marker = "<<-EOT"
			}
			lit = marker + nl
			for range r.IntN(5) {
				lit += pick(heredoc, r.IntN(6)) + nl
			}
			lit += pick([]string{"", " ", "  "}, 1) + "EOT"
		}
		src := header + "predicate \"p\" {\n  expr = " + lit + "\n}\n"
		m, diags := parseSrc(src)
		if diags.HasErrors() || len(m.Predicates) != 1 || m.Predicates[0].Expr == nil {
			continue
		}
		checked++
		e := m.Predicates[0].Expr
		checkOffsets(t, e, len(src))
		if e.approx {
			t.Errorf("offsets fell back for %q (text %q)", lit, e.Text)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d literals were valid HCL", checked)
	}
}
