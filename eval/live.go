package eval

import (
	"fmt"
	"slices"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/eval/livestate"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// Live checks one agent session's calls against the contract's invariants
// before they run (docs/patterns.md, "Checking a session as it runs"):
// each Check judges the invariants on the session's run so far, with and
// without its pending call, as Judge would on that run, while the
// patterns' machines stay advanced over the part of the run that can no
// longer change (eval/livestate), so that a check matches only the items
// after it. A Live belongs to one session: it is not safe for concurrent
// use (its Program is shared safely).
type Live struct {
	p          *Program
	task, goal map[string]any
	need       []bool // the predicates the invariants read
	state      *livestate.State
	checks     int
}

// LiveOptions name the session's task and goal, which criteria read as
// `task` and `goal`. Without a goal the session is benign (goal.id ""), as
// a benign run is judged. Without a task, `task` holds no value: a
// criterion reading it is unknown, naming the missing task, never false.
type LiveOptions struct{ Task, Goal string }

// LiveResult is a check's outcome: every invariant, in the contract's order.
type LiveResult struct{ Invariants []InvariantCheck }

// InvariantCheck is one invariant on the run checked: Label is true when
// it holds, false when violated (Witness then maps each step of the forbid
// pattern that matched to its item, "event:N" or "call:N" of the run, as
// the runs file records it), unknown with the reason when it cannot be
// decided. History is its label on the history alone, without the pending
// call (a violation there is not the pending call's doing); it is Label
// when the check has no pending call. Again is true when History is false
// and the pending call makes a match of a forbid pattern of its own, one
// ending at the call or a call nested in it: Label is then false with
// that match as Witness, or unknown when that cannot be decided (a forbid
// pattern, or the invariant's expression, is unknown on the run).
type InvariantCheck struct {
	Name, Severity string
	Label, History runs.Label
	Witness        map[string]string
	Again          bool
}

// LiveStats count a Live's checks; its resets, when a run did not extend
// the committed one (the history was rewritten) and every pattern was
// matched again from the first item; and its rescans, when one pattern
// was, because a predicate value its guards read changed.
type LiveStats struct{ Checks, Resets, Rescans int }

// NewLive prepares the checks of one session's calls.
func (p *Program) NewLive(o LiveOptions) (*Live, error) {
	why := types.NewErr("the session names no task")
	l := &Live{p: p, task: map[string]any{"id": why, "prompt": why}, goal: noGoal, need: p.demand.Invariants(),
		state: livestate.New(p.Bundle, p.scopeIndex, p.asts)}
	switch {
	case o.Task == "" && o.Goal != "":
		return nil, fmt.Errorf("goal %q without a task: name the session's task too", o.Goal)
	case o.Task != "":
		task, goal, skip := p.resolve(runs.Key{Task: o.Task, Goal: o.Goal})
		if skip != Judged {
			return nil, fmt.Errorf("task %q, goal %q: %s", o.Task, o.Goal, skip)
		}
		l.task = p.taskVals[task.ID]
		if goal != nil {
			l.goal = p.goalVals[goal.ID]
		}
	}
	return l, nil
}

// FullRescan lists the owners of the patterns the invariants use whose
// guards read a variable that grows with the run (events, calls, output,
// ...): every check matches them from the first item.
func (l *Live) FullRescan() []string { return l.state.FullRescan(l.p.Bundle, l.need) }

// Stats returns what the Live did so far.
func (l *Live) Stats() LiveStats {
	return LiveStats{Checks: l.checks, Resets: l.state.Resets, Rescans: l.state.Rescans}
}

// Check judges the invariants on r, the session's run so far, whose call
// pending (an index in r.Calls; -1 for none) has been requested and has
// not run: a top-level call without its result. It errs on a run whose
// indexes are inconsistent or a pending call that is not such a call. The
// run cost limit and time limit hold per check, as per run for Judge.
func (l *Live) Check(r *run.Run, pending int) (LiveResult, error) {
	if err := r.Consistent(); err != nil {
		return LiveResult{}, err
	}
	if pending < -1 || pending >= len(r.Calls) {
		return LiveResult{}, fmt.Errorf("pending call %d: the run has %d calls", pending, len(r.Calls))
	}
	if pending >= 0 && (r.Calls[pending].Parent >= 0 || r.Calls[pending].ResultEvent >= 0) {
		return LiveResult{}, fmt.Errorf("pending call %d: a pending call is a top-level call without its result", pending)
	}
	l.checks++
	items := pike.Stream(r)
	common := l.state.Common(r, items)
	if common < l.state.Committed() {
		l.state.Reset()
		common = 0
	}
	final := pike.Final(r, items)
	now := l.judge(r, items, liveRun{common: common, commit: final})
	l.state.Extend(r, items, final)
	hist, again := now, (*runs.Record)(nil)
	if pending >= 0 {
		h := r.Without(pending)
		hitems := pike.Stream(h)
		hist = l.judge(h, hitems, liveRun{common: l.state.Common(h, hitems), commit: -1})
		// The first match wins, so the history's violation hides any later
		// one: the forbid patterns of an invariant violated already are
		// matched again, for a match ending at the pending call's items.
		lr := liveRun{common: l.state.Common(r, items), commit: -1, ends: make([]bool, len(l.p.Bundle.Plan.Patterns))}
		lr.first, lr.last = pike.Span(r, items, pending)
		for _, inv := range l.p.Bundle.Plan.Invariants {
			for _, u := range inv.Holds.Patterns {
				lr.ends[u.Pattern] = lr.ends[u.Pattern] || u.Negate && hist.Invariants[inv.Name] == runs.False()
			}
		}
		if slices.Contains(lr.ends, true) {
			again = l.judge(r, items, lr)
		}
	}
	out := LiveResult{Invariants: make([]InvariantCheck, len(l.p.Bundle.Plan.Invariants))}
	for i, inv := range l.p.Bundle.Plan.Invariants {
		out.Invariants[i] = InvariantCheck{Name: inv.Name, Severity: inv.Severity, Label: now.Invariants[inv.Name],
			History: hist.Invariants[inv.Name], Witness: now.Witnesses["invariants."+inv.Name]}
		if ic := &out.Invariants[i]; again != nil && ic.History == runs.False() && ic.Label == runs.False() {
			if a, w := again.Invariants[inv.Name], again.Witnesses["invariants."+inv.Name]; !a.Known || w != nil {
				ic.Again, ic.Label, ic.Witness = true, a, w // an unknown names the pattern and the cause
			}
		}
	}
	return out, nil
}

// judge labels r's invariants as lr says.
func (l *Live) judge(r *run.Run, items []pike.Item, lr liveRun) *runs.Record {
	rec := &runs.Record{}
	if len(r.Events) == 0 {
		l.p.emptyRun(rec, false)
		return rec
	}
	lr.l = l
	ctx, done := l.p.start(r, l.task, l.goal, l.need, items, &lr)
	defer done()
	l.p.invariants(rec, ctx)
	return rec
}

// liveRun is a Live's part in judging one run.
type liveRun struct {
	l      *Live
	common int // the run's items shared with the committed prefix
	commit int // the final prefix to commit the machines at; -1: none
	// The patterns matched from scratch for a match ending at items
	// first..last only (pike.Machine.EndWithin); nil: none.
	ends        []bool
	first, last int
}

// match runs pattern pi on the host's run from the machine livestate
// gives; on the way, at the final prefix, a clone is committed, unless the
// check has spent its cost or time (a guard may then have failed for that
// reason alone).
func (lr *liveRun) match(pi int, h *patternHost) pike.Result {
	ctx, p, st := h.ctx, lr.l.p, lr.l.state
	if lr.ends != nil && lr.ends[pi] {
		m := pike.NewMachine(h.pt, h, p.maxThreads())
		m.EndWithin(lr.first, lr.last)
		return m.Finish(len(ctx.items))
	}
	reads := st.Reads(pi)
	vals := make([]any, len(reads))
	for i, rd := range reads {
		vals[i] = ctx.acts[rd.Scope].Pred[rd.Name]
	}
	m := st.Start(pi, h.pt, h, p.maxThreads(), lr.common, vals)
	if lr.commit >= m.Pos() {
		m.Advance(lr.commit)
		if ctx.spent < p.Bundle.Plan.RunCostLimit && p.overTime(ctx, "") == nil {
			st.Commit(pi, m, vals)
		}
	}
	return m.Finish(len(ctx.items))
}
