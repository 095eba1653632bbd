package stdlib

import (
	"testing"

	"cel.dev/cel-go/common/types"
)

// parseYAML and parseJSON never panic, and whatever they return stays within
// the size their cost models state.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1", "- [a, {b: c}]", "a: &x [1]\nb: *x", "? x\n: y", "{\"a\": [1, null]}", "a: |\n  x\n", "&a [*a]", "!!binary aGk=", "<<: {a: 1}", "a: b: c", "---\n---"} {
		f.Add(s)
	}
	calc := types.NewSizeCalculator(types.SizeCalculatorStringUnitLength(1))
	f.Fuzz(func(t *testing.T, s string) {
		if y := parseYAML(types.String(s)); !types.IsError(y) {
			if size := uint64(calc.AggregateSize(y)); size > 2*uint64(len(s))+2 {
				t.Errorf("parseYAML(%q): aggregate size %d > %d", s, size, 2*len(s)+2)
			}
		}
		if j := parseJSON(types.String(s)); !types.IsError(j) {
			if size := uint64(calc.AggregateSize(j)); size > uint64(len(s)) {
				t.Errorf("parseJSON(%q): aggregate size %d > %d", s, size, len(s))
			}
		}
	})
}
