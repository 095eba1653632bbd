package eval

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestVMRunsEveryOp fails when the pattern VM lacks a case for an
// instruction of bundle.Op: for each op, the program "op 1 1; match" runs
// over a run whose first item is a user message (step 1 is confirm, role
// user; targets 1 are the match) and must match — a known true. An op the
// VM has no case for leaves the result unknown (noCase), never false.
// (compiler/bundle's TestEveryOp checks names, Validate and Disassemble.)
func TestVMRunsEveryOp(t *testing.T) {
	p := patternProgram(t, "read !confirm* send $", "")
	r := syntheticRun(12)
	var rec runs.Record
	p.label(&rec, p.tasks["t"], nil, r, "")
	pt := &p.Bundle.Plan.Patterns[0]
	for _, op := range append(bundle.Ops(), 0) {
		pt.Program = []bundle.Inst{{Op: op, X: 1, Y: 1}, {Op: bundle.OpMatch}}
		ctx := &runCtx{threat: p.threat, run: r, v: p.valuesOf(r), items: itemStream(r)}
		ctx.acts = []*activation{{runCtx: ctx, params: p.params[0], pred: map[string]any{}}}
		res := p.runPattern(0, ctx, ctx.acts[0])
		if op == 0 { // not an instruction: the check must be able to fail
			if res.label.Known || !strings.Contains(res.label.Reason, "no case for instruction op(0)") {
				t.Errorf("op(0): %+v", res.label)
			}
			continue
		}
		if !res.label.Known || !res.label.Value {
			t.Errorf("%s: the VM gives %+v, want a match", op, res.label)
		}
	}
}
