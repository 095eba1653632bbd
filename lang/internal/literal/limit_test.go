package literal

import (
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
		{"at the part limit", heredoc(MaxParts, "x\n"), 0, 0, 0, 0},
		{"over the part limit", heredoc(MaxParts+1, "x\n"), MaxParts + 1, 2 * (MaxParts + 1), 1, 5},
		// 1,024 lines of 256 bytes: parts × bytes = 2^28, the limit.
		{"at the work limit", heredoc(1024, strings.Repeat("x", 255)+"\n"), 0, 0, 0, 0},
		{"over the work limit", heredoc(1025, strings.Repeat("x", 255)+"\n"), 1025, 1025 * 256, 1, 5},
		// One part costs nothing to assemble, however long.
		{"one long part", "a = \"" + strings.Repeat("x", 1<<20) + "\"\n", 0, 0, 0, 0},
		// $${ and %%{ escapes split a quoted string into parts.
		{"escapes", "a = \"" + strings.Repeat("$${", MaxParts+1) + "\"\n", MaxParts + 1, 3 * (MaxParts + 1), 1, 5},
		{"escapes within the limits", "a = \"" + strings.Repeat("x$${", 100) + "\"\n", 0, 0, 0, 0},
		// A string inside an interpolation is a string of its own: the
		// outer one has 2 parts, the inner one is refused.
		{"nested", "a = \"x${\"" + strings.Repeat("%%{", MaxParts+1) + "\"}y\"\n", MaxParts + 1, 3 * (MaxParts + 1), 1, 9},
		// An unterminated heredoc is counted to the end of the file.
		{"unterminated", "a = <<EOT\n" + strings.Repeat("x\n", MaxParts+1), MaxParts + 1, 2 * (MaxParts + 1), 1, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			toks, _ := hclsyntax.LexConfig([]byte(tt.src), "a.tenet.hcl", hcl.InitialPos)
			open, parts, size, bad := TooLarge(toks)
			if bad != (tt.parts > 0) || parts != tt.parts || size != tt.size {
				t.Fatalf("TooLarge = %d parts, %d bytes, %v; want %d, %d", parts, size, bad, tt.parts, tt.size)
			}
			if bad && (open.Range.Start.Line != tt.line || open.Range.Start.Column != tt.col) {
				t.Errorf("at %d:%d, want %d:%d", open.Range.Start.Line, open.Range.Start.Column, tt.line, tt.col)
			}
		})
	}
}
