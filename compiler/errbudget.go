package compiler

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang"
)

// MaxErrors bounds the errors the compiler reports before it stops checking
// expressions. Each CEL error costs cel-go and tenet a suggestion, a search
// over every name of the environment (about 0.5 ms), and cel-go reports up
// to 100 of them per expression: a generated contract of thousands of
// expressions full of unknown names took seconds per thousand errors, and
// no one reads past the first few hundred. Once the compiler has reported
// MaxErrors errors, every further expression is skipped, and the first one
// skipped gets a too-many-errors error saying so; the checks that do not
// parse CEL still run.
const MaxErrors = 5_000

// errorBudget counts the errors reported so far (incrementally: each
// diagnostic is looked at once).
type errorBudget struct {
	seen, errors int
	stopped      bool
}

// skipExpr says whether the error budget is spent, so that e is not
// checked; the first time, it reports too-many-errors at e.
func (c *compiler) skipExpr(e *lang.Expr) bool {
	for ; c.budget.seen < len(c.diags); c.budget.seen++ {
		if c.diags[c.budget.seen].Severity == hcl.DiagError {
			c.budget.errors++
		}
	}
	if c.budget.errors < MaxErrors {
		return false
	}
	if !c.budget.stopped {
		c.budget.stopped = true
		c.errorf("too-many-errors", e.Range, "Too many errors",
			fmt.Sprintf("tenet stopped checking expressions after %d errors; this one and the rest are not checked. Fix the errors above and check again.", MaxErrors))
	}
	return true
}
