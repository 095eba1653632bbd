package compiler

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/compiler/patterncode"
	"github.com/tenetlang/tenet/lang"
)

// criterion compiles a block's criterion: its CEL attribute (e may be nil)
// and its trace patterns. In an invariant a forbid pattern must not match
// (negate); in a side effect its match is the harm.
func (c *compiler) criterion(s *scope, e *lang.Expr, tr *lang.Trace, kind, owner string, negateForbid bool) bundle.Criterion {
	cr := bundle.Criterion{Expr: bundle.NoExpr}
	if e != nil {
		cr.Expr = c.checkCriterion(s, e, kind, owner)
	}
	if tr == nil {
		return cr
	}
	if tr.Match != nil {
		if i := c.pattern(s, tr, tr.Match, owner+" (match)"); i != bundle.NoExpr {
			cr.Patterns = append(cr.Patterns, bundle.PatternUse{Pattern: i})
		}
	}
	if tr.Forbid != nil {
		if i := c.pattern(s, tr, tr.Forbid, owner+" (forbid)"); i != bundle.NoExpr {
			cr.Patterns = append(cr.Patterns, bundle.PatternUse{Pattern: i, Negate: negateForbid})
		}
	}
	return cr
}

// pattern compiles one pattern of a block (its steps, their guards, its
// program) into Plan.Patterns and returns its index, or NoExpr on errors.
func (c *compiler) pattern(s *scope, tr *lang.Trace, p *lang.Pattern, owner string) int {
	if p == nil || p.Tree == nil || s.env == nil {
		return bundle.NoExpr // lang reported why
	}
	errs := len(c.diags)
	pp := bundle.PatternPlan{Owner: owner, Text: p.Expr.Text, Range: rangeOf(p.Expr.Range), Scope: s.index}
	index := map[string]int{}
	var bindings []binding
	keyed := map[int]bool{}
	for i, st := range tr.Steps {
		index[st.Name.Value] = i
		b, ok := c.stepBinding(st)
		if !ok {
			continue
		}
		sp := bundle.StepPlan{Name: st.Name.Value, When: bundle.NoExpr}
		if st.Call != nil {
			sp.Call = st.Call.Value
		} else if st.Role != nil {
			sp.Role = st.Role.Value
		}
		if st.When != nil {
			sp.When, sp.Refs = c.guard(s, st, b, bindings, owner)
			for _, r := range sp.Refs {
				keyed[r] = true
			}
		}
		pp.Steps = append(pp.Steps, sp)
		bindings = append(bindings, b)
	}
	if len(c.diags) > errs || len(pp.Steps) != len(tr.Steps) {
		return bundle.NoExpr
	}
	for k := range keyed {
		pp.Keyed = append(pp.Keyed, k)
	}
	sort.Ints(pp.Keyed)
	code := patterncode.Emit(p.Tree, index)
	if len(code) > patterncode.MaxProgram {
		c.errorf("pattern-too-large", p.Expr.Range, "Pattern too large",
			fmt.Sprintf("The pattern of %s compiles to %d instructions, more than %d: counted repetitions ({n,m}) are expanded into copies; use * or + where the exact count does not matter.", owner, len(code), patterncode.MaxProgram))
		return bundle.NoExpr
	}
	pp.Program = code
	c.b.Plan.Patterns = append(c.b.Plan.Patterns, pp)
	return len(c.b.Plan.Patterns) - 1
}

// binding is what a step's item is in CEL: the variables its guard sees
// for it (call and args, or event) and the type later steps see it as.
type binding struct {
	name     string
	item     *types.Type // the bound item's type (earlier steps are this)
	own      map[string]*types.Type
	ownOrder []string
}

// stepBinding types a step's item from its selector.
func (c *compiler) stepBinding(st *lang.Step) (binding, bool) {
	b := binding{name: st.Name.Value, own: map[string]*types.Type{}}
	switch {
	case st.Call != nil:
		call := types.NewObjectType(celenv.CallType)
		args := types.NewMapType(types.StringType, types.DynType)
		if st.Call.Value != "*" {
			c.used.tools[st.Call.Value] = true
			t, ok := c.tools[st.Call.Value]
			if !ok {
				c.errorf("unknown-tool", st.Call.Range, "Unknown tool",
					fmt.Sprintf("Step %q selects calls of %q, which is not a declared tool.%s", st.Name.Value, st.Call.Value, didYouMean(st.Call.Value, sortedKeys(c.tools))))
				return b, false
			}
			if t.Params != nil {
				call = types.NewObjectType(celenv.ToolCallType(st.Call.Value))
				args = types.NewObjectType(celenv.ToolArgsType(st.Call.Value))
			}
		}
		b.item = call
		b.own["call"], b.own["args"] = call, args
		b.ownOrder = []string{"args", "call"}
	default:
		b.item = types.NewObjectType(celenv.EventType)
		b.own["event"] = b.item
		b.ownOrder = []string{"event"}
	}
	return b, true
}

// guard checks a step's when expression in the scope's environment
// extended with the step's own variables and the earlier steps; it returns
// the expression's index and the earlier steps it refers to.
func (c *compiler) guard(s *scope, st *lang.Step, b binding, earlier []binding, owner string) (int, []int) {
	var vars []bundle.Var
	var opts []cel.EnvOption
	add := func(name string, t *types.Type) {
		pt, err := cel.TypeToExprType(t)
		var data []byte
		if err == nil {
			data, err = proto.MarshalOptions{Deterministic: true}.Marshal(pt)
		}
		if err != nil {
			c.errorf("internal-error", st.Range, "Internal error", err.Error())
			return
		}
		vars = append(vars, bundle.Var{Name: name, Type: data})
		opts = append(opts, cel.Variable(name, t))
	}
	for _, n := range b.ownOrder {
		add(n, b.own[n])
	}
	for _, e := range earlier {
		add(e.name, e.item)
	}
	env, err := s.env.Extend(opts...)
	if err != nil {
		c.errorf("internal-error", st.Range, "Internal error", err.Error())
		return bundle.NoExpr, nil
	}
	what := fmt.Sprintf("%s step %s", owner, st.Name.Value)
	parsed, iss := env.Parse(st.When.Text)
	if iss.Err() != nil {
		c.celErrors(env, st.When, iss, nil, "when", what, nil)
		return bundle.NoExpr, nil
	}
	i, _ := c.checkParsed(celenvStep(env, s), st.When, parsed, "when", what, nil, types.BoolType)
	if i == bundle.NoExpr {
		return i, nil
	}
	c.b.Exprs[i].Vars = vars
	var refs []int
	names := map[string]int{}
	for j, e := range earlier {
		names[e.name] = j
	}
	seen := map[int]bool{}
	ast.PreOrderVisit(parsed.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() == ast.IdentKind {
			if j, ok := names[x.AsIdent()]; ok && !seen[j] {
				seen[j] = true
				refs = append(refs, j)
			}
		}
	}))
	sort.Ints(refs)
	return i, refs
}

// celenvStep is where a step guard is checked.
func celenvStep(e *cel.Env, s *scope) env { return env{e, celenv.KindStep, s} }
