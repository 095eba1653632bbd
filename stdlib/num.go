package stdlib

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// Overload ids of num, truthy and approx.
const (
	overloadNum    = "tenet_num_dyn"
	overloadTruthy = "tenet_truthy_dyn"
	overloadApprox = "tenet_approx_dyn_dyn_dyn"
)

// maxNumberText is the longest string (in bytes, before trimming) that num
// and approx read as a number. The limit keeps their cost constant whatever
// the size of a tool argument.
const maxNumberText = 256

// asciiSpace is the set of characters num trims from a numeric string.
const asciiSpace = " \t\n\r\v\f"

// num coerces a value to a double the way Python's float() and pydantic's
// float fields do for the values an agent sends.
//
//	num(dyn) -> double
//
// int, uint and double values become the double of the same value (large
// integers are rounded to the nearest double). A string is trimmed of ASCII
// white space (space, \t, \n, \r, \v, \f) and must then be a decimal literal:
// an optional sign, digits with an optional fraction (or a fraction alone) and
// an optional exponent, such as "98.70", " 7 ", "-.5" or "1e3".
//
// Errors: any other value (bool, null, bytes, list, map, timestamp, ...) fails
// with "num: <type> is not a number"; a string that is not a decimal literal
// (including "nan", "inf", "0x10", "1_000" and "") fails with
// `num: string "<text>" is not a decimal number`; a literal beyond the double
// range with `num: string "<text>" is out of double range`; a string longer
// than 256 bytes with "num: string of <n> bytes is too long to be a number".
// Quoted texts longer than 40 bytes are shortened with "...".
//
// Example:
//
//	num("98.70") == 98.7 // true
//
// Cost: constant (1 plus a scan of at most 256 characters).
func num(val ref.Val) ref.Val {
	f, err := toNumber(val)
	if err != nil {
		return types.NewErrFromString("num: " + err.Error())
	}
	return types.Double(f)
}

// toNumber implements num's coercion, returning an error message without the
// function name.
func toNumber(val ref.Val) (float64, error) {
	switch v := val.(type) {
	case types.Double:
		return float64(v), nil
	case types.Int:
		return float64(v), nil
	case types.Uint:
		return float64(v), nil
	case types.String:
		return parseDecimal(string(v))
	}
	return 0, fmt.Errorf("%s is not a number", typeName(val))
}

// parseDecimal reads a decimal literal after trimming ASCII white space.
func parseDecimal(s string) (float64, error) {
	if len(s) > maxNumberText {
		return 0, fmt.Errorf("string of %d bytes is too long to be a number", len(s))
	}
	t := strings.Trim(s, asciiSpace)
	if !isDecimalLiteral(t) {
		return 0, fmt.Errorf("string %s is not a decimal number", quoteShort(s))
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0) {
			return 0, fmt.Errorf("string %s is out of double range", quoteShort(s))
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("string %s is not a decimal number", quoteShort(s))
		}
	}
	return f, nil
}

// isDecimalLiteral reports whether s matches
// [+-]? (digits ("." digits?)? | "." digits) ([eE] [+-]? digits)?
func isDecimalLiteral(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intDigits := countDigits(s[i:])
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i++
		fracDigits = countDigits(s[i:])
		i += fracDigits
	}
	if intDigits == 0 && fracDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		expDigits := countDigits(s[i:])
		if expDigits == 0 {
			return false
		}
		i += expDigits
	}
	return i == len(s)
}

func countDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// quoteShort quotes s for an error message, keeping at most 40 bytes (cut on
// a rune boundary) and marking a cut with "...".
func quoteShort(s string) string {
	const limit = 40
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// typeName is the CEL name of a value's type, e.g. "bool", "null_type",
// "list", "map", "google.protobuf.Timestamp".
func typeName(val ref.Val) string {
	if t, ok := val.Type().(ref.Type); ok {
		return t.TypeName()
	}
	return fmt.Sprintf("%T", val)
}

// truthy reports a value's truthiness as Python's bool() would.
//
//	truthy(dyn) -> bool
//
// null is false; a bool is itself; an int, uint or double is true when it is
// not zero (NaN is true); a string, bytes, list or map is true when it is not
// empty; any other value (timestamp, duration, optional, message, type) is
// true.
//
// Errors: none of its own (an error argument propagates as usual).
//
// Example:
//
//	truthy("") // false
//
// Cost: constant.
func truthy(val ref.Val) ref.Val {
	switch v := val.(type) {
	case types.Null:
		return types.False
	case types.Bool:
		return v
	case types.Int:
		return types.Bool(v != 0)
	case types.Uint:
		return types.Bool(v != 0)
	case types.Double:
		return types.Bool(v != 0)
	case types.String:
		return types.Bool(len(v) != 0)
	case types.Bytes:
		return types.Bool(len(v) != 0)
	case traits.Lister:
		return types.Bool(v.Size() != types.IntZero)
	case traits.Mapper:
		return types.Bool(v.Size() != types.IntZero)
	}
	return types.True
}

// approx reports whether two numbers are within a tolerance of each other.
//
//	approx(dyn, dyn, dyn) -> bool
//
// approx(a, b, tol) is true when a == b or |a - b| <= tol. Each argument is
// coerced with num, so doubles, ints, uints and numeric strings (as models
// send them) all work: approx(c.args.amount, 98.7, 0.005). A NaN never
// matches; equal infinities do.
//
// cel-go refuses a (double, double, double) overload next to a (dyn, dyn, dyn)
// one as a signature collision, so approx has the single dyn overload, which
// treats doubles exactly as a double overload would.
//
// Errors: an argument that num refuses fails with
// "approx: argument <i>: <num's message without the num: prefix>"; a negative
// or NaN tolerance with "approx: tolerance must be >= 0, got <tol>".
//
// Example:
//
//	approx(0.1 + 0.2, 0.3, 1e-9) // true
//
// Cost: constant.
func approx(args ...ref.Val) ref.Val {
	var n [3]float64
	for i, a := range args {
		f, err := toNumber(a)
		if err != nil {
			return types.NewErrFromString(fmt.Sprintf("approx: argument %d: %s", i+1, err))
		}
		n[i] = f
	}
	a, b, tol := n[0], n[1], n[2]
	if !(tol >= 0) {
		return types.NewErrFromString("approx: tolerance must be >= 0, got " + formatDouble(tol))
	}
	return types.Bool(a == b || math.Abs(a-b) <= tol)
}

// formatDouble formats a double as the shortest decimal that reads back to it.
func formatDouble(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// numberScanCost is the cost of reading argument i as a number: a scan of at
// most maxNumberText characters.
func numberScanCost(i int) cost.QuantityExpr {
	return cost.StringScan(cost.Min(cost.Length(cost.Arg(i)), cost.Const(maxNumberText)))
}

func numSpec() spec {
	d := FunctionDoc{
		Name:       "num",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadNum, Text: "num(dyn) -> double"}},
		Summary:    "Coerces a number or a numeric string to a double, as Python's float() and pydantic do.",
		Semantics: []string{
			"int, uint and double values become the double of the same value (integers beyond 2^53 are rounded to the nearest double).",
			"A string is trimmed of ASCII white space (space, \\t, \\n, \\r, \\v, \\f) and must then be a decimal literal: an optional sign, digits with an optional fraction (or a fraction alone) and an optional exponent, such as \"98.70\", \" 7 \", \"-.5\" or \"1e3\". \"nan\", \"inf\", hexadecimal and digit separators are refused.",
			"Any other value (bool, null, bytes, list, map, timestamp, ...) is an error: booleans are not numbers.",
			"The result is a double, so compare it with doubles: `num(x) == 1.0`, not `num(x) == 1` (which does not type-check).",
		},
		Errors: []string{
			"`num: <type> is not a number` for a value that is not an int, uint, double or string, e.g. `num: bool is not a number`, `num: null_type is not a number`.",
			"`num: string \"<text>\" is not a decimal number` for a string that is not a decimal literal after trimming.",
			"`num: string \"<text>\" is out of double range` for a literal beyond ±1.8e308.",
			"`num: string of <n> bytes is too long to be a number` for a string longer than 256 bytes (before trimming).",
			"Quoted texts longer than 40 bytes are cut and followed by `...`.",
		},
		Examples: []Example{
			{Expr: `num("98.70") == 98.7`, Result: "true"},
			{Expr: `num(" 7 ")`, Result: "7.0"},
			{Expr: `num("1e3")`, Result: "1000.0"},
			{Expr: `num(3)`, Result: "3.0"},
			{Expr: `num(2u)`, Result: "2.0"},
			{Expr: `num(-0.5)`, Result: "-0.5"},
			{Expr: `num(true)`, Error: "num: bool is not a number"},
			{Expr: `num(null)`, Error: "num: null_type is not a number"},
			{Expr: `num("12 apples")`, Error: `num: string "12 apples" is not a decimal number`},
			{Expr: `num("NaN")`, Error: `num: string "NaN" is not a decimal number`},
			{Expr: `num("1e400")`, Error: `num: string "1e400" is out of double range`},
			{Expr: `num(1) == 1`, Error: "found no matching overload for '_==_' applied to '(double, int)'"},
		},
		Cost: "Constant: 1 plus a string scan (0.1 per character) of at most 256 characters.",
	}
	return spec{
		doc: d,
		decl: cel.Function("num", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadNum, []*cel.Type{cel.DynType}, cel.DoubleType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(num))),
		models: []cost.OverloadModel{
			cost.Overload(overloadNum,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), numberScanCost(0)))),
		},
	}
}

func truthySpec() spec {
	d := FunctionDoc{
		Name:       "truthy",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadTruthy, Text: "truthy(dyn) -> bool"}},
		Summary:    "Python truthiness of a value.",
		Semantics: []string{
			"null is false; a bool is itself; an int, uint or double is true when it is not zero (NaN is true).",
			"A string, bytes, list or map is true when it is not empty.",
			"Any other value (timestamp, duration, optional, message, type) is true; note that optional.none() is true (use hasValue()).",
		},
		Errors: []string{
			"None of its own; an error in the argument propagates.",
		},
		Examples: []Example{
			{Expr: `truthy("")`, Result: "false"},
			{Expr: `truthy("no")`, Result: "true"},
			{Expr: `truthy(null)`, Result: "false"},
			{Expr: `truthy(0.0)`, Result: "false"},
			{Expr: `truthy(-1)`, Result: "true"},
			{Expr: `truthy([])`, Result: "false"},
			{Expr: `truthy({'k': null})`, Result: "true"},
			{Expr: `truthy(b'')`, Result: "false"},
			{Expr: `truthy(timestamp('2024-01-01T00:00:00Z'))`, Result: "true"},
		},
		Cost: "Constant: 1.",
	}
	return spec{
		doc: d,
		decl: cel.Function("truthy", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadTruthy, []*cel.Type{cel.DynType}, cel.BoolType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(truthy))),
		models: []cost.OverloadModel{
			cost.Overload(overloadTruthy, cost.EvalCost(cost.Const(cost.CallCost))),
		},
	}
}

func approxSpec() spec {
	d := FunctionDoc{
		Name:       "approx",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadApprox, Text: "approx(dyn, dyn, dyn) -> bool"}},
		Summary:    "Whether two numbers are within a tolerance: a == b or |a - b| <= tol.",
		Semantics: []string{
			"approx(a, b, tol) is true when a == b or |a - b| <= tol, computed on doubles.",
			"Each argument is coerced with num, so doubles, ints, uints and numeric strings (as models send them) all work: `approx(c.args.amount, 98.7, 0.005)`.",
			"A NaN never matches; equal infinities do.",
			"There is one overload taking dyn arguments: cel-go refuses a (double, double, double) overload next to a (dyn, dyn, dyn) one as a signature collision, and the dyn overload treats doubles exactly as a double overload would.",
		},
		Errors: []string{
			"`approx: argument <i>: <reason>` when num refuses argument i (1-based); the reason is num's message without its `num: ` prefix.",
			"`approx: tolerance must be >= 0, got <tol>` for a negative or NaN tolerance.",
		},
		Examples: []Example{
			{Expr: `approx(0.1 + 0.2, 0.3, 1e-9)`, Result: "true"},
			{Expr: `approx("98.70", 98.7, 0.0)`, Result: "true"},
			{Expr: `approx(100, 101.5, 1.0)`, Result: "false"},
			{Expr: `approx(1.0, 1.0, -0.1)`, Error: "approx: tolerance must be >= 0, got -0.1"},
			{Expr: `approx(true, 1.0, 0.1)`, Error: "approx: argument 1: bool is not a number"},
			{Expr: `approx(1.0, "abc", 0.1)`, Error: `approx: argument 2: string "abc" is not a decimal number`},
		},
		Cost: "Constant: 1 plus a string scan of at most 256 characters per argument.",
	}
	return spec{
		doc: d,
		decl: cel.Function("approx", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadApprox, []*cel.Type{cel.DynType, cel.DynType, cel.DynType}, cel.BoolType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.FunctionBinding(approx))),
		models: []cost.OverloadModel{
			cost.Overload(overloadApprox,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), numberScanCost(0), numberScanCost(1), numberScanCost(2)))),
		},
	}
}
