// Package costbound decides which criterion and step expressions may be
// evaluated without cel-go's runtime cost tracker (issue 17): an
// expression whose every operation is one whose static cost model bounds
// its runtime charge (Eligible) gets a static cost bound for each run size
// of bundle.SizeRungs (Bounds), and runs whose size is within a rung whose
// bound is below the run cost limit evaluate it unmetered. The compiler
// records the bounds in the bundle (bundle.Expr.Unmetered); eval.Load
// recomputes them and refuses a bundle whose bounds are not these, so that
// a forged bundle cannot unmeter an expression.
//
// Soundness rests on three facts. (1) A run's size (the largest length of
// any list, string or map in it, measured by eval) bounds every value from
// the run an expression can read, and the bundle's constant size (Consts)
// bounds every constant: so "every non-scalar value is at most
// max(rung, Consts)" holds for every value an eligible expression reads.
// (2) Eligible expressions build no value larger than what they read:
// concatenation, formatting, conversions and every tenet stdlib function
// are left out (they stay metered), as are predicates of non-scalar type
// (their values are computed, not read). (3) For each allowed operation,
// the static estimate under such sizes is at least the runtime charge
// (cel-go's tracker and stdlib's runtime charges): where cel-go's static
// model prices below stdlib's runtime charge (size of a string, ==, in,
// a map key's hash), EstimateCallCost below prices it at the charge.
package costbound

import (
	"fmt"
	"math"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// Environments whose expressions may run unmetered (celenv.KindCriterion
// and celenv.KindStep; spelt here so as not to import the environments).
const (
	envCriterion = "criterion"
	envStep      = "step"
)

// Applies says whether expressions of an environment kind are considered
// at all: source and gate expressions stay metered (they run once per
// record or per report).
func Applies(env string) bool { return env == envCriterion || env == envStep }

// allowed are the overloads an eligible expression may call: their work is
// O(1), or priced by cel-go's static model at least at their runtime
// charge, or priced so by EstimateCallCost (priced). Every other overload
// (concatenation, conversions, formatting, every tenet stdlib function)
// keeps an expression metered.
var allowed = map[string]bool{}

// priced are the allowed overloads whose static cost EstimateCallCost sets
// (cel-go prices them below stdlib's runtime charge).
var priced = map[string]bool{
	overloads.Equals: true, overloads.NotEquals: true,
	overloads.InList: true, overloads.InMap: true,
	overloads.Size: true, overloads.SizeString: true, overloads.SizeStringInst: true,
	overloads.SizeBytes: true, overloads.SizeBytesInst: true, overloads.SizeList: true,
	overloads.SizeListInst: true, overloads.SizeMap: true, overloads.SizeMapInst: true,
	overloads.IndexMap:       true,
	overloads.ContainsString: true, overloads.Matches: true, overloads.MatchesString: true,
	overloads.StartsWithString: true, overloads.EndsWithString: true,
	overloads.StringToString: true,
	overloads.LessString:     true, overloads.LessEqualsString: true,
	overloads.GreaterString: true, overloads.GreaterEqualsString: true,
}

func init() {
	for _, id := range []string{
		overloads.Conditional, overloads.LogicalAnd, overloads.LogicalOr, overloads.LogicalNot, overloads.NotStrictlyFalse,
		overloads.IndexList,
		overloads.AddInt64, overloads.AddUint64, overloads.AddDouble,
		overloads.SubtractInt64, overloads.SubtractUint64, overloads.SubtractDouble,
		overloads.MultiplyInt64, overloads.MultiplyUint64, overloads.MultiplyDouble,
		overloads.DivideInt64, overloads.DivideUint64, overloads.DivideDouble,
		overloads.ModuloInt64, overloads.ModuloUint64, overloads.NegateInt64, overloads.NegateDouble,
		overloads.ContainsString, overloads.StartsWithString, overloads.EndsWithString,
		overloads.Matches, overloads.MatchesString,
		// O(1): a value's type, conversions between numbers, identities.
		overloads.TypeConvertType, overloads.IntToInt, overloads.UintToInt, overloads.DoubleToInt,
		overloads.UintToUint, overloads.IntToUint, overloads.DoubleToUint,
		overloads.DoubleToDouble, overloads.IntToDouble, overloads.UintToDouble,
		overloads.BoolToBool, overloads.ToDyn,
	} {
		allowed[id] = true
	}
	for _, op := range []string{"less", "less_equals", "greater", "greater_equals"} {
		for _, t := range []string{"bool", "int64", "int64_double", "int64_uint64", "uint64", "uint64_double", "uint64_int64",
			"double", "double_int64", "double_uint64", "string", "bytes", "timestamp", "duration"} {
			allowed[op+"_"+t] = true
		}
	}
	for id := range priced {
		allowed[id] = true
	}
}

// Eligible says whether a checked expression may run unmetered at all:
// every call is to an allowed overload (== and in with a scalar operand, a
// regular expression only as a literal), and every predicate it reads is of
// a scalar type or builds nothing (readable says so of a predicate named
// by a pred chain: ["x"], ["ns", "x"], possibly followed by fields of its
// value; nil: none does). It returns "" or why not.
func Eligible(a *cel.Ast, readable func(chain []string) bool) string {
	nat := a.NativeRep()
	why := ""
	inner := map[int64]bool{} // pred-rooted nodes that are the operand of a further select
	var predNodes []ast.Expr
	accus := map[string]bool{} // accumulators of the comprehensions seen so far (visited before their bodies)
	ast.PreOrderVisit(nat.Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if why != "" {
			return
		}
		switch x.Kind() {
		case ast.ComprehensionKind:
			accus[x.AsComprehension().AccuVar()] = true
		case ast.IdentKind, ast.SelectKind:
			if predRooted(x) {
				predNodes = append(predNodes, x)
				if x.Kind() == ast.SelectKind {
					inner[x.AsSelect().Operand().ID()] = true
				}
			}
		case ast.CallKind:
			why = eligibleCall(nat, x, accus)
		}
	}))
	if why != "" {
		return why
	}
	if nesting(nat.Expr()) > MaxNesting {
		return fmt.Sprintf("nests comprehensions more than %d deep", MaxNesting)
	}
	for _, x := range predNodes {
		if inner[x.ID()] || fixedSize(nat.GetType(x.ID())) {
			continue
		}
		if readable == nil || !readable(predChain(x)) {
			return "reads a predicate that may build values larger than the run's"
		}
	}
	return ""
}

// MaxNesting bounds how deep an eligible expression nests comprehensions
// (cel.bind included). cel-go's estimator does work that doubles with each
// cel.bind nested in another's result (compiler.MaxBindWork), and eval
// estimates the bounds of every eligible expression of a bundle it loads:
// a forged bundle must not make that take minutes. Criteria nest two or
// three.
const MaxNesting = 6

// nesting is the deepest nesting of comprehensions in e.
func nesting(e ast.Expr) int {
	if e == nil {
		return 0
	}
	deepest := func(xs ...ast.Expr) int {
		m := 0
		for _, x := range xs {
			m = max(m, nesting(x))
		}
		return m
	}
	switch e.Kind() {
	case ast.CallKind:
		c := e.AsCall()
		d := deepest(c.Args()...)
		if c.IsMemberFunction() {
			d = max(d, nesting(c.Target()))
		}
		return d
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		return 1 + deepest(c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result())
	case ast.ListKind:
		return deepest(e.AsList().Elements()...)
	case ast.MapKind:
		m := 0
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			m = max(m, nesting(me.Key()), nesting(me.Value()))
		}
		return m
	case ast.SelectKind:
		return nesting(e.AsSelect().Operand())
	case ast.StructKind:
		m := 0
		for _, f := range e.AsStruct().Fields() {
			m = max(m, nesting(f.AsStructField().Value()))
		}
		return m
	}
	return 0
}

// predChain is the field names of a pred selection chain, outermost last:
// pred.ns.x.f → [ns x f].
func predChain(x ast.Expr) []string {
	var out []string
	for x.Kind() == ast.SelectKind {
		out = append(out, x.AsSelect().FieldName())
		x = x.AsSelect().Operand()
	}
	slices.Reverse(out)
	return out
}

// predRooted says whether x is the identifier pred or a field selection
// chain on it.
func predRooted(x ast.Expr) bool {
	for x.Kind() == ast.SelectKind {
		x = x.AsSelect().Operand()
	}
	return x.Kind() == ast.IdentKind && x.AsIdent() == "pred"
}

func eligibleCall(nat *ast.AST, x ast.Expr, accus map[string]bool) string {
	ref, ok := nat.ReferenceMap()[x.ID()]
	call := x.AsCall()
	if !ok || len(ref.OverloadIDs) == 0 {
		return "calls " + call.FunctionName() + ", which is not a checked overload"
	}
	// map and filter append each result to their accumulator: a list no
	// longer than the range, of values the body read or computed.
	if len(ref.OverloadIDs) == 1 && ref.OverloadIDs[0] == overloads.AddList && len(call.Args()) == 2 {
		if a := call.Args()[0]; a.Kind() == ast.IdentKind && accus[a.AsIdent()] && call.Args()[1].Kind() == ast.ListKind {
			return ""
		}
	}
	for _, id := range ref.OverloadIDs {
		if !allowed[id] {
			return "calls " + call.FunctionName() + " (" + id + ")"
		}
	}
	args := call.Args()
	switch ref.OverloadIDs[0] {
	case overloads.Equals, overloads.NotEquals:
		// With a scalar operand the comparison reads at most that
		// operand's bytes; two containers would be compared deeply.
		if len(args) != 2 || (!scalar(nat.GetType(args[0].ID())) && !scalar(nat.GetType(args[1].ID()))) {
			return "compares two values neither of which is of a scalar type"
		}
	case overloads.InList, overloads.InMap:
		if len(args) != 2 || !scalar(nat.GetType(args[0].ID())) {
			return "tests membership of a value not of a scalar type"
		}
	case overloads.Matches:
		if len(args) != 2 || args[1].Kind() != ast.LiteralKind {
			return "matches a regular expression that is not a literal"
		}
	case overloads.MatchesString:
		if len(args) != 1 || args[0].Kind() != ast.LiteralKind {
			return "matches a regular expression that is not a literal"
		}
	}
	return ""
}

// scalar says whether a value of type t has a size bounded by its type
// alone, or is a string or bytes (whose size the hints bound): not a list,
// map, object or dyn.
func scalar(t *types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case types.BoolKind, types.IntKind, types.UintKind, types.DoubleKind, types.NullTypeKind,
		types.StringKind, types.BytesKind, types.TimestampKind, types.DurationKind, types.TypeKind:
		return true
	}
	return false
}

// Eligibility says, per expression of a bundle (index-aligned with
// b.Exprs), why it must stay metered, or "" when it may run unmetered
// (Applies and Eligible): asts[i] is expression i's checked AST (nil: it
// stays metered). A predicate whose expression is eligible builds no value
// larger than what it reads, so reading it is as reading the run: its
// readers may be eligible too (predicates are decided in the plan's
// evaluation order, which puts every predicate after those it reads). It
// walks each expression once and estimates nothing.
func Eligibility(b *bundle.Bundle, asts []*cel.Ast) []string {
	byPath := map[string]int{}
	for i, sc := range b.Decls.Scopes {
		byPath[sc.Path] = i
	}
	builds := make([]map[string]bool, len(b.Decls.Scopes)) // per scope: predicate name → builds no value
	for i := range builds {
		builds[i] = map[string]bool{}
	}
	readableIn := func(scope int) func([]string) bool {
		return func(chain []string) bool {
			s := scope
			for _, name := range chain {
				if slices.Contains(b.Decls.Scopes[s].Namespaces, name) {
					s = byPath[child(b.Decls.Scopes[s].Path, name)]
					continue
				}
				return builds[s][name]
			}
			return false // a namespace itself: a map of predicates
		}
	}
	for _, pr := range b.Plan.Predicates {
		pd := b.Decls.Scopes[pr.Scope].Predicates[pr.Pred]
		switch {
		case pd.Pattern != bundle.NoExpr:
			builds[pr.Scope][pd.Name] = true // a bool
		case pd.Expr >= 0 && pd.Expr < len(asts) && asts[pd.Expr] != nil:
			builds[pr.Scope][pd.Name] = Eligible(asts[pd.Expr], readableIn(pr.Scope)) == ""
		}
	}
	out := make([]string, len(b.Exprs))
	for i, e := range b.Exprs {
		switch {
		case !Applies(e.Env):
			out[i] = "a " + e.Env + " expression"
		case i >= len(asts) || asts[i] == nil:
			out[i] = "not checked"
		default:
			out[i] = Eligible(asts[i], readableIn(e.Scope))
		}
	}
	return out
}

// Plan computes the unmetered bounds of every expression of a bundle
// (index-aligned with b.Exprs; nil for one that stays metered): asts[i] is
// expression i's checked AST and env(i) the environment it was checked in
// (called only for eligible expressions).
func Plan(b *bundle.Bundle, asts []*cel.Ast, env func(i int) (*cel.Env, error)) ([][]uint64, error) {
	consts := Consts(b)
	out := make([][]uint64, len(b.Exprs))
	for i, why := range Eligibility(b, asts) {
		if why != "" {
			continue
		}
		en, err := env(i)
		if err != nil {
			return nil, err
		}
		if out[i], err = Bounds(en, asts[i], consts, b.Plan.RunCostLimit); err != nil {
			e := b.Exprs[i]
			return nil, fmt.Errorf("expression %d (%s of %s): bounding its cost: %w", i, e.Kind, e.Owner, err)
		}
	}
	return out, nil
}

// child is the path of import ns of the scope at path (celenv.Child).
func child(path, ns string) string {
	if path == "" {
		return ns
	}
	return path + "." + ns
}

// fixedSize says whether every value of type t has one size whatever it
// holds: a predicate of such a type may be read whatever it computed (a
// string predicate may hold a string longer than any in the run).
func fixedSize(t *types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case types.BoolKind, types.IntKind, types.UintKind, types.DoubleKind, types.NullTypeKind,
		types.TimestampKind, types.DurationKind:
		return true
	}
	return false
}

// Bounds returns an eligible expression's static cost bound for each rung
// of bundle.SizeRungs, from the smallest, as long as it is below limit
// (nil when not even the smallest is). consts is the bundle's constant
// size (Consts).
func Bounds(env *cel.Env, a *cel.Ast, consts, limit uint64) ([]uint64, error) {
	last := len(bundle.SizeRungs) - 1
	first, err := Bound(env, a, consts, 0)
	if err != nil || first >= limit {
		return nil, err
	}
	top, err := Bound(env, a, consts, last)
	if err != nil {
		return nil, err
	}
	out := []uint64{first}
	for k := 1; k <= last; k++ {
		c := top
		// The estimate does not decrease with the size: equal at the
		// smallest and largest rung, it is that at every rung (most
		// criteria read no size-dependent value: two estimates, not ten).
		if k < last && top != first {
			if c, err = Bound(env, a, consts, k); err != nil {
				return nil, err
			}
		}
		if c >= limit {
			break
		}
		out = append(out, c)
	}
	return out, nil
}

// Bound is an eligible expression's static cost bound over runs of size at
// most bundle.SizeRungs[k].
func Bound(env *cel.Env, a *cel.Ast, consts uint64, k int) (uint64, error) {
	est, err := env.EstimateCost(a, hints{size: max(bundle.SizeRungs[k], consts)})
	return est.Max, err
}

// hints bounds every non-scalar value by size, and prices the allowed
// overloads cel-go's model prices below stdlib's runtime charge.
type hints struct {
	size uint64
}

func (h hints) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if n.Type() == nil {
		return &cost.SizeEstimate{Min: 0, Max: h.size}
	}
	switch n.Type().Kind() {
	case types.ListKind, types.MapKind, types.StructKind, types.StringKind, types.BytesKind,
		types.DynKind, types.AnyKind, types.TypeParamKind:
		return &cost.SizeEstimate{Min: 0, Max: h.size}
	}
	return nil
}

// scan is stdlib's charge for reading n bytes (a tenth, rounded up).
func scan(n uint64) uint64 {
	if n > math.MaxUint64-9 {
		return math.MaxUint64 / 10
	}
	return (n + 9) / 10
}

func (h hints) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	if !priced[overloadID] {
		return nil
	}
	all := args
	if target != nil {
		all = append([]cost.AstNode{*target}, args...)
	}
	size := func(n cost.AstNode) uint64 { return cost.EstimateSize(h, n).Max }
	var c uint64
	switch overloadID {
	case overloads.Equals, overloads.NotEquals:
		// stdlib: a tenth of the bytes compared, at least 1; Eligible
		// has made one operand a scalar or string, which bounds them.
		c = cost.SafeAdd(1, scan(min(size(all[0]), size(all[1]))))
	case overloads.InList:
		// cel-go: one per element; stdlib: plus a tenth of the work of
		// comparing the scalar with each element (at most its bytes, at
		// least 1).
		n := size(all[1])
		c = cost.SafeAdd(1, n, scan(cost.SafeMultiply(n, max(1, size(all[0])))))
	case overloads.ContainsString:
		// stdlib: a tenth of each string's bytes, multiplied.
		c = cost.SafeAdd(1, cost.SafeMultiply(max(1, scan(size(all[0]))), max(1, scan(size(all[1])))))
	case overloads.Matches, overloads.MatchesString:
		// stdlib (RegexWork): a tenth of the text's bytes plus one times
		// the pattern's program size, which Eligible has made a literal;
		// any other pattern is priced past every limit.
		c = math.MaxUint64
		if prog, ok := literalProgSize(all[1]); ok {
			c = cost.SafeAdd(1, scan(cost.SafeMultiply(cost.SafeAdd(size(all[0]), 1), max(1, prog))))
		}
	case overloads.StartsWithString, overloads.EndsWithString,
		overloads.LessString, overloads.LessEqualsString, overloads.GreaterString, overloads.GreaterEqualsString:
		// stdlib and cel-go: a tenth of the bytes compared (here of the
		// longer string).
		c = cost.SafeAdd(1, scan(max(size(all[0]), size(all[1]))))
	case overloads.InMap:
		// Hashing the key reads it: k in m.
		c = cost.SafeAdd(1, scan(size(all[0])))
	case overloads.IndexMap:
		// m[k] is a qualifier cel-go charges 1: priced here at the hash.
		c = cost.SafeAdd(1, scan(size(all[1])))
	default: // size, string(s): stdlib charges them by the string's bytes
		c = cost.SafeAdd(1, scan(size(all[0])))
	}
	return &cost.CallEstimate{CostEstimate: cost.CostEstimate{Min: 0, Max: c}}
}

// Consts is the size bound of the bundle's constants an expression can
// read: every param value of every scope and profile (strings, lists and
// maps at any depth), task prompts and goal summaries, the threat model's
// lists, the declared tools and their parameters, and each scope's
// predicates and params (the pred and params objects).
func Consts(b *bundle.Bundle) uint64 {
	var m uint64
	see := func(n int) { m = max(m, uint64(n)) }
	for _, sc := range b.Decls.Scopes {
		see(len(sc.Params) + len(sc.Namespaces))
		see(len(sc.Predicates) + len(sc.Namespaces))
		for _, p := range sc.Params {
			m = max(m, valueSize(p.Value))
		}
	}
	for _, pr := range b.Decls.Profiles {
		for _, p := range pr.Params {
			m = max(m, valueSize(p.Value))
		}
	}
	for _, t := range b.Plan.Tasks {
		see(len(t.ID))
		see(len(t.Prompt))
	}
	for _, g := range b.Plan.Goals {
		see(len(g.ID))
		see(len(g.Summary))
	}
	tm := b.Manifest.ThreatModel
	see(len(tm.InjectionVectors))
	see(len(tm.AdversarySees))
	for _, s := range append(append([]string{}, tm.InjectionVectors...), tm.AdversarySees...) {
		see(len(s))
	}
	see(len(b.Decls.Tools))
	for _, t := range b.Decls.Tools {
		see(len(t.Name))
		see(len(t.Params))
	}
	return m
}

// valueSize is the largest size (string bytes, list items, map entries) of
// a constant value and every value it holds.
func valueSize(v any) uint64 {
	switch v := v.(type) {
	case string:
		return uint64(len(v))
	case []any:
		m := uint64(len(v))
		for _, e := range v {
			m = max(m, valueSize(e))
		}
		return m
	case map[string]any:
		m := uint64(len(v))
		for k, e := range v {
			m = max(m, uint64(len(k)), valueSize(e))
		}
		return m
	}
	return 0
}

// literalProgSize is the number of instructions of the compiled program of
// a string literal pattern (regexcost.ProgSize, which stdlib charges by),
// and ok false for any other node or a pattern that does not compile. Go's
// regexp steps through the program for each byte of the text, so the
// program's size, not the pattern's length, prices a match.
func literalProgSize(n cost.AstNode) (uint64, bool) {
	e := n.Expr()
	if e == nil || e.Kind() != ast.LiteralKind {
		return 0, false
	}
	p, ok := e.AsLiteral().Value().(string)
	if !ok {
		return 0, false
	}
	return regexcost.ProgSize(p)
}
