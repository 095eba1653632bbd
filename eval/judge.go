package eval

import (
	"context"
	"errors"
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/eval/audit"
	"github.com/tenetlang/tenet/eval/constpred"
	"github.com/tenetlang/tenet/eval/excerpt"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/source"
	"github.com/tenetlang/tenet/stdlib"
)

// Skip says why a record was not judged. Skipped records are counted and
// reported, never silently dropped.
type Skip int

// Reasons a record is not judged.
const (
	Judged          Skip = iota
	NotSelected          // the source's select expression is false
	TaskNotDeclared      // the contract has no such task
	GoalNotDeclared      // the contract has no such goal
	CaseNotDeclared      // task and goal exist, but the pair is not a declared security case
)

// String names the reason as reports print it.
func (s Skip) String() string {
	switch s {
	case NotSelected:
		return "not selected by the source"
	case TaskNotDeclared:
		return "task not in contract"
	case GoalNotDeclared:
		return "goal not in contract"
	case CaseNotDeclared:
		return "case not in contract"
	}
	return "judged"
}

// Judgement is the outcome of one record.
type Judgement struct {
	Skip   Skip
	Record runs.Record // valid when Skip == Judged; Key is set whenever it could be computed
}

// SourceError is a record the source block could not map to a run (its
// expressions failed or gave values of the wrong type): bad input, reported
// as file:line.
type SourceError struct {
	Origin run.Origin
	Msg    string
}

func (e *SourceError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Origin.File, e.Origin.Line, e.Msg)
}

// Judge maps one run to its key with the source plan and computes its labels.
func (p *Program) Judge(src *bundle.SourcePlan, r *run.Run) (Judgement, error) {
	return p.JudgeAs(src, r, nil)
}

// Override replaces the task and goal a source maps a record to (contract
// tests use it, so that a self-written transcript needs no metadata).
// Goal "" makes the run benign.
type Override struct {
	Task, Goal string
}

// JudgeAs is Judge with the task and goal taken from o when o is non-nil.
func (p *Program) JudgeAs(src *bundle.SourcePlan, r *run.Run, o *Override) (Judgement, error) {
	return p.judge(src, r, o, false)
}

// JudgeSelected is Judge of a run whose select is known to be true
// (PeekSelect found it so on the run's peek): select is not evaluated
// again.
func (p *Program) JudgeSelected(src *bundle.SourcePlan, r *run.Run) (Judgement, error) {
	return p.judge(src, r, nil, true)
}

// judge is JudgeAs; selected skips the select.
func (p *Program) judge(src *bundle.SourcePlan, r *run.Run, o *Override, selected bool) (Judgement, error) {
	if o != nil {
		// The source is bypassed: no select, no metadata, no given labels.
		key := runs.Key{Contract: p.Bundle.Manifest.Contract, Condition: "test", Task: o.Task, Goal: o.Goal, Attempt: 1, Repetition: 1}
		rec := runs.Record{Bundle: p.ID, Key: key, OriginFile: r.Origin.File, OriginLine: r.Origin.Line}
		task, goal, skip := p.resolve(key)
		if skip == Judged {
			p.label(&rec, task, goal, r, src.Grant)
		}
		return Judgement{Skip: skip, Record: rec}, nil
	}
	sact := source.Activation{Meta: r.Meta, Record: r.Record}
	if sact.Meta == nil {
		sact.Meta = map[string]any{}
	}
	exprs := source.Exprs(p.progs)
	fail := func(format string, args ...any) (Judgement, error) {
		return Judgement{}, &SourceError{Origin: r.Origin, Msg: fmt.Sprintf("source %s: ", src.Name) + fmt.Sprintf(format, args...)}
	}
	if !selected {
		if ok, err := exprs.Select(src, &sact); err != nil || !ok {
			if err != nil {
				return fail("%v", err)
			}
			return Judgement{Skip: NotSelected}, nil
		}
	}
	key, err := exprs.Key(src, &sact)
	if err != nil {
		return fail("%v", err)
	}
	key.Contract = p.Bundle.Manifest.Contract
	if p.profile != "" {
		key.Condition += "+" + p.profile // a condition of its own (WithProfile)
	}
	// An attempt the threat model does not allow is bad input, like any
	// record the source cannot map: its labels could not be counted.
	if b := p.Bundle.Manifest.ThreatModel.AttemptBudget; b > 0 && key.Attempt > b {
		return fail("attempt: run %s: attempt %d is above attempt_budget %d (the threat model allows attempts 1..%d)", key, key.Attempt, b, b)
	}
	rec := runs.Record{Bundle: p.ID, Key: key, OriginFile: r.Origin.File, OriginLine: r.Origin.Line}
	task, goal, skip := p.resolve(key)
	if skip != Judged {
		return Judgement{Skip: skip, Record: rec}, nil
	}
	// Given labels are read only for runs that are judged: a skipped
	// record's metadata need not fit this contract.
	if rec.Given, err = exprs.Given(src, &sact); err != nil {
		return fail("%v", err)
	}
	if msg := source.GivenMisfit(key, rec.Given); msg != "" {
		return fail("%s", msg)
	}
	p.label(&rec, task, goal, r, src.Grant)
	rec.Excerpt = excerpt.Of(r, &rec) // what a report expands under the run
	return Judgement{Record: rec}, nil
}

// emptyRun labels a run whose transcript has no messages: nothing can be
// judged from it (a harness failure, not agent behaviour), so every label,
// invariant and failure class is unknown with that reason — never false.
func (p *Program) emptyRun(rec *runs.Record, attacked bool) {
	why := runs.Unknown("the transcript has no messages: nothing to judge")
	rec.Utility = why
	if attacked {
		rec.AttackSuccess, rec.SideEffect = why, why
		if p.Bundle.Manifest.ThreatModel.Exposure != bundle.NoExpr {
			rec.HasExposed, rec.Exposed = true, why
		}
	}
	for _, inv := range p.Bundle.Plan.Invariants {
		if rec.Invariants == nil {
			rec.Invariants = map[string]runs.Label{}
		}
		rec.Invariants[inv.Name] = why
	}
	for _, f := range p.Bundle.Plan.Failures {
		if rec.Failures == nil {
			rec.Failures = map[string]runs.Label{}
		}
		rec.Failures[f.Name] = why
	}
}

// resolve finds a key's task and goal (nil for a benign run), or says why
// the contract does not judge it. A benign run of a goal task gets that
// goal as its task (Program.goalTasks).
func (p *Program) resolve(key runs.Key) (*bundle.TaskPlan, *bundle.GoalPlan, Skip) {
	task, ok := p.tasks[key.Task]
	if gt := p.goalTasks[key.Task]; !ok && gt != nil && key.Goal == "" {
		return gt, nil, Judged
	}
	if !ok {
		return nil, nil, TaskNotDeclared
	}
	if key.Goal == "" {
		return task, nil, Judged
	}
	goal, ok := p.goals[key.Goal]
	if !ok {
		return nil, nil, GoalNotDeclared
	}
	if !p.cases[bundle.Case{Task: key.Task, Goal: key.Goal}] {
		return nil, nil, CaseNotDeclared
	}
	return task, goal, Judged
}

// label evaluates predicates and criteria for a run.
// grant names the grant calls are audited against ("": no audit).
func (p *Program) label(rec *runs.Record, task *bundle.TaskPlan, goal *bundle.GoalPlan, r *run.Run, grant string) {
	rec.AttemptBudget = p.Bundle.Manifest.ThreatModel.AttemptBudget
	rec.GoalTask = p.goalTasks[task.ID] == task
	if len(r.Events) == 0 {
		p.emptyRun(rec, goal != nil)
		return
	}
	goalVal := noGoal
	if goal != nil {
		goalVal = p.goalVals[goal.ID]
	}
	// Only what the run's verdicts read (eval/demand); explain shows every one.
	var need []bool
	if p.explaining == nil {
		need = p.demand.Of(task, goal)
	}
	ctx, done := p.start(r, p.taskVals[task.ID], goalVal, need, nil, nil)
	defer done()
	if g := p.grants[grant]; g != nil {
		rec.Grant, rec.Audit = g.Name, audit.Calls(r, g, p.tools)
	}
	rec.Utility = p.explained(runs.Utility.String(), "", p.variant(task.Utility, task.Variants, ctx), ctx)
	p.invariants(rec, ctx)
	if len(p.Bundle.Plan.Failures) > 0 {
		rec.Failures = make(map[string]runs.Label, len(p.Bundle.Plan.Failures))
		for _, f := range p.Bundle.Plan.Failures {
			rec.Failures[f.Name] = p.explained("failure", f.Name, f.When, ctx)
		}
	}
	if goal == nil {
		return
	}
	rec.AttackSuccess = p.explained(runs.AttackSuccess.String(), "", p.variant(goal.Success, goal.Variants, ctx), ctx)
	// The side-effect scope always includes the goal (h ≥ a by construction).
	labels := []runs.Label{rec.AttackSuccess}
	for _, se := range p.Bundle.Plan.SideEffects {
		labels = append(labels, p.explained(runs.SideEffect.String(), se.Name, se.When, ctx))
	}
	rec.SideEffect = runs.AnyOf(labels)
	if exp := p.Bundle.Manifest.ThreatModel.Exposure; exp != bundle.NoExpr {
		rec.HasExposed = true
		rec.Exposed = p.explained(runs.Exposed.String(), "", bundle.Criterion{Expr: exp}, ctx)
	}
}

// start prepares judging r: its values and the variables of each scope
// (task and goal are the `task` and `goal` values), and evaluates the
// predicates need says (every one when nil). items is r's item stream
// (nil: computed here when needed); live, when set, runs the patterns
// (Live). done releases what judging held.
func (p *Program) start(r *run.Run, task, goal map[string]any, need []bool, items []pike.Item, live *liveRun) (ctx *runCtx, done func()) {
	ctx = &runCtx{
		rung:     -1,
		run:      r,
		v:        p.view.Of(r),
		patterns: make([]*pike.Result, len(p.Bundle.Plan.Patterns)),
		items:    items,
		live:     live,
	}
	cancel := func() {}
	if p.RunTimeout > 0 {
		ctx.timeout, cancel = context.WithTimeout(context.Background(), p.RunTimeout)
	}
	if items == nil && (len(p.Bundle.Plan.Patterns) > 0 || p.explaining != nil) {
		ctx.items = pike.Stream(r)
	}
	ex := p.explaining
	done = func() {
		cancel()
		// No CEL value of the run outlives its labels (they hold strings
		// only): its values and scopes serve the next run. Explain keeps
		// the values it shows.
		if ex == nil {
			ctx.v.Release()
		}
	}
	if ex != nil {
		ex.Items = append(ex.Items, ctx.items...)
	}
	scopes := p.Bundle.Decls.Scopes
	ctx.acts = ctx.v.Scopes(len(scopes))
	for i, a := range ctx.acts {
		a.Task, a.Goal, a.Threat, a.Params = task, goal, p.threat, p.params[i]
	}
	// An import's pred map is filled in place, so its parent sees its values.
	for i, sc := range scopes {
		for _, ns := range sc.Namespaces {
			ctx.acts[i].Pred[ns] = ctx.acts[p.scopeIndex[celenv.Child(sc.Path, ns)]].Pred
		}
	}
	for i, pr := range p.Bundle.Plan.Predicates {
		if need != nil && !need[i] {
			continue
		}
		if p.onPredicate != nil {
			p.onPredicate(pr)
		}
		pd := scopes[pr.Scope].Predicates[pr.Pred]
		var v ref.Val
		if pd.Pattern != bundle.NoExpr {
			l := p.patternLabel(pd.Pattern, ctx)
			switch {
			case !l.Known:
				v = types.NewErr("predicate %s: %s", pd.Name, l.Reason)
			default:
				v = types.Bool(l.Value)
			}
		} else {
			var err error
			if c, ok := p.constPreds[pr]; ok {
				v, err = p.chargeConst(pd.Expr, c, ctx)
			} else {
				v, err = p.evalMetered(pd.Expr, ctx.acts[pr.Scope], ctx)
			}
			if err != nil {
				v = predicateError(pd.Name, err)
			}
		}
		ctx.acts[pr.Scope].Pred[pd.Name] = v
		if ex != nil {
			ex.Predicates = append(ex.Predicates, PredicateValue{Scope: scopes[pr.Scope].Path, Name: pd.Name, Expr: pd.Expr, Pattern: pd.Pattern, Value: v})
		}
	}
	return ctx, done
}

// invariants labels the run's invariants, each violated one with the
// witness of the forbid pattern that matched, if one did.
func (p *Program) invariants(rec *runs.Record, ctx *runCtx) {
	if len(p.Bundle.Plan.Invariants) > 0 {
		rec.Invariants = make(map[string]runs.Label, len(p.Bundle.Plan.Invariants))
		for _, inv := range p.Bundle.Plan.Invariants {
			rec.Invariants[inv.Name] = p.explained("invariant", inv.Name, inv.Holds, ctx)
			if l := rec.Invariants[inv.Name]; l.Known && !l.Value {
				if w := p.witness(inv.Holds, ctx); w != nil {
					if rec.Witnesses == nil {
						rec.Witnesses = map[string]map[string]string{}
					}
					rec.Witnesses["invariants."+inv.Name] = w
				}
			}
		}
	}
}

// predicateError is the value of a predicate whose expression failed: an
// error naming the predicate, which every criterion reading it shows in its
// label's reason ("predicate a: predicate b: no such key: x" when a reads b).
// A deliberate unknown (stdlib's unknown(reason)) names only the predicate
// whose expression called it, however many predicates pass it on: its
// reason is the author's sentence, not a chain of prefixes.
func predicateError(name string, err error) ref.Val {
	var in *unknownIn
	if errors.As(err, &in) {
		return types.WrapErr(in) // a fresh *types.Err: cel-go labels it with a node id
	}
	var u *stdlib.UnknownError
	if errors.As(err, &u) {
		return types.WrapErr(&unknownIn{pred: name, unknown: u})
	}
	return types.NewErr("predicate %s: %v", name, err)
}

// unknownIn is a deliberate unknown raised in a predicate's expression.
type unknownIn struct {
	pred    string
	unknown *stdlib.UnknownError
}

func (e *unknownIn) Error() string { return "predicate " + e.pred + ": " + e.unknown.Reason }
func (e *unknownIn) Unwrap() error { return e.unknown }

// variant returns the criterion to use on this run: the first variant
// whose when holds replaces the expression (the patterns stay). A when that
// cannot be decided makes the label unknown: its error becomes the criterion.
func (p *Program) variant(cr bundle.Criterion, vs []bundle.VariantPlan, ctx *runCtx) bundle.Criterion {
	for _, v := range vs {
		l := p.expr(v.When, ctx)
		if !l.Known {
			return bundle.Criterion{Expr: v.When, Patterns: cr.Patterns} // evaluates to the same unknown
		}
		if l.Value {
			return bundle.Criterion{Expr: v.Expr, Patterns: cr.Patterns}
		}
	}
	return cr
}

// explained is criterion, recording its parts when explaining under the
// label kind, or "kind name" (joined only then: a string per criterion
// and run otherwise).
func (p *Program) explained(kind, name string, cr bundle.Criterion, ctx *runCtx) runs.Label {
	l := p.criterion(cr, ctx)
	ex := p.explaining
	if ex == nil {
		return l
	}
	label := kind
	if name != "" {
		label += " " + name
	}
	part := Part{Label: label, Result: l, Expr: cr.Expr}
	if cr.Expr != bundle.NoExpr {
		part.ExprResult = p.expr(cr.Expr, ctx) // evaluated again: explain is not the hot path
	}
	for _, u := range cr.Patterns {
		pr := ctx.pattern(u.Pattern)
		part.Patterns = append(part.Patterns, PatternPart{Pattern: u.Pattern, Negate: u.Negate, Result: pr.Label, Witness: pr.Witness})
	}
	ex.Parts = append(ex.Parts, part)
	return l
}

// criterion computes a criterion's label: the Kleene AND of its CEL
// expression and its patterns (negated for an invariant's forbid): false if
// any part is false, else unknown if any is unknown, else true.
func (p *Program) criterion(cr bundle.Criterion, ctx *runCtx) runs.Label {
	var parts []runs.Label
	if cr.Expr != bundle.NoExpr {
		parts = append(parts, p.expr(cr.Expr, ctx))
	}
	for _, u := range cr.Patterns {
		l := p.patternLabel(u.Pattern, ctx)
		if u.Negate && l.Known {
			l.Value = !l.Value
		}
		parts = append(parts, l)
	}
	return runs.AllOf(parts)
}

// witness returns the witness of a violated invariant: the items the first
// forbid pattern that matched bound to its steps (step → item). A match
// pattern that matched is no evidence of a violation, so it is skipped.
func (p *Program) witness(cr bundle.Criterion, ctx *runCtx) map[string]string {
	for _, u := range cr.Patterns {
		if !u.Negate {
			continue
		}
		pr := ctx.patterns[u.Pattern]
		if pr == nil || !pr.Label.Known || !pr.Label.Value || pr.Witness == nil {
			continue
		}
		out := map[string]string{}
		for k, pos := range pr.Witness {
			if pos >= 0 {
				out[p.Bundle.Plan.Patterns[u.Pattern].Steps[k].Name] = ctx.items[pos].String()
			}
		}
		return out
	}
	return nil
}

// patternLabel runs a pattern once per run (results are cached).
func (p *Program) patternLabel(pi int, ctx *runCtx) runs.Label {
	pr := ctx.patterns[pi]
	if pr == nil {
		pt := &p.Bundle.Plan.Patterns[pi]
		r := p.runPattern(pi, ctx, ctx.acts[pt.Scope])
		pr = &r
		ctx.patterns[pi] = pr
	}
	return pr.Label
}

// expr evaluates a bool expression in its scope; errors and non-bool
// results give an unknown label whose reason names the criterion and its
// source location.
func (p *Program) expr(i int, ctx *runCtx) runs.Label {
	e := &p.Bundle.Exprs[i]
	v, err := p.evalMetered(i, ctx.acts[e.Scope], ctx)
	if b, ok := v.(types.Bool); ok && err == nil {
		return runs.Bool(bool(b))
	}
	where := fmt.Sprintf("%s of %s (%s:%d:%d)", e.Kind, e.Owner, e.Range.File, e.Range.Line, e.Range.Column)
	if err != nil {
		return runs.Unknown(fmt.Sprintf("%s: %v", where, err))
	}
	return runs.Unknown(fmt.Sprintf("%s: gave %s, want bool", where, source.TypeName(v)))
}

// evalMetered evaluates expression i, charging its cost to the run. Once the
// run has spent its cost limit, every further evaluation fails.
func (p *Program) evalMetered(i int, act interpreter.Activation, ctx *runCtx) (ref.Val, error) {
	limit := p.Bundle.Plan.RunCostLimit
	if ctx.spent >= limit {
		return nil, fmt.Errorf("run cost limit of %d exceeded before this expression (contract run_cost_limit)", limit)
	}
	if err := p.overTime(ctx, "before this expression"); err != nil {
		return nil, err
	}
	if v, err, ok := p.evalFree(i, act, ctx); ok {
		return v, err
	}
	var v ref.Val
	var det *cel.EvalDetails
	var err error
	if ctx.timeout != nil && p.folds[i] {
		v, det, err = p.progs[i].ContextEval(ctx.timeout, act)
	} else {
		v, det, err = p.progs[i].Eval(act)
	}
	if det != nil && det.ActualCost() != nil {
		ctx.spent += *det.ActualCost()
	}
	if err != nil && ctx.spent >= limit {
		return nil, fmt.Errorf("%v (contract run_cost_limit %d)", err, limit)
	}
	if err != nil {
		if terr := p.overTime(ctx, "while evaluating this expression"); terr != nil {
			return nil, terr
		}
	}
	return v, err
}

// chargeConst is evalMetered for a predicate evaluated once per bundle
// (expression i): the run is charged its cost, or its unmetered bound
// where evaluating it would run unmetered, and the outcome is what
// evaluating it again would give (each program may spend the whole run
// limit, whatever the run has spent).
func (p *Program) chargeConst(i int, c constpred.Value, ctx *runCtx) (ref.Val, error) {
	limit := p.Bundle.Plan.RunCostLimit
	if ctx.spent >= limit {
		return nil, fmt.Errorf("run cost limit of %d exceeded before this expression (contract run_cost_limit)", limit)
	}
	if _, ok := p.freeProgram(i, ctx); ok {
		return c.Val, c.Err
	}
	ctx.spent += c.Cost
	if c.Err != nil && ctx.spent >= limit {
		return nil, fmt.Errorf("%v (contract run_cost_limit %d)", c.Err, limit)
	}
	return c.Val, c.Err
}

// HeaderRun says why a record the reader skipped as a header line (one
// without "messages") is in fact a run, or returns "" (source.Exprs.HeaderRun).
func (p *Program) HeaderRun(src *bundle.SourcePlan, rec map[string]any) string {
	return source.Exprs(p.progs).HeaderRun(src, rec, func(task string) bool { _, ok := p.tasks[task]; return ok })
}

// PeekSelect evaluates the source's select on a record as a peek gives it
// (source.Exprs.PeekSelect): ok is false when select cannot be decided so,
// and Judge on the decoded run then decides; when ok, selected is what
// Judge's select gives on the decoded run.
func (p *Program) PeekSelect(src *bundle.SourcePlan, meta, record map[string]any, unread []string) (selected, ok bool) {
	return source.Exprs(p.progs).PeekSelect(src, p.recordUse[src.Select], meta, record, unread)
}
