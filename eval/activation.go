package eval

import (
	"context"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/view"
)

// runCtx is what every scope's activation of one run shares.
type runCtx struct {
	threat     map[string]any // the threat_model value
	run        *run.Run
	v          *view.Values
	task, goal map[string]any
	spent      uint64         // CEL cost spent on this run so far, in every scope
	acts       []*activation  // per scope
	items      []pike.Item    // the item stream, when the contract has patterns
	patterns   []*pike.Result // by pattern index, once run
	// timeout, when Program.RunTimeout is set, ends at the run's deadline.
	timeout context.Context
}

// pattern returns pattern pi's result, or the zero result when it has not
// run.
func (c *runCtx) pattern(pi int) pike.Result {
	if pr := c.patterns[pi]; pr != nil {
		return *pr
	}
	return pike.Result{}
}

// noGoal is `goal` on a benign run.
var noGoal = map[string]any{"id": types.String(""), "summary": types.String("")}

// activation resolves the criterion variables of one run in one scope.
// pred holds the scope's predicate values computed so far (ref.Val, errors
// included, so a failing predicate fails only the criteria that use it),
// and its imports' pred maps under their namespaces.
type activation struct {
	*runCtx
	params map[string]any
	pred   map[string]any
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "task":
		return a.task, true
	case "goal":
		return a.goal, true
	case "params":
		return a.params, true
	case "pred":
		return a.pred, true
	case "threat_model":
		return a.threat, true
	}
	// events, calls, results, output, pre, post, meta, tools
	return a.v.Var(name)
}

func (a *activation) Parent() interpreter.Activation { return nil }
