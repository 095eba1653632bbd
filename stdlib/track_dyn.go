package stdlib

import (
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// Dynamic dispatch. A call on a dyn value (size(call.args[k]), x in
// call.args, int(args.n)) has several candidate overloads, so cel-go plans
// it without an overload id and its cost tracker, which finds trackers by
// id, charges it 1 whatever it reads. CallCosts prices such calls by
// function name and the runtime types of their arguments, with the same
// charges as the overloads they dispatch to (RuntimeCharges).

// CallCosts returns the cost.ActualCostEstimator that charges calls
// dispatched at runtime (planned without an overload id); enable it with
// cel.CostTracking(CallCosts()) next to cel.CostLimit. Calls with an
// overload id are left to the overload trackers.
func CallCosts() cost.ActualCostEstimator { return dynamicCharges{sizes: &regexcost.Sizes{}} }

// dynamicCharges holds its own cache of regular expressions' program sizes.
type dynamicCharges struct{ sizes *regexcost.Sizes }

// CallCost implements cost.ActualCostEstimator.
func (d dynamicCharges) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if overloadID != "" || len(args) == 0 {
		return nil
	}
	_, str0 := strLen(args[0])
	two := len(args) == 2
	str1 := false
	if two {
		_, str1 = strLen(args[1])
	}
	switch function {
	case overloads.Size, overloads.TypeConvertInt, overloads.TypeConvertUint, overloads.TypeConvertDouble,
		overloads.TypeConvertBool, overloads.TypeConvertTimestamp, overloads.TypeConvertDuration,
		overloads.TypeConvertString, overloads.TypeConvertBytes:
		if str0 && len(args) == 1 {
			return trackKeyScan(0)(args, result)
		}
	case operators.In:
		if two {
			switch args[1].(type) {
			case traits.Lister:
				return trackInList(args, result)
			case traits.Mapper:
				return trackKeyScan(0)(args, result)
			}
		}
	case operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals:
		if two && str0 && str1 {
			return trackStringCompare(args, result)
		}
	case operators.Add:
		// Strings, bytes and lists: as the overloads (buildCharges).
		if two && str0 && str1 {
			return trackBuild(args, result)
		}
		if two && isList(args[0]) && isList(args[1]) {
			return trackListAdd(args, result)
		}
	case "format", "join", "replace", "split", "reverse", "flatten", "slice", "lowerAscii", "upperAscii",
		"trim", "substring", "charAt", "strings.quote", "json.encode", "yaml.encode":
		// Calls on a dyn target that build a value: as their overloads.
		return trackBuild(args, result)
	case overloads.Contains:
		if two && str0 && str1 {
			return trackContains(args, result)
		}
	case overloads.Matches:
		if two && str0 && str1 {
			return trackMatches(d.sizes, args)
		}
	case overloads.StartsWith, overloads.EndsWith:
		if two && str0 && str1 {
			return trackStringCompare(args, result)
		}
	case "indexOf", "lastIndexOf":
		if len(args) >= 2 && str0 && str1 {
			return trackSearch(args, result)
		}
	}
	return nil
}

func isList(v ref.Val) bool {
	_, ok := v.(traits.Lister)
	return ok
}
