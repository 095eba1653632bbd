package lang

import (
	"fmt"
	"strings"
	"testing"
)

// TestStringTooLargeRefused: a file holding such a string is refused,
// before HCL parses it, by check (ParseFiles) as by fmt (lang/format);
// a heredoc of 40,000 lines took 6 s to parse.
func TestStringTooLargeRefused(t *testing.T) {
	src := "task \"t\" {\n  utility = <<-CEL\n" + strings.Repeat("  true ||\n", 40_000) + "  true\n  CEL\n}\n"
	want := fmt.Sprintf(`[string-too-large] a.tenet.hcl:2:13-3:1: String too large: This string has 40001 parts (heredoc lines, or pieces between $${ and %%%%{ escapes) and 400007 bytes; HCL assembles a string part by part, in time proportional to parts × bytes, so tenet refuses a string of more than %d parts or whose parts × bytes exceed %d (1,000 lines of 256 KiB in all). Shorten it, or join its lines: a criterion is at most 100,000 code points anyway.`, MaxStringParts, MaxStringWork)
	m, diags := ParseFiles("dir", map[string][]byte{"a.tenet.hcl": []byte(src)})
	checkDiags(t, diags, want)
	if len(m.Tasks) != 0 {
		t.Errorf("the refused file was decoded: %d tasks", len(m.Tasks))
	}
}
