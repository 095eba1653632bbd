package patterncode

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

func TestPatternProgram(t *testing.T) {
	// a b* : step 0; loop: split body, out; body: step 1; jmp loop; out: match.
	got, err := PatternProgram("a b*", []string{"a", "b"})
	want := []bundle.Inst{{Op: bundle.OpStep, X: 0}, {Op: bundle.OpSplit, X: 2, Y: 4}, {Op: bundle.OpStep, X: 1},
		{Op: bundle.OpJmp, X: 1}, {Op: bundle.OpMatch}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("PatternProgram(a b*) = %v, %v; want %v", got, err, want)
	}
	for text, msg := range map[string]string{
		"a c":             `the pattern names step "c", which the pattern does not declare`,
		"a (":             "the pattern does not parse",
		"(a{100}){100}":   "more than 10000",
		"((a|b){60}){60}": "more than 10000",
	} {
		if _, err := PatternProgram(text, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("PatternProgram(%q) error %v, want one containing %q", text, err, msg)
		}
	}
}
