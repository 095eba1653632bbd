package compiler

import (
	"fmt"
	"sort"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
)

// predRef is a reference pred.<Name> found in an expression.
type predRef struct {
	Name       string
	Start, End int // byte span in the expression text
}

// predRefs lists the pred.<name> selections in a parsed expression.
func predRefs(e *lang.Expr, parsed *cel.Ast) []predRef {
	var refs []predRef
	info := parsed.NativeRep().SourceInfo()
	ast.PreOrderVisit(parsed.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() != ast.SelectKind {
			return
		}
		sel := x.AsSelect()
		op := sel.Operand()
		if op.Kind() != ast.IdentKind || op.AsIdent() != "pred" {
			return
		}
		s, t := 0, len(e.Text)
		if r, ok := info.GetOffsetRange(x.ID()); ok {
			s, t = runeToByte(e.Text, int(r.Start)), runeToByte(e.Text, int(r.Stop))
		}
		refs = append(refs, predRef{Name: sel.FieldName(), Start: s, End: t})
	}))
	return refs
}

// predicates checks every scope's predicates, imports first, each scope
// in dependency order (a DAG: cycles are errors), declaring each checked
// predicate's type in its scope's pred type. Plan.Predicates gets the
// evaluation order.
func (c *compiler) predicates() {
	for _, s := range c.scopes {
		c.b.Decls.Scopes[s.index].Predicates = make([]bundle.Pred, 0, len(s.preds))
		for _, n := range sortedKeys(s.preds) {
			c.b.Decls.Scopes[s.index].Predicates = append(c.b.Decls.Scopes[s.index].Predicates, bundle.Pred{Name: n, Expr: bundle.NoExpr, Pattern: bundle.NoExpr})
		}
	}
	for _, s := range c.postOrder() {
		c.scopePredicates(s)
	}
}

func (c *compiler) scopePredicates(s *scope) {
	names := sortedKeys(s.preds)
	parsed := map[string]*parsedCriterion{}
	deps := map[string][]string{}
	for _, n := range names {
		if p := s.preds[n]; p.Expr == nil && p.Trace != nil {
			deps[n] = c.guardPredRefs(s, p.Trace)
			continue
		}
		pc := c.parseCriterion(s, s.preds[n].Expr, "predicate", s.prefix()+n)
		if pc == nil {
			continue
		}
		parsed[n] = pc
		deps[n] = pc.deps
	}
	order, cyclic := topoSort(names, deps)
	for _, cyc := range cyclic {
		p := s.preds[cyc[0]]
		c.errorf("predicate-cycle", p.Name.Range, "Predicate cycle",
			fmt.Sprintf("Predicates refer to each other in a cycle: %s. Predicates must form a DAG.", strings.Join(append(cyc, cyc[0]), " → ")))
	}
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	decls := c.b.Decls.Scopes[s.index].Predicates
	// Broken predicates stay declared as dyn so that their users are still
	// checked without a cascade of follow-on errors.
	for _, n := range names {
		c.universe.DeclarePred(s.path, n, types.DynType)
	}
	for _, n := range order {
		p := s.preds[n]
		if p.Expr == nil && p.Trace != nil {
			// A pattern predicate: true when its match pattern matches.
			if i := c.pattern(s, p.Trace, p.Trace.Match, "predicate "+s.prefix()+n); i != bundle.NoExpr {
				decls[idx[n]].Pattern = i
				if pt, err := cel.TypeToExprType(types.BoolType); err == nil {
					decls[idx[n]].Type, _ = proto.MarshalOptions{Deterministic: true}.Marshal(pt)
				}
				c.universe.DeclarePred(s.path, n, types.BoolType)
			}
			continue
		}
		pc, ok := parsed[n]
		if !ok {
			continue
		}
		i, t := c.checkParsed(env{s.env, celenv.KindCriterion, s}, p.Expr, pc.ast, "predicate", s.prefix()+n, pc.drop)
		if i == bundle.NoExpr {
			continue
		}
		pt, err := cel.TypeToExprType(t)
		if err == nil {
			decls[idx[n]].Type, err = proto.MarshalOptions{Deterministic: true}.Marshal(pt)
		}
		if err != nil {
			c.errorf("internal-error", p.Expr.Range, "Internal error", fmt.Sprintf("Serializing the type of predicate %q: %v.", n, err))
			continue
		}
		decls[idx[n]].Expr = i
		c.universe.DeclarePred(s.path, n, t)
	}
	for _, n := range order {
		c.b.Plan.Predicates = append(c.b.Plan.Predicates, bundle.PredRef{Scope: s.index, Pred: idx[n]})
	}
}

// guardPredRefs lists the predicates a pattern predicate's step guards
// use, for the dependency order.
func (c *compiler) guardPredRefs(s *scope, tr *lang.Trace) []string {
	var deps []string
	for _, st := range tr.Steps {
		if st.When == nil {
			continue
		}
		if a, iss := s.env.Parse(st.When.Text); iss.Err() == nil {
			for _, r := range predRefs(st.When, a) {
				if _, ok := s.preds[r.Name]; ok {
					deps = append(deps, r.Name)
				}
			}
		}
	}
	return deps
}

// parsedCriterion is a parsed criterion with its predicate references.
type parsedCriterion struct {
	ast  *cel.Ast
	deps []string              // declared predicates it refers to
	drop func(*cel.Error) bool // filters CEL errors already reported as unknown predicates
}

// parseCriterion parses e in scope s and reports references to undeclared
// predicates (with a suggestion). It returns nil after reporting parse errors.
func (c *compiler) parseCriterion(s *scope, e *lang.Expr, kind, owner string) *parsedCriterion {
	if e == nil || s.env == nil {
		return nil // missing or malformed: lang has reported it
	}
	if c.skipExpr(e) {
		return nil
	}
	a, iss := s.env.Parse(e.Text)
	if iss.Err() != nil {
		c.celErrors(s.env, e, iss, nil, kind, owner, nil)
		return nil
	}
	pc := &parsedCriterion{ast: a}
	unknown := map[string]bool{}
	for _, r := range predRefs(e, a) {
		if _, ok := s.preds[r.Name]; ok {
			pc.deps = append(pc.deps, r.Name)
			continue
		}
		names := s.predNames(c)
		if contains(names[len(s.preds):], r.Name) {
			continue // pred.<ns>: an import's predicates, checked by the type checker
		}
		unknown[r.Name] = true
		c.errorf("unknown-predicate", e.RangeOf(r.Start, r.End), "Unknown predicate",
			fmt.Sprintf("In the %s of %s: there is no predicate %q.%s", kindWords(kind), owner, r.Name, didYouMean(r.Name, names)))
	}
	pc.drop = func(ce *cel.Error) bool {
		for n := range unknown {
			if ce.Message == "undefined field '"+n+"'" {
				return true
			}
		}
		return false
	}
	return pc
}

// predNames are the names pred.<name> may take in scope s: its predicates,
// sorted, then its import namespaces. They are listed once per scope, when
// first needed (for a reference to no predicate): listing and sorting them
// for every criterion made checking quadratic in the number of predicates
// (4,000 predicates took 9 s).
func (s *scope) predNames(c *compiler) []string {
	if s.names == nil {
		s.names = append(sortedKeys(s.preds), c.namespaces(s)...)
	}
	return s.names
}

// namespaces are the import namespaces of a scope.
func (c *compiler) namespaces(s *scope) []string {
	var out []string
	for _, ch := range s.children {
		out = append(out, ch.path[len(s.prefix()):])
	}
	return out
}

// checkCriterion parses and checks a bool criterion in scope s.
func (c *compiler) checkCriterion(s *scope, e *lang.Expr, kind, owner string) int {
	pc := c.parseCriterion(s, e, kind, owner)
	if pc == nil {
		return bundle.NoExpr
	}
	i, _ := c.checkParsed(env{s.env, celenv.KindCriterion, s}, e, pc.ast, kind, owner, pc.drop, types.BoolType)
	return i
}

// topoSort orders names so that each comes after its dependencies, visiting
// in sorted order for determinism; it also returns every cycle found (each
// once, as the list of its members in reference order).
func topoSort(names []string, deps map[string][]string) (order []string, cycles [][]string) {
	const (
		unvisited = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(n string)
	visit = func(n string) {
		switch state[n] {
		case done:
			return
		case active:
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i] == n {
					cycles = append(cycles, append([]string(nil), stack[i:]...))
					break
				}
			}
			return
		}
		state[n] = active
		stack = append(stack, n)
		ds := append([]string(nil), deps[n]...)
		sort.Strings(ds)
		for _, d := range ds {
			visit(d)
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		order = append(order, n)
	}
	for _, n := range names {
		visit(n)
	}
	return order, cycles
}
