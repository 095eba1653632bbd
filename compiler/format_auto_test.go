package compiler

import (
	"strings"
	"testing"
)

// TestSourceFormatOptional: a source without format, or with format
// "auto", compiles (eval recognises each file's format); the plan keeps
// what was written. A format that is neither known nor auto stays an
// error.
func TestSourceFormatOptional(t *testing.T) {
	head := "contract \"c\" {}\nthreat_model {}\ntask \"t\" {\n  utility = \"true\"\n}\n"
	src := func(format string) string {
		return head + "source \"s\" {\n" + format + "  task = \"'t'\"\n  condition = \"'benign'\"\n}\n"
	}
	for _, format := range []string{"", "  format = \"auto\"\n", "  format = \"tenet\"\n"} {
		if ok, errs := compileText(t, src(format)); !ok || len(errs) != 0 {
			t.Errorf("%q: ok %v, errors %v", format, ok, errs)
		}
	}
	ok, errs := compileText(t, src("  format = \"autox\"\n"))
	if ok || len(errs) != 1 || !strings.HasPrefix(errs[0], "[unknown-format] a.tenet.hcl:7:12: Unknown transcript format") {
		t.Errorf("autox: ok %v, errors %v", ok, errs)
	}
}
