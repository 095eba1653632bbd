// Package constpred evaluates, once per bundle, the predicates whose value
// does not depend on the run: those that read only params, threat_model
// and other such predicates (an initial state derived from params, say).
// CEL is free of side effects, so every run would compute the same value
// at the same cost; eval charges each run that cost and uses the value.
package constpred

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/eval/demand"
)

// Value is a predicate evaluated once per bundle: its value (or error)
// and the cost its evaluation took, which every run is charged as if it
// had evaluated it.
type Value struct {
	Val  ref.Val
	Err  error
	Cost uint64
}

// RunVars are the criterion variables whose value depends on the run.
var RunVars = map[string]bool{
	"events": true, "calls": true, "results": true, "output": true, "pre": true, "post": true,
	"meta": true, "task": true, "goal": true, "tools": true,
}

// Inputs are what Plan needs of a planned bundle: its checked expressions
// and programs (index-aligned with Bundle.Exprs), each scope's params
// value, the scope index (path → index in Decls.Scopes) and the
// threat_model value; Stored is the value a predicate whose evaluation
// failed stores for the predicates reading it (eval's predicateError).
type Inputs struct {
	Bundle     *bundle.Bundle
	ScopeIndex map[string]int
	Asts       []*cel.Ast
	Progs      []cel.Program
	Params     []map[string]any
	Threat     map[string]any
	Stored     func(name string, err error) ref.Val
}

// Plan evaluates the constant predicates, in plan order. A predicate that
// names any run variable, or pred other than as pred.[ns.]name of a
// constant predicate, is not constant (a comprehension variable that
// shadows a run variable's name counts as the variable: conservative).
func Plan(in Inputs) map[bundle.PredRef]Value {
	b := in.Bundle
	out := map[bundle.PredRef]Value{}
	// Per scope: the values of its constant predicates so far, with its
	// imports' maps under their namespaces, as eval's label builds them.
	preds := make([]map[string]any, len(b.Decls.Scopes))
	for i := range preds {
		preds[i] = map[string]any{}
	}
	for i, sc := range b.Decls.Scopes {
		for _, ns := range sc.Namespaces {
			preds[i][ns] = preds[in.ScopeIndex[celenv.Child(sc.Path, ns)]]
		}
	}
	isConst := func(scope int, name string) bool {
		for j, pd := range b.Decls.Scopes[scope].Predicates {
			if pd.Name == name {
				_, ok := out[bundle.PredRef{Scope: scope, Pred: j}]
				return ok
			}
		}
		return false
	}
	for _, pr := range b.Plan.Predicates {
		pd := b.Decls.Scopes[pr.Scope].Predicates[pr.Pred]
		if pd.Expr == bundle.NoExpr || in.Asts[pd.Expr] == nil || !readsNoRun(in, in.Asts[pd.Expr], pr.Scope, isConst) {
			continue
		}
		act := &activation{params: in.Params[pr.Scope], pred: preds[pr.Scope], threat: in.Threat}
		v, det, err := in.Progs[pd.Expr].Eval(act)
		c := Value{Val: v, Err: err}
		if det != nil && det.ActualCost() != nil {
			c.Cost = *det.ActualCost()
		}
		out[pr] = c
		if err != nil {
			// As label stores it, so that a predicate reading this one
			// fails with the same reason on either path.
			v = in.Stored(pd.Name, err)
		}
		preds[pr.Scope][pd.Name] = v
	}
	return out
}

// readsNoRun says whether a predicate's expression in scope reads no run
// variable and only constant predicates.
func readsNoRun(in Inputs, a *cel.Ast, scope int, isConst func(scope int, name string) bool) bool {
	ok := true
	demand.Reads(in.Bundle, in.ScopeIndex, a, scope, func(s int, name string) { ok = ok && isConst(s, name) }, func() { ok = false },
		func(name string) { ok = ok && !RunVars[name] })
	return ok
}

// activation resolves the variables a constant predicate may read.
type activation struct {
	params, pred, threat map[string]any
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "params":
		return a.params, true
	case "pred":
		return a.pred, true
	case "threat_model":
		return a.threat, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }
