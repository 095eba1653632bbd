package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestStringTooLarge: the parts and bytes of each string are counted on
// the tokens, exactly, and a string is refused only beyond the limits.
func TestStringTooLarge(t *testing.T) {
	heredoc := func(lines int, line string) string {
		return "a = <<-EOT\n" + strings.Repeat(line, lines) + "EOT\n"
	}
	for _, tt := range []struct {
		name        string
		src         string
		parts, size int // of the refused string; 0 when none is
		line, col   int
	}{
		{"one line", heredoc(1, "x\n"), 0, 0, 0, 0},
		{"at the part limit", heredoc(MaxStringParts, "x\n"), 0, 0, 0, 0},
		{"over the part limit", heredoc(MaxStringParts+1, "x\n"), MaxStringParts + 1, 2 * (MaxStringParts + 1), 1, 5},
		// 1,024 lines of 256 bytes: parts × bytes = 2^28, the limit.
		{"at the work limit", heredoc(1024, strings.Repeat("x", 255)+"\n"), 0, 0, 0, 0},
		{"over the work limit", heredoc(1025, strings.Repeat("x", 255)+"\n"), 1025, 1025 * 256, 1, 5},
		// One part costs nothing to assemble, however long.
		{"one long part", "a = \"" + strings.Repeat("x", 1<<20) + "\"\n", 0, 0, 0, 0},
		// $${ and %%{ escapes split a quoted string into parts.
		{"escapes", "a = \"" + strings.Repeat("$${", MaxStringParts+1) + "\"\n", MaxStringParts + 1, 3 * (MaxStringParts + 1), 1, 5},
		{"escapes within the limits", "a = \"" + strings.Repeat("x$${", 100) + "\"\n", 0, 0, 0, 0},
		// A string inside an interpolation is a string of its own: the
		// outer one has 2 parts, the inner one is refused.
		{"nested", "a = \"x${\"" + strings.Repeat("%%{", MaxStringParts+1) + "\"}y\"\n", MaxStringParts + 1, 3 * (MaxStringParts + 1), 1, 9},
		// An unterminated heredoc is counted to the end of the file.
		{"unterminated", "a = <<EOT\n" + strings.Repeat("x\n", MaxStringParts+1), MaxStringParts + 1, 2 * (MaxStringParts + 1), 1, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			toks, _ := hclsyntax.LexConfig([]byte(tt.src), "a.tenet.hcl", hcl.InitialPos)
			open, parts, size, bad := stringTooLarge(toks)
			if bad != (tt.parts > 0) || parts != tt.parts || size != tt.size {
				t.Fatalf("stringTooLarge = %d parts, %d bytes, %v; want %d, %d", parts, size, bad, tt.parts, tt.size)
			}
			if bad && (open.Range.Start.Line != tt.line || open.Range.Start.Column != tt.col) {
				t.Errorf("at %d:%d, want %d:%d", open.Range.Start.Line, open.Range.Start.Column, tt.line, tt.col)
			}
		})
	}
}

// TestStringTooLargeRefused: a file holding such a string is refused,
// before HCL parses it, by check (ParseFiles) and by fmt (Format) alike;
// a heredoc of 40,000 lines took 6 s to parse.
func TestStringTooLargeRefused(t *testing.T) {
	src := "task \"t\" {\n  utility = <<-CEL\n" + strings.Repeat("  true ||\n", 40_000) + "  true\n  CEL\n}\n"
	want := fmt.Sprintf(`[string-too-large] a.tenet.hcl:2:13-3:1: String too large: This string has 40001 parts (heredoc lines, or pieces between $${ and %%%%{ escapes) and 400007 bytes; HCL assembles a string part by part, in time proportional to parts × bytes, so tenet refuses a string of more than %d parts or whose parts × bytes exceed %d (1,000 lines of 256 KiB in all). Shorten it, or join its lines: a criterion is at most 100,000 code points anyway.`, MaxStringParts, MaxStringWork)
	m, diags := ParseFiles("dir", map[string][]byte{"a.tenet.hcl": []byte(src)})
	checkDiags(t, diags, want)
	if len(m.Tasks) != 0 {
		t.Errorf("the refused file was decoded: %d tasks", len(m.Tasks))
	}
	out, diags := Format([]byte(src), "a.tenet.hcl")
	if out != nil {
		t.Errorf("Format wrote %d bytes", len(out))
	}
	checkDiags(t, diags, want)
}
