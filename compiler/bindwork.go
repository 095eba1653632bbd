package compiler

import (
	"fmt"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/parser"

	"github.com/tenetlang/tenet/lang"
)

// MaxBindWork bounds the work cel-go's static cost estimator may do on the
// cel.bind expressions of one expression, in AST nodes visited.
//
// For each cel.bind the estimator (cost model version 1) asks whether the
// bind's result reads its variable on every evaluation, by walking the
// result (cost.mustReadVar); and that walk, on a bind nested in the
// result, walks the nested bind's result twice — once for the outer
// variable, once for its own. So the work doubles with every cel.bind
// nested in another's result: 20 levels took 0.2 s, 25 levels 6 to 12 s,
// 30 levels minutes. tenet computes that work beforehand, in time linear
// in the expression (bindWork), and refuses an expression over this budget
// (bind-too-deep) instead of estimating it. 2^22 steps take about 0.1 s;
// they allow 20 nested binds of small expressions, and real criteria nest
// two or three.
const MaxBindWork = 1 << 22

// bindWork returns an upper bound of the nodes cel-go's cost estimator
// visits deciding whether each cel.bind's result reads its variable
// (capped just above MaxBindWork), and the deepest nesting of cel.bind in
// a bind's result. It visits each node of e once.
func bindWork(e ast.Expr) (work uint64, depth int) {
	// reads(x) is the nodes mustReadVar visits on x at most (it stops
	// early on a read; this is the worst case), and binds the longest
	// chain of cel.bind nested through results in x.
	var visit func(x ast.Expr) (reads uint64, binds int)
	visit = func(x ast.Expr) (uint64, int) {
		reads, binds := uint64(1), 0
		if x == nil {
			return reads, binds
		}
		add := func(y ast.Expr, times uint64) int {
			r, b := visit(y)
			reads = capAdd(reads, capMul(r, times))
			return b
		}
		all := func(y ast.Expr) { binds = max(binds, add(y, 1)) }
		// walk visits a child mustReadVar does not read (the work of the
		// estimator's own pass and of binds inside it count all the same).
		walk := func(y ast.Expr) { _, b := visit(y); binds = max(binds, b) }
		switch x.Kind() {
		case ast.SelectKind:
			all(x.AsSelect().Operand())
		case ast.CallKind:
			call := x.AsCall()
			args := call.Args()
			switch fn := call.FunctionName(); {
			case fn == operators.LogicalAnd || fn == operators.LogicalOr || fn == operators.Conditional:
				// Only the first operand is sure to be evaluated.
				for i, a := range args {
					if i == 0 {
						all(a)
					} else {
						walk(a)
					}
				}
				if call.IsMemberFunction() {
					walk(call.Target())
				}
			default:
				if call.IsMemberFunction() {
					all(call.Target())
				}
				for _, a := range args {
					all(a)
				}
			}
		case ast.ListKind:
			for _, el := range x.AsList().Elements() {
				all(el)
			}
		case ast.MapKind:
			for _, en := range x.AsMap().Entries() {
				me := en.AsMapEntry()
				all(me.Key())
				all(me.Value())
			}
		case ast.StructKind:
			for _, f := range x.AsStruct().Fields() {
				all(f.AsStructField().Value())
			}
		case ast.ComprehensionKind:
			comp := x.AsComprehension()
			all(comp.IterRange())
			if isBind(comp) {
				// The result is read twice (for the outer variable and
				// for this bind's own), the bound value once; and the
				// estimator itself reads the result once more for this
				// bind (costBind).
				r, b := visit(comp.Result())
				reads = capAdd(reads, capMul(r, 2))
				work = capAdd(work, r)
				binds = max(binds, b+1)
				all(comp.AccuInit())
			} else {
				all(comp.AccuInit())
				walk(comp.LoopCondition())
				walk(comp.LoopStep())
				walk(comp.Result())
			}
		}
		return reads, binds
	}
	_, depth = visit(e)
	return work, depth
}

// isBind says whether a comprehension is a cel.bind, as cel-go's cost
// estimator tells: an empty list as its range, and a variable of its own
// rather than a macro's accumulator.
func isBind(comp ast.ComprehensionExpr) bool {
	r := comp.IterRange()
	return r.Kind() == ast.ListKind && r.AsList().Size() == 0 &&
		comp.AccuVar() != parser.AccumulatorName && comp.AccuVar() != parser.HiddenAccumulatorName
}

// capAdd and capMul saturate just above MaxBindWork, so that 2^depth never
// overflows.
func capAdd(a, b uint64) uint64 { return min(a+b, MaxBindWork+1) }

func capMul(a, b uint64) uint64 {
	if a > 0 && b > (MaxBindWork+1)/a {
		return MaxBindWork + 1
	}
	return min(a*b, MaxBindWork+1)
}

// checkBindWork reports an expression whose nested cel.bind would make the
// cost estimate take more than MaxBindWork steps, and says whether it is
// within the budget.
func (c *compiler) checkBindWork(e *lang.Expr, x ast.Expr, kind, owner string) bool {
	work, depth := bindWork(x)
	if work <= MaxBindWork {
		return true
	}
	c.errorf("bind-too-deep", e.Range, "cel.bind nested too deeply",
		fmt.Sprintf("The %s of %s nests cel.bind %d levels deep in each other's results. cel-go's cost estimate of such an expression takes time that doubles with each level, and tenet refuses one that would take more than %d steps (2^22: about 20 levels of small binds). Bind several values at one level (a list or a map), or move an inner part into a predicate.",
			kindWords(kind), owner, depth, MaxBindWork))
	return false
}
