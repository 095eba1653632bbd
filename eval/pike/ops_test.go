package pike

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// TestVMRunsEveryOp fails when the VM lacks a case for an instruction of
// bundle.Op: for each op, the program "op 1 1; match" runs over the run
// "ab" (step 1 selects b) and must match — a known true. An op the VM has
// no case for leaves the result unknown, never false.
// (compiler/bundle's TestEveryOp checks names, Validate and Disassemble.)
func TestVMRunsEveryOp(t *testing.T) {
	pt := plan(t, "a b", "ab", "", nil)
	for _, op := range append(bundle.Ops(), 0) {
		pt.Program = []bundle.Inst{{Op: op, X: 1, Y: 1}, {Op: bundle.OpMatch}}
		res := Run(pt, 2, &letters{s: "ab", steps: "ab"}, 100)
		if op == 0 { // not an instruction: the check must be able to fail
			if res.Label.Known || !strings.Contains(res.Label.Reason, "no case for instruction op(0)") {
				t.Errorf("op(0): %+v", res.Label)
			}
			continue
		}
		if !res.Label.Known || !res.Label.Value {
			t.Errorf("%s: the VM gives %+v, want a match", op, res.Label)
		}
	}
}
