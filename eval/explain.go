package eval

import (
	"fmt"

	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// Explanation is how one run's labels came about (tenet explain): every
// predicate value, every criterion's parts with their values, and for
// patterns the items bound to each step.
type Explanation struct {
	Record     runs.Record
	Run        *run.Run
	Items      []Item // the run's item stream
	Predicates []PredicateValue
	Parts      []Part // in evaluation order
}

// Item is an item of the stream: Event ≥ 0 for a message, Call ≥ 0 for a
// tool call (the other is -1).
type Item = pike.Item

// PredicateValue is a predicate's value on the run (an error value when it
// failed).
type PredicateValue struct {
	Scope, Name string
	Expr        int // NoExpr for a pattern predicate
	Pattern     int
	Value       ref.Val
}

// Part is one criterion evaluated on the run: Label names it (one of
// runs.LabelNames, or a block kind and its name such as "invariant
// answered", "failure timeout", or runs.SideEffect and "standing_order"),
// Result is its label, Expr its expression (NoExpr when none) with
// ExprResult, and Patterns its patterns.
type Part struct {
	Label      string
	Result     runs.Label
	Expr       int
	ExprResult runs.Label
	Patterns   []PatternPart
}

// PatternPart is a pattern's result on the run; Witness maps each step to
// the position of its item in Explanation.Items (-1 when not bound), when
// the pattern matched.
type PatternPart struct {
	Pattern int
	Negate  bool
	Result  runs.Label
	Witness []int
}

// Explain judges one run like Judge and records how each label came about.
// It fails when the source does not map the run to a judged key.
func (p *Program) Explain(src *bundle.SourcePlan, r *run.Run) (*Explanation, error) {
	ex := &Explanation{Run: r}
	p.explaining = ex
	defer func() { p.explaining = nil }()
	j, err := p.Judge(src, r)
	if err != nil {
		return nil, err
	}
	if j.Skip != Judged {
		return nil, fmt.Errorf("%s:%d is not judged: %s", r.Origin.File, r.Origin.Line, j.Skip)
	}
	ex.Record = j.Record
	return ex, nil
}
