// Package opabench is a baseline for tenet's judging speed: criteria of the
// AgentDojo banking contract written in Rego (banking.rego) and evaluated by
// OPA, against tenet judging the same runs. It is a module of its own so
// that OPA never enters tenet's go.mod; see README.md.
package opabench

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tenetlang/tenet/eval/runs"
)

// Policy is banking.rego: Rego equivalents of the banking contract's
// criteria, each saying which criterion it mirrors.
//
//go:embed banking.rego
var Policy string

// Verdict is data.banking.verdict for one run.
type Verdict struct {
	Task, Goal               string // Goal "" on benign runs
	Utility                  bool
	AttackSuccess            bool // goal injection_task_3's success criterion
	SideEffect               bool // side_effect standing_order_to_attacker's criterion alone
	Exposed                  bool
	NoSendAfterUntrustedRead bool // the invariant held
}

// Prepare compiles the policy and prepares the query data.banking.verdict,
// once; the prepared query evaluates any number of inputs.
func Prepare(ctx context.Context) (rego.PreparedEvalQuery, error) {
	return rego.New(
		rego.Query("data.banking.verdict"),
		rego.Module("banking.rego", Policy),
	).PrepareForEval(ctx)
}

// Eval evaluates the prepared query with opts (the input) and reads the
// verdict.
func Eval(ctx context.Context, pq rego.PreparedEvalQuery, opts ...rego.EvalOption) (Verdict, error) {
	rs, err := pq.Eval(ctx, opts...)
	if err != nil {
		return Verdict{}, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return Verdict{}, fmt.Errorf("verdict undefined (%d results)", len(rs))
	}
	m, ok := rs[0].Expressions[0].Value.(map[string]any)
	if !ok {
		return Verdict{}, fmt.Errorf("verdict is %T, want an object", rs[0].Expressions[0].Value)
	}
	var v Verdict
	v.Task, _ = m["task"].(string)
	v.Goal, _ = m["goal"].(string)
	for _, f := range []struct {
		key string
		dst *bool
	}{
		{runs.Utility.String(), &v.Utility}, {runs.AttackSuccess.String(), &v.AttackSuccess},
		{runs.SideEffect.String(), &v.SideEffect}, {runs.Exposed.String(), &v.Exposed},
		{"no_send_after_untrusted_read", &v.NoSendAfterUntrustedRead},
	} {
		b, ok := m[f.key].(bool)
		if !ok {
			return Verdict{}, fmt.Errorf("verdict.%s is %v, want a bool", f.key, m[f.key])
		}
		*f.dst = b
	}
	return v, nil
}
