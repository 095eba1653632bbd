package compiler

import (
	"strings"
	"testing"
)

// TestRenamedMetric: a gate still written with a metric's former name
// (raw_attacked_utility) is refused with the name it has now; edit distance
// alone suggests nothing, as the two names share no spelling. A misspelt
// field that was never renamed keeps the nearest-name suggestion.
func TestRenamedMetric(t *testing.T) {
	src := "contract \"c\" {}\nthreat_model {}\ntask \"t\" {\n  utility = \"true\"\n}\ngate \"g\" {\n  require = [\"metrics.raw_attacked_utility >= 0.5\", \"metrics.targeted_asrr <= 0.1\"]\n}\n"
	_, errs := compileText(t, src)
	want := []string{
		`[unknown-field] a.tenet.hcl:7:22: Undefined field 'raw_attacked_utility': In the require expression of gate g (requirement 1). The metric raw_attacked_utility is now called utility_under_attack, its name in every report. Did you mean "utility_under_attack"?`,
		`[unknown-field] a.tenet.hcl:7:61: Undefined field 'targeted_asrr': In the require expression of gate g (requirement 2). Did you mean "targeted_asr"?`,
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	ok, errs := compileText(t, strings.Replace(src, "raw_attacked_utility", "utility_under_attack", 1))
	if ok || len(errs) != 1 {
		t.Errorf("with the new name: compiled %v, errors %v (want only the targeted_asrr one)", ok, errs)
	}
}
