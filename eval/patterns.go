package eval

import (
	"fmt"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/view"
)

// MaxThreads is the default pattern thread budget (Program.MaxPatternThreads
// zero): the distinct VM states alive at one position of a run; past it the
// pattern's result is unknown. Only guards that refer to earlier steps can
// multiply states beyond the program's size.
const MaxThreads = 100_000

// maxThreads is the pattern thread budget in force: p.MaxPatternThreads, or
// MaxThreads when it is zero or negative.
func (p *Program) maxThreads() int {
	if p.MaxPatternThreads > 0 {
		return p.MaxPatternThreads
	}
	return MaxThreads
}

// runPattern runs pattern pi over the run's item stream with the Pike VM
// (eval/pike), which asks patternHost to test items and evaluate guards in
// the pattern's scope.
func (p *Program) runPattern(pi int, ctx *runCtx, act *view.Scope) pike.Result {
	pt := &p.Bundle.Plan.Patterns[pi]
	h := &patternHost{p: p, pt: pt, ctx: ctx}
	h.guard.Scope = act
	if ctx.live != nil {
		return ctx.live.match(pi, h)
	}
	return pike.Run(pt, len(ctx.items), h, p.maxThreads())
}

// patternHost is the VM's pike.Host for one pattern on one run: it reads
// the run's items and values, evaluates guards with the run's meter, and
// charges the VM's threads to the run's cost budget.
type patternHost struct {
	p     *Program
	pt    *bundle.PatternPlan
	ctx   *runCtx
	guard view.Step // reused by every guard evaluation
}

// Selects tests step k's selector: its role on a message, its tool ("*":
// any) on a call.
func (h *patternHost) Selects(k, pos int) bool {
	st := &h.pt.Steps[k]
	it := h.ctx.items[pos]
	if st.Role != "" {
		return it.Event >= 0 && h.ctx.run.Events[it.Event].Role == st.Role
	}
	return it.Call >= 0 && (st.Call == "*" || h.ctx.run.Calls[it.Call].Tool == st.Call)
}

// Guard evaluates step k's guard on item pos; an error names the pattern,
// the step, the item and the guard's source location.
func (h *patternHost) Guard(k, pos int, caps []int) (bool, error) {
	st := &h.pt.Steps[k]
	it := h.ctx.items[pos]
	g := &h.guard
	g.Bind(h.pt.Steps, k, h.ctx.items, pos, caps)
	v, err := h.p.evalMetered(st.When, g, h.ctx)
	if err != nil {
		e := &h.p.Bundle.Exprs[st.When]
		return false, fmt.Errorf("%s, step %s at %s (%s:%d:%d): %v", h.pt.Owner, st.Name, it, e.Range.File, e.Range.Line, e.Range.Column, err)
	}
	b, ok := v.(types.Bool)
	return ok && bool(b), nil
}

// Tick stops the VM once the run is past its time limit.
func (h *patternHost) Tick() error { return h.p.overTime(h.ctx, "while matching") }

// Charge charges each live thread one unit of the run's cost budget, so
// that a pattern whose keyed threads multiply cannot run for minutes.
func (h *patternHost) Charge(threads int) error {
	h.ctx.spent += uint64(threads)
	if limit := h.p.Bundle.Plan.RunCostLimit; h.ctx.spent > limit {
		return fmt.Errorf("run cost limit of %d exceeded while matching (contract run_cost_limit)", limit)
	}
	return nil
}
