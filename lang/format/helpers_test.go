package format

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// render renders a diagnostic as "[code] file:line:col-line:col: summary:
// detail", as lang's tests do.
func render(d *hcl.Diagnostic) string {
	s := "[" + string(diag.Of(d)) + "] "
	if r := d.Subject; r != nil {
		s += fmt.Sprintf("%s:%d:%d-%d:%d: ", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
	}
	return s + d.Summary + ": " + d.Detail
}

// checkDiags compares diagnostics, in order, with want, and checks that
// each has a code registered in lang/diag with its severity.
func checkDiags(t *testing.T, diags hcl.Diagnostics, want ...string) {
	t.Helper()
	got := []string{}
	for _, d := range diags {
		got = append(got, render(d))
		if info, ok := diag.Lookup(diag.Of(d)); !ok || info.Severity != d.Severity {
			t.Errorf("diagnostic %q has no registered code of its severity", render(d))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// nested returns n nested lists.
func nested(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// TestStringTooLargeRefused: Format refuses a file holding a string beyond
// lang's limits, before HCL parses it, as check does (lang's test of the
// same name); a heredoc of 40,000 lines took 6 s to parse.
func TestStringTooLargeRefused(t *testing.T) {
	src := "task \"t\" {\n  utility = <<-CEL\n" + strings.Repeat("  true ||\n", 40_000) + "  true\n  CEL\n}\n"
	want := fmt.Sprintf(`[string-too-large] a.tenet.hcl:2:13-3:1: String too large: This string has 40001 parts (heredoc lines, or pieces between $${ and %%%%{ escapes) and 400007 bytes; HCL assembles a string part by part, in time proportional to parts × bytes, so tenet refuses a string of more than %d parts or whose parts × bytes exceed %d (1,000 lines of 256 KiB in all). Shorten it, or join its lines: a criterion is at most 100,000 code points anyway.`, lang.MaxStringParts, lang.MaxStringWork)
	out, diags := Format([]byte(src), "a.tenet.hcl")
	if out != nil {
		t.Errorf("Format wrote %d bytes", len(out))
	}
	checkDiags(t, diags, want)
}
