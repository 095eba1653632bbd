package eval

import (
	"cel.dev/cel-go/cel"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/consistency"
	"github.com/tenetlang/tenet/eval/lazyprog"
)

// PlanConsistent is Plan for a bundle known to be consistent: compiled
// from its sources by this process, or one whose every load check this
// binary has made before (the compile cache, compiler/cache). It makes
// the checks that rebuild what judging needs (Validate, the environments,
// decoding every checked expression) but not the text checks — each
// expression's and pattern's compiled form against its text — which can
// only refuse a bundle whose compiled forms were not made from its texts;
// and it plans each expression on its first evaluation rather than all at
// load, so that a command pays only for the expressions its runs reach
// (cel-go builds a cost tracker, its overload table compiled again, for
// every program it plans). Judging gives the same labels either way.
func PlanConsistent(b *bundle.Bundle, id string) (*Program, error) {
	return planWith(b, id, true, true)
}

// plan is Plan, or with metered false the same without cost tracking.
func plan(b *bundle.Bundle, id string, metered bool) (*Program, error) {
	return planWith(b, id, metered, false)
}

// quickCheck is consistency.QuickCheck, skipped for a consistent bundle.
func quickCheck(consistent bool, env *cel.Env, e *bundle.Expr, ce *exprpb.CheckedExpr) error {
	if consistent {
		return nil
	}
	return consistency.QuickCheck(env, e, ce)
}

// programOf plans a checked expression now (program), or for a consistent
// bundle returns a program planned on its first evaluation.
func programOf(consistent bool, env *cel.Env, checked *cel.Ast, opts []cel.ProgramOption) (cel.Program, error) {
	if !consistent {
		return program(env, checked, opts)
	}
	return lazyprog.New(func() (cel.Program, error) { return program(env, checked, opts) }), nil
}
