package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/runs"
)

func writeMarkdown(t *testing.T, d *Document) string {
	t.Helper()
	return render(t, func(b *strings.Builder) error { return testWrite(b, d, "markdown") })
}

func TestMarkdownGolden(t *testing.T) {
	for _, f := range testDocuments(t) {
		golden(t, f.name+".md.golden", writeMarkdown(t, f.doc))
	}
}

// mdCells counts the cells of a table row, split on its unescaped '|'.
func mdCells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

// TestMarkdownWellFormed checks every table row has as many cells as its
// header, and that no HTML or control character gets through.
func TestMarkdownWellFormed(t *testing.T) {
	for _, f := range testDocuments(t) {
		out := writeMarkdown(t, f.doc)
		width := 0
		for i, line := range strings.Split(out, "\n") {
			switch {
			case !strings.HasPrefix(line, "|"):
				width = 0
			case width == 0:
				width = mdCells(line)
			case mdCells(line) != width:
				t.Errorf("%s line %d has %d cells, want %d: %s", f.name, i+1, mdCells(line), width, line)
			}
			if strings.Contains(line, "<") && !strings.HasPrefix(line, "<details><summary>") && line != "</details>" {
				t.Errorf("%s line %d holds '<': %s", f.name, i+1, line)
			}
			if strings.ContainsFunc(line, func(r rune) bool { return r < ' ' && r != '\t' }) || !utf8.ValidString(line) {
				t.Errorf("%s line %d holds a control character or invalid UTF-8: %q", f.name, i+1, line)
			}
		}
	}
}

func TestMarkdownHostileNames(t *testing.T) {
	out := writeMarkdown(t, errorsDocument())
	for _, want := range []string{
		"| a\\|b&lt;script&gt; | answered | 1 | 0 | 2 |\n",
		"\n- a\\|b&lt;script&gt;/\"t\\\\nx\"\n",
		"\n- run a\\|b&lt;script&gt;/T2: label utility is unknown: criterion error: \uFFFD\\[31mred\uFFFD \\| \\`x\\` &lt;b&gt;\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// manyViolations has 25 runs of condition m violating invariant answered.
func manyViolations() *Document {
	var recs []runs.Record
	for i := range 25 {
		r := fixtureRecord("", "m", fmt.Sprintf("T%02d", i), "", true, false)
		r.Invariants = map[string]runs.Label{"answered": runs.False()}
		recs = append(recs, r)
	}
	d := testBuild(testInput{Command: CommandReport, Inputs: []string{"runs.jsonl"}, Records: recs})
	for i := range 25 {
		d.Failures = append(d.Failures, fmt.Sprintf("failure %d", i))
	}
	return d
}

// TestMarkdownCaps checks a list of runs stops after 10 items, and the
// failures never do.
func TestMarkdownCaps(t *testing.T) {
	out := writeMarkdown(t, manyViolations())
	if !strings.Contains(out, "\n**violations of answered in m**\n\n- m/T00\n- m/T01\n- m/T02\n- m/T03\n- m/T04\n- m/T05\n- m/T06\n- m/T07\n- m/T08\n- m/T09\n- … and 15 more\n") {
		t.Errorf("violations not capped at 10:\n%s", out)
	}
	if !strings.Contains(out, "\n- failure 24\n") || !strings.HasPrefix(out, "## tenet report\n\n**❌ 26 failures** (exit code 1) · 25 runs from 1 file\n") {
		t.Errorf("failures capped or status wrong:\n%s", out)
	}
}

func TestMarkdownStatus(t *testing.T) {
	for _, c := range []struct {
		d    *Document
		want string
	}{
		{&Document{Command: CommandCompare}, "**✅ passed** (exit code 0) · 0 runs from 0 files\n"},
		{&Document{Command: CommandTest, Version: "1", Failures: []string{"x"}, ExitCode: 1}, "**❌ 1 failure** (exit code 1) · tenet 1\n"},
		{&Document{Command: CommandReport, Errors: []string{"e"}, Failures: []string{"x", "y"}, ExitCode: 2}, "**❌ 1 error, 2 failures** (exit code 2) · 0 runs from 0 files\n"},
	} {
		out := writeMarkdown(t, c.d)
		if line := strings.SplitN(out, "\n", 4)[2] + "\n"; line != c.want {
			t.Errorf("status %q, want %q", line, c.want)
		}
	}
}
