// Package bulk holds tenet CEL functions that do in Go what a CEL
// comprehension would do element by element: the same result, errors
// included, for a fraction of the interpreter's work. Each function is
// priced (a static cost model and a runtime charge) at least as the work it
// does, so that the guarantee that no expression can hang an evaluation
// holds. Package stdlib declares them with its own functions
// (docs/stdlib.md); this package exists because stdlib is at its size limit.
package bulk

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"

	"github.com/tenetlang/tenet/stdlib/fndoc"
)

// Function is one function of the package: its documentation, its
// declaration (with bindings), the cost models of its overloads and their
// runtime charges.
type Function struct {
	Doc     fndoc.FunctionDoc
	Decl    cel.EnvOption
	Models  []cost.OverloadModel
	Charges []Charge
}

// Charge is the runtime charge of some overloads (see stdlib.Charge).
type Charge struct {
	Overloads []string
	Calls     string
	Cost      string
	Track     cost.FunctionTracker
}

// Functions returns the package's functions, freshly built.
func Functions() []Function {
	return []Function{copiedFromFunction(), withFunction(), withoutFunction()}
}

// examplesOf returns the successful examples as cel.OverloadExamples text
// ("expr // result").
func examplesOf(d fndoc.FunctionDoc) []string {
	var out []string
	for _, e := range d.Examples {
		if e.Error == "" {
			out = append(out, e.Expr+" // "+e.Result)
		}
	}
	return out
}

// scan is a string scan of n bytes: 0.1 per byte, rounded up, as stdlib's
// runtime charges price it.
func scan(n uint64) uint64 {
	return (n + 9) / 10
}
