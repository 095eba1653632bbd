package compiler

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/lang"
)

// Size bounds the static cost estimate assumes for values from a run. cel-go
// estimates the worst case: without bounds every list and string is
// unbounded and every estimate is the maximum. These are documented in
// docs/language.md; a run larger than them is still evaluated, metered by
// the runtime cost limit.
const (
	MaxListItems  = 1_000  // events, calls, results, a tool's calls, any list in a run
	MaxMapEntries = 100    // meta, tool arguments, any object in a run
	MaxStringLen  = 10_000 // message content, tool results, argument strings, output (bytes)
)

// DefaultCostBudget bounds each expression's worst-case static cost
// estimate when the contract block sets no cost_budget: enough for
// comprehensions over a run's events or calls that scan or parse each
// item's text, not for nested comprehensions over them with string work
// inside (about 10^10 and more under the bounds above).
const DefaultCostBudget = 1_000_000_000

// sizeHints is the cost.Estimator giving run values the bounds above, and
// params their exact sizes (they are constants).
type sizeHints struct {
	params map[string]any
}

func (h sizeHints) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if p := n.Path(); len(p) > 1 && p[0] == "params" {
		if size, ok := constSize(h.params, p[1:]); ok {
			return &cost.SizeEstimate{Min: 0, Max: size}
		}
	}
	var max uint64
	switch n.Type().Kind() {
	case types.ListKind:
		max = MaxListItems
	case types.MapKind, types.StructKind:
		max = MaxMapEntries
	case types.StringKind, types.BytesKind:
		max = MaxStringLen
	case types.DynKind:
		// A dyn is usually a decoded JSON value (a list, an object or a
		// short string): bound it like a list.
		max = MaxListItems
	default:
		return nil
	}
	return &cost.SizeEstimate{Min: 0, Max: max}
}

// constSize is the largest size (string bytes, list items, map entries) of
// the constants reached by path ('@items', '@keys' and '@values' range over
// every element).
func constSize(v any, path []string) (uint64, bool) {
	if len(path) == 0 {
		switch v := v.(type) {
		case string:
			return uint64(len(v)), true
		case []any:
			return uint64(len(v)), true
		case map[string]any:
			return uint64(len(v)), true
		}
		return 0, false
	}
	var elems []any
	switch v := v.(type) {
	case map[string]any:
		switch path[0] {
		case "@keys":
			for k := range v {
				elems = append(elems, k)
			}
		case "@values":
			for _, e := range v {
				elems = append(elems, e)
			}
		default:
			e, ok := v[path[0]]
			if !ok {
				return 0, false
			}
			elems = []any{e}
		}
	case []any:
		if path[0] != "@items" {
			return 0, false
		}
		elems = v
	default:
		return 0, false
	}
	var max uint64
	for _, e := range elems {
		s, ok := constSize(e, path[1:])
		if !ok {
			return 0, false
		}
		if s > max {
			max = s
		}
	}
	return max, true
}

func (sizeHints) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	return nil // cel-go's and the stdlib's own cost models
}

// estimate computes an expression's static cost and reports it when it is
// over the contract's budget. It returns the maximum estimate.
func (c *compiler) estimate(env *cel.Env, e *lang.Expr, checked *cel.Ast, kind, owner string, params map[string]any) uint64 {
	est, err := env.EstimateCost(checked, sizeHints{params: params})
	if err != nil {
		c.errorf("internal-error", e.Range, "Internal error", fmt.Sprintf("Estimating the cost of the %s of %s: %v.", kindWords(kind), owner, err))
		return 0
	}
	if est.Max > c.costBudget {
		c.errorf("cost-over-budget", e.Range, "Expression over cost budget",
			fmt.Sprintf("The %s of %s may cost up to %d (cel-go cost units, with runs of at most %d events or calls and strings of at most %d bytes), over the contract's cost_budget of %d. Avoid nested comprehensions over events or calls with string work inside, and parse a tool result once in a predicate rather than inside a comprehension; raise cost_budget in the contract block if the bound is acceptable.",
				kindWords(kind), owner, est.Max, MaxListItems, MaxStringLen, c.costBudget))
	}
	return est.Max
}
