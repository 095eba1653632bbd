package consistency

import (
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
)

// Envs are the CEL environments a bundle's expressions were checked in,
// rebuilt from its declarations alone: one per scope, the source
// environment and the gate environment. The checks here compare texts
// against them, and eval plans programs in them, so that what is checked
// is what runs.
type Envs struct {
	scopes []*cel.Env // index-aligned with Decls.Scopes
	source *cel.Env
	// gate is built on first use: most bundles have no gate, and an
	// environment costs about as much to build as a dozen expressions
	// to decode.
	gate func() (*cel.Env, error)
}

// NewEnvs rebuilds the scopes' types from the bundle (params typed from
// their values, predicates from their recorded types, imports linked to
// their parents) and their environments. An error means the declarations
// do not rebuild: the bundle is inconsistent.
func NewEnvs(b *bundle.Bundle) (*Envs, error) {
	u := celenv.NewUniverse(b.Decls.Tools)
	byPath := map[string]int{}
	for i, sc := range b.Decls.Scopes {
		var params []celenv.Param
		for _, pr := range sc.Params {
			params = append(params, celenv.Param{Name: pr.Name, Value: pr.Value})
		}
		u.AddScope(sc.Path, params)
		byPath[sc.Path] = i
	}
	for _, sc := range b.Decls.Scopes {
		for _, ns := range sc.Namespaces {
			if _, ok := byPath[celenv.Child(sc.Path, ns)]; !ok {
				return nil, fmt.Errorf("bundle is inconsistent: scope %q imports %q, which it does not contain", sc.Path, ns)
			}
			u.AddNamespace(sc.Path, ns)
		}
		for _, pd := range sc.Predicates {
			var pt exprpb.Type
			if err := proto.Unmarshal(pd.Type, &pt); err != nil {
				return nil, fmt.Errorf("predicate %s: decoding its type: %w", pd.Name, err)
			}
			t, err := types.ExprTypeToType(&pt)
			if err != nil {
				return nil, fmt.Errorf("predicate %s: %w", pd.Name, err)
			}
			u.DeclarePred(sc.Path, pd.Name, t)
		}
	}
	envs := &Envs{scopes: make([]*cel.Env, len(b.Decls.Scopes))}
	var err error
	for i, sc := range b.Decls.Scopes {
		if envs.scopes[i], err = u.Env(sc.Path); err != nil {
			return nil, err
		}
	}
	if envs.source, err = celenv.NewSource(); err != nil {
		return nil, err
	}
	envs.gate = sync.OnceValues(celenv.NewGate)
	return envs, nil
}

// Scope returns scope i's environment (index in Decls.Scopes).
func (e *Envs) Scope(i int) *cel.Env { return e.scopes[i] }

// For returns the environment expression i is checked and planned in.
func (e *Envs) For(i int, x bundle.Expr) (*cel.Env, error) {
	switch x.Env {
	case celenv.KindCriterion:
		return e.scopes[x.Scope], nil
	case celenv.KindSource:
		return e.source, nil
	case celenv.KindGate:
		return e.gate()
	case celenv.KindStep:
		env, err := stepEnv(e.scopes[x.Scope], x.Vars)
		if err != nil {
			return nil, fmt.Errorf("expression %d (%s of %s): %w", i, x.Kind, x.Owner, err)
		}
		return env, nil
	}
	return nil, fmt.Errorf("expression %d: unknown environment %q", i, x.Env)
}

// stepEnv extends a scope's environment with a step guard's variables.
func stepEnv(base *cel.Env, vars []bundle.Var) (*cel.Env, error) {
	opts := make([]cel.EnvOption, 0, len(vars))
	for _, v := range vars {
		var pt exprpb.Type
		if err := proto.Unmarshal(v.Type, &pt); err != nil {
			return nil, fmt.Errorf("variable %s: decoding its type: %w", v.Name, err)
		}
		t, err := types.ExprTypeToType(&pt)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", v.Name, err)
		}
		opts = append(opts, cel.Variable(v.Name, t))
	}
	return base.Extend(opts...)
}
