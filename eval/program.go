// Package eval judges one run with a compiled bundle: it verifies and
// plans the bundle once (Load, Plan: a Program), maps a run to its key
// with the contract's source block, and computes the run's labels, its
// authorization audit and, for tenet explain, how each label came about
// (docs/language.md, docs/runs-format.md). Any evaluation error makes the
// affected label unknown with its reason; it is never folded into false.
//
// The parts it builds on, each a package of its own below it: eval/view
// (a run as CEL values), eval/pike (the pattern VM; eval is its Host),
// eval/audit (the audit and argument conformance), eval/consistency
// (a bundle's texts against its compiled forms, and the CEL environments
// Plan rebuilds) and eval/source (a source block's expressions on one
// record, taken as a key's parts and given labels).
package eval

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/eval/celread"
	"github.com/tenetlang/tenet/eval/consistency"
	"github.com/tenetlang/tenet/eval/constpred"
	"github.com/tenetlang/tenet/eval/demand"
	"github.com/tenetlang/tenet/eval/metering"
	"github.com/tenetlang/tenet/eval/params"
	"github.com/tenetlang/tenet/eval/view"
	"github.com/tenetlang/tenet/stdlib"
	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// Program is a bundle planned for evaluation: every expression is turned
// into a CEL program once and reused for every run. A Program is safe for
// concurrent use by Judge and EvalFiles (Explain is not).
type Program struct {
	Bundle *bundle.Bundle
	ID     string // the bundle id, "sha256:<hex>"
	// Dir is the contract directory compiled, as named ("" for a bundle
	// file): what the bundle's ranges are relative to (report.Source).
	Dir string
	// MaxPatternThreads bounds the distinct pattern threads alive at one
	// item of a run (0 or less: MaxThreads); past it the pattern's result
	// is unknown, with a reason naming the bound. Set it before the
	// Program is first used, never while it judges runs.
	MaxPatternThreads int
	// RunTimeout, when > 0, bounds the wall-clock time of judging one run:
	// past it, the labels not yet computed are unknown with a reason
	// naming the bound (see deadline.go). It is a backstop for work the
	// deterministic cost model misses; only pathological input reaches it.
	// Set it before the Program is first used, never while it judges runs.
	RunTimeout time.Duration

	progs  []cel.Program                  // index-aligned with Bundle.Exprs
	free   *metering.Free                 // the expressions that may run unmetered (unmetered.go)
	onEval func(expr int, unmetered bool) // tests: how each evaluation ran
	// folds says which expressions hold a comprehension (index-aligned
	// with progs): only those are evaluated under the run's deadline, the
	// only place cel-go checks it (see deadline.go).
	folds []bool
	// adapter converts Go values to CEL values as the criterion
	// environments do.
	adapter types.Adapter
	// params holds each scope's params value (index-aligned with
	// Decls.Scopes); an import's is also reachable from its parent's.
	params     []map[string]any
	scopeIndex map[string]int // scope path → index in Decls.Scopes
	tools      map[string]*bundle.Tool
	view       *view.Decls    // what the CEL view of each run needs of the bundle
	threat     map[string]any // the threat_model variable
	grants     map[string]*bundle.Grant
	// gateFields lists, per gate expression, the metrics fields it reads.
	gateFields map[int][]string
	// recordUse says, per source expression, what it reads of record
	// (PeekSelect).
	recordUse map[int]celread.Use
	// explaining, when set (by Explain, which is not concurrent), records
	// how the labels of the run being judged come about.
	explaining *Explanation
	// constPreds holds, by PredRef, the predicates whose value does not
	// depend on the run (see planConstants).
	constPreds  map[bundle.PredRef]constpred.Value
	demand      *demand.Demand            // which predicates each run's verdicts read
	onPredicate func(bundle.PredRef)      // tests: called per predicate a run evaluates
	taskVals    map[string]map[string]any // task id → the `task` value
	goalVals    map[string]map[string]any // goal id → the `goal` value
	tasks       map[string]*bundle.TaskPlan
	goals       map[string]*bundle.GoalPlan
	cases       map[bundle.Case]bool
	asts        []*cel.Ast // the checked expressions, for WithProfile's planConstants
	profile     string     // the profile judged under (WithProfile); "" for the params as declared
	// goalTasks holds, per goal also run as a user task, that goal as a
	// task: its success criterion and variants give the run's utility.
	goalTasks map[string]*bundle.TaskPlan
}

// Load verifies bundle bytes (magic, format version, sha256) and plans them.
func Load(data []byte) (*Program, error) {
	b, id, err := bundle.Decode(data)
	if err != nil {
		return nil, err
	}
	return Plan(b, id)
}

// Plan rebuilds the CEL environments from the bundle's declarations and
// creates a program for each checked expression.
// It also checks that every expression's and pattern's compiled form is
// its text's (eval/consistency: QuickCheck, CheckPattern; CheckTexts
// there does the full check).
func Plan(b *bundle.Bundle, id string) (*Program, error) { return plan(b, id, true) }

// planWith is Plan; metered false leaves out cost tracking, for the
// benchmark that measures what tracking costs (a bundle is always planned
// metered); consistent is PlanConsistent's.
func planWith(b *bundle.Bundle, id string, metered, consistent bool) (*Program, error) {
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("bundle is inconsistent: %w", err)
	}
	if b.Plan.RunCostLimit == 0 {
		return nil, fmt.Errorf("bundle is inconsistent: its run cost limit is 0")
	}
	p := &Program{
		Bundle: b, ID: id,
		tools: map[string]*bundle.Tool{},
		tasks: map[string]*bundle.TaskPlan{},
		goals: map[string]*bundle.GoalPlan{},
		cases: map[bundle.Case]bool{},
	}
	envs, err := consistency.NewEnvs(b)
	if err != nil {
		return nil, err
	}
	p.params, p.scopeIndex = params.Scopes(b)
	p.adapter = types.DefaultTypeAdapter
	if len(b.Decls.Scopes) > 0 {
		p.adapter = envs.Scope(0).CELTypeAdapter()
	}
	params.Convert(b, p.params, nil, p.adapter)
	p.gateFields = map[int][]string{}
	p.recordUse = map[int]celread.Use{}
	p.progs = make([]cel.Program, len(b.Exprs))
	p.folds = make([]bool, len(b.Exprs))
	asts := make([]*cel.Ast, len(b.Exprs))
	envList := make([]*cel.Env, len(b.Exprs)) // for planFree
	var errs []error
	for i, e := range b.Exprs {
		env, err := envs.For(i, e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var ce exprpb.CheckedExpr
		if err := proto.Unmarshal(e.Checked, &ce); err != nil {
			errs = append(errs, fmt.Errorf("expression %d (%s of %s): decoding: %w", i, e.Kind, e.Owner, err))
			continue
		}
		// Each program may spend at most the run's whole budget; label
		// accounts for what the run has spent so far (evalMetered).
		checked := cel.CheckedExprToAst(&ce)
		asts[i] = checked
		p.folds[i] = hasComprehension(checked)
		if e.Env == celenv.KindGate {
			p.gateFields[i] = celread.Fields(checked, "metrics")
		}
		if e.Env == celenv.KindSource {
			p.recordUse[i] = celread.UseOf(checked, "record")
		}
		// Comprehensions check the run's deadline (RunTimeout) every
		// interruptEvery iterations when one is set; without one the check
		// is a nil test.
		opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(interruptEvery)}
		if metered {
			// CallCosts charges the calls cel-go dispatches at runtime
			// (size of a dyn string, x in a dyn container), which its
			// tracker would charge 1 whatever they read.
			opts = append(opts, cel.CostLimit(b.Plan.RunCostLimit), cel.CostTracking(stdlib.CallCosts()))
			// RegexGuards: a match whose charge alone exceeds the limit
			// fails before it runs (the tracker charges after a call).
			opts = append(opts, regexcost.Guards(b.Plan.RunCostLimit)...)
		}
		if err := quickCheck(consistent, env, &b.Exprs[i], &ce); err != nil {
			errs = append(errs, fmt.Errorf("expression %d (%s of %s, %s): %w", i, e.Kind, e.Owner, rangeString(e.Range), err))
			continue
		}
		prg, err := programOf(consistent, env, checked, opts)
		if err != nil {
			errs = append(errs, fmt.Errorf("expression %d (%s of %s): planning: %w", i, e.Kind, e.Owner, err))
			continue
		}
		p.progs[i] = prg
		envList[i] = env
	}
	for i := 0; i < len(b.Plan.Patterns) && !consistent; i++ {
		pt := &b.Plan.Patterns[i]
		if err := consistency.CheckPattern(b, pt); err != nil {
			errs = append(errs, fmt.Errorf("pattern %d (%s, %s): %w", i, pt.Owner, rangeString(pt.Range), err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := p.planFree(envList, asts); err != nil {
		return nil, err
	}
	tm := b.Manifest.ThreatModel
	p.threat = map[string]any{
		"injection_vectors": params.Value(p.adapter, stringsAny(tm.InjectionVectors)),
		"adversary_sees":    params.Value(p.adapter, stringsAny(tm.AdversarySees)),
		"attempt_budget":    types.Int(tm.AttemptBudget),
	}
	p.grants = map[string]*bundle.Grant{}
	for i := range b.Decls.Grants {
		p.grants[b.Decls.Grants[i].Name] = &b.Decls.Grants[i]
	}
	for i, t := range b.Decls.Tools {
		p.tools[t.Name] = &b.Decls.Tools[i]
	}
	p.view = view.NewDecls(p.adapter, b.Decls.Tools)
	// task and goal are the same values on every run of a task or goal.
	p.taskVals, p.goalVals = map[string]map[string]any{}, map[string]map[string]any{}
	for i := range b.Plan.Tasks {
		t := &b.Plan.Tasks[i]
		p.tasks[t.ID] = t
		p.taskVals[t.ID] = map[string]any{"id": types.String(t.ID), "prompt": types.String(t.Prompt)}
	}
	for _, g := range b.Plan.Goals {
		p.goalVals[g.ID] = map[string]any{"id": types.String(g.ID), "summary": types.String(g.Summary)}
	}
	p.asts = asts
	p.planConstants(asts)
	for i := range b.Plan.Goals {
		p.goals[b.Plan.Goals[i].ID] = &b.Plan.Goals[i]
	}
	for _, c := range b.Plan.Cases {
		p.cases[c] = true
	}
	p.goalTasks = map[string]*bundle.TaskPlan{}
	for _, id := range b.Plan.GoalTasks {
		g := p.goals[id]
		p.goalTasks[id] = &bundle.TaskPlan{ID: id, Prompt: g.Summary, Utility: g.Success, Variants: g.Variants}
		p.taskVals[id] = map[string]any{"id": types.String(id), "prompt": types.String(g.Summary)}
	}
	p.demand = demand.Plan(b, p.scopeIndex, asts, p.tasks, p.goalTasks, p.goals)
	return p, nil
}

// Source returns the named source plan; with name "" it returns the only
// source, or an error when there are none or several.
func (p *Program) Source(name string) (*bundle.SourcePlan, error) {
	srcs := p.Bundle.Plan.Sources
	if name == "" {
		switch len(srcs) {
		case 0:
			return nil, fmt.Errorf("contract %s declares no source block: add one to say how transcript records map to runs", p.Bundle.Manifest.Contract)
		case 1:
			return &srcs[0], nil
		}
		names := make([]string, len(srcs))
		for i, s := range srcs {
			names[i] = s.Name
		}
		return nil, fmt.Errorf("contract %s declares several sources %q: choose one with --source", p.Bundle.Manifest.Contract, names)
	}
	names := make([]string, len(srcs))
	for i := range srcs {
		if srcs[i].Name == name {
			return &srcs[i], nil
		}
		names[i] = srcs[i].Name
	}
	return nil, fmt.Errorf("contract %s has no source %q (its sources: %q)", p.Bundle.Manifest.Contract, name, names)
}

// WithProfile returns a Program that judges as p does under the params of
// the named profile block (docs/language.md, "profile"): the compiled
// expressions are shared, the params and the predicates that read only
// params (planConstants) are the profile's, and every run's condition is
// the source's followed by "+" and the profile's name, so that its runs
// are a condition of their own next to the base ones. p is not changed.
func (p *Program) WithProfile(name string) (*Program, error) {
	i := slices.IndexFunc(p.Bundle.Decls.Profiles, func(pr bundle.Profile) bool { return pr.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("contract %s declares no profile %q (its profiles: %s)", p.Bundle.Manifest.Contract, name, profileList(p.Bundle))
	}
	override := map[string]any{}
	for _, pr := range p.Bundle.Decls.Profiles[i].Params {
		override[pr.Name] = pr.Value
	}
	q := *p
	q.profile, q.explaining = name, nil
	q.params, q.scopeIndex = params.Scopes(q.Bundle)
	params.Convert(q.Bundle, q.params, override, q.adapter)
	q.planConstants(q.asts)
	return &q, nil
}

// Profile is the name of the profile the Program judges under, "" for the
// params as declared.
func (p *Program) Profile() string { return p.profile }

func profileList(b *bundle.Bundle) string {
	if len(b.Decls.Profiles) == 0 {
		return "none"
	}
	return fmt.Sprintf("%q", b.ProfileNames())
}

// rangeString renders an expression's source location, file:line:col.
func rangeString(r bundle.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Column)
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// planConstants evaluates, once, the predicates whose value does not
// depend on the run (eval/constpred).
func (p *Program) planConstants(asts []*cel.Ast) {
	p.constPreds = constpred.Plan(constpred.Inputs{Bundle: p.Bundle, ScopeIndex: p.scopeIndex, Asts: asts, Progs: p.progs, Params: p.params, Threat: p.threat, Stored: predicateError})
}

// program plans one checked expression. cel-go's planner trusts that a
// checked AST is well formed and can panic on one that is not (a call with
// too few arguments); a bundle's sha256 proves integrity, not good faith,
// so such an expression is refused as an error instead.
func program(env *cel.Env, checked *cel.Ast, opts []cel.ProgramOption) (prg cel.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prg, err = nil, fmt.Errorf("malformed checked expression: %v", r)
		}
	}()
	return env.Program(checked, opts...)
}
