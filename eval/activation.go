package eval

import (
	"context"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/view"
)

// runCtx is what judging one run shares across its scopes.
type runCtx struct {
	run      *run.Run
	v        *view.Values
	spent    uint64         // CEL cost spent on this run so far, in every scope
	free     uint64         // the static bounds of the expressions evaluated unmetered (unmetered.go)
	rung     int            // the run's size rung, -1 until measured (unmetered.go)
	acts     []*view.Scope  // per scope: its criterion variables
	items    []pike.Item    // the item stream, when the contract has patterns
	patterns []*pike.Result // by pattern index, once run
	// timeout, when Program.RunTimeout is set, ends at the run's deadline.
	timeout context.Context
	live    *liveRun // set when a Live checks the run: it runs the patterns
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
