package consistency

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/patterncode"
)

// Text and behaviour (docs/bundle.md, "Consistency"). An expression's Text
// is what inspect and explain show and what a reviewer reads; its Checked
// AST is what runs. The sha256 of the payload proves neither came from the
// compiler: anyone can edit a payload and hash it again. recheck compiles
// the text again, in the environment rebuilt from the bundle's
// declarations, exactly as the compiler did (parse, then check), and
// requires the deterministic encoding of the result to be the stored
// bytes: then the AST that runs, its types and its resolved references
// (which variable an identifier reads, which overload a call takes) are
// the text's.
func recheck(env *cel.Env, e *bundle.Expr) error {
	parsed, iss := env.Parse(e.Text)
	if iss.Err() != nil {
		return fmt.Errorf("its text does not parse: %v", firstLine(iss.Err().Error()))
	}
	checked, iss := env.Check(parsed)
	if iss.Err() != nil {
		return fmt.Errorf("its text does not type-check in the bundle's declarations: %v", firstLine(iss.Err().Error()))
	}
	ce, err := cel.AstToCheckedExpr(checked)
	if err != nil {
		return fmt.Errorf("re-encoding its text: %w", err)
	}
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(ce)
	if err != nil {
		return fmt.Errorf("re-encoding its text: %w", err)
	}
	if !bytes.Equal(data, e.Checked) {
		return fmt.Errorf("its compiled form is not its text's: the text reads %q but what runs reads %q",
			clipExpr(e.Text), clipExpr(Unparse(e)))
	}
	return nil
}

// Unparse renders what an expression actually runs, from its checked AST
// (cel-go's unparser), or a note in brackets saying why it cannot. The
// compiler does not keep macro calls in a bundle, so a comprehension (what
// exists, all, map, filter… expand to) is rendered as the call
// __comprehension__(range, var, accumulator, init, condition, step, result)
// of its parts: what runs, without the macro's sugar.
func Unparse(e *bundle.Expr) (s string) {
	var ce exprpb.CheckedExpr
	if err := proto.Unmarshal(e.Checked, &ce); err != nil {
		return "[decoding the checked expression: " + err.Error() + "]"
	}
	defer func() {
		// cel-go trusts a checked AST; a malformed one (only a hostile
		// bundle has one) must not crash the caller.
		if r := recover(); r != nil {
			s = fmt.Sprintf("[cannot render the checked expression: %v]", r)
		}
	}()
	macros := ce.GetSourceInfo().GetMacroCalls()
	ce.Expr = unsugar(ce.GetExpr(), macros)
	a := cel.CheckedExprToAst(&ce)
	s, err := cel.AstToString(a)
	if err != nil {
		return "[cannot render the checked expression: " + err.Error() + "]"
	}
	return s
}

// unsugar returns e with every comprehension that has no macro call
// recorded replaced by a call of __comprehension__ on its parts (see
// Unparse); e itself is not changed.
func unsugar(e *exprpb.Expr, macros map[int64]*exprpb.Expr) *exprpb.Expr {
	if e == nil {
		return nil
	}
	e = proto.Clone(e).(*exprpb.Expr)
	var walk func(x *exprpb.Expr)
	walk = func(x *exprpb.Expr) {
		eachChild(x, walk) // the parts first: x itself is replaced below
		if k, ok := x.GetExprKind().(*exprpb.Expr_ComprehensionExpr); ok {
			c := k.ComprehensionExpr
			if _, ok := macros[x.GetId()]; ok {
				return
			}
			ident := func(name string) *exprpb.Expr {
				return &exprpb.Expr{ExprKind: &exprpb.Expr_IdentExpr{IdentExpr: &exprpb.Expr_Ident{Name: name}}}
			}
			args := []*exprpb.Expr{c.GetIterRange(), ident(c.GetIterVar())}
			if c.GetIterVar2() != "" {
				args = append(args, ident(c.GetIterVar2()))
			}
			args = append(args, ident(c.GetAccuVar()), c.GetAccuInit(), c.GetLoopCondition(), c.GetLoopStep(), c.GetResult())
			x.ExprKind = &exprpb.Expr_CallExpr{CallExpr: &exprpb.Expr_Call{Function: "__comprehension__", Args: args}}
		}
	}
	walk(e)
	return e
}

// clipExpr keeps a message about an expression short: its first 200 bytes,
// on one line.
func clipExpr(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		n := 200
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return s[:n] + "…"
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// QuickCheck is the check eval.Plan always makes (recheck, the full one,
// costs about twice as much again and is inspect --verify's; docs/bundle.md
// has the figures). It parses the text again and requires the parse to be
// the checked AST's expression tree, node for node and id for id (sameTree),
// and every reference the planner reads as a variable (on an identifier or
// a field selection) to name what the text spells there and carry no
// constant value. That pins what runs to the text except for the checker's
// choices among overloads of one function and the recorded types, which
// only recheck covers.
func QuickCheck(env *cel.Env, e *bundle.Expr, ce *exprpb.CheckedExpr) error {
	parsed, iss := env.Parse(e.Text)
	if iss.Err() != nil {
		return fmt.Errorf("its text does not parse: %v", firstLine(iss.Err().Error()))
	}
	pe, err := cel.AstToParsedExpr(parsed)
	if err != nil {
		return fmt.Errorf("re-encoding its text: %w", err)
	}
	// Source positions are not compared: they only place error messages,
	// and the checker keeps fewer of them than the parser makes.
	if !sameTree(pe.GetExpr(), ce.GetExpr()) {
		return fmt.Errorf("its compiled form is not its text's: the text reads %q but what runs reads %q",
			clipExpr(e.Text), clipExpr(Unparse(e)))
	}
	// The planner reads a reference on an identifier, or on a field
	// selection (a namespaced name), as the variable (or constant) to
	// read: it must be the name the text spells there. References on
	// calls (overload ids) are left to the full check.
	names := map[int64]string{} // node id → the name it spells ("" if none)
	var walk func(x *exprpb.Expr)
	walk = func(x *exprpb.Expr) {
		switch k := x.GetExprKind().(type) {
		case *exprpb.Expr_IdentExpr:
			names[x.GetId()] = k.IdentExpr.GetName()
		case *exprpb.Expr_SelectExpr:
			names[x.GetId()], _ = qualifiedName(x)
		}
		eachChild(x, walk)
	}
	walk(ce.GetExpr())
	for id, ref := range ce.GetReferenceMap() {
		name, named := names[id]
		if !named {
			continue
		}
		if name == "" || ref.GetName() != name || ref.GetValue() != nil {
			return fmt.Errorf("its compiled form resolves %q (node %d) to %q%s, not to what the text names", name, id, ref.GetName(), constNote(ref))
		}
	}
	return nil
}

func constNote(ref *exprpb.Reference) string {
	if ref.GetValue() != nil {
		return " with a constant value"
	}
	return ""
}

// sameTree compares a parsed expression tree with a checked one, node for
// node and id for id. The only difference it allows is the checker's
// resolution of a namespaced function: the parse of sets.equivalent(a, b)
// is a call of equivalent on the target sets, the checked form a call of
// the function "sets.equivalent" without a target; the two read the same.
func sameTree(p, c *exprpb.Expr) bool {
	if p == nil || c == nil {
		return p == nil && c == nil
	}
	if p.GetId() != c.GetId() {
		return false
	}
	switch pk := p.GetExprKind().(type) {
	case *exprpb.Expr_CallExpr:
		ck, ok := c.GetExprKind().(*exprpb.Expr_CallExpr)
		if !ok {
			return false
		}
		pc, cc := pk.CallExpr, ck.CallExpr
		if len(pc.GetArgs()) != len(cc.GetArgs()) {
			return false
		}
		for i := range pc.GetArgs() {
			if !sameTree(pc.GetArgs()[i], cc.GetArgs()[i]) {
				return false
			}
		}
		if pc.GetFunction() == cc.GetFunction() {
			return sameTree(pc.GetTarget(), cc.GetTarget())
		}
		q, ok := qualifiedName(pc.GetTarget())
		return ok && cc.GetTarget() == nil && cc.GetFunction() == q+"."+pc.GetFunction()
	case *exprpb.Expr_SelectExpr:
		ck, ok := c.GetExprKind().(*exprpb.Expr_SelectExpr)
		return ok && pk.SelectExpr.GetField() == ck.SelectExpr.GetField() &&
			pk.SelectExpr.GetTestOnly() == ck.SelectExpr.GetTestOnly() &&
			sameTree(pk.SelectExpr.GetOperand(), ck.SelectExpr.GetOperand())
	case *exprpb.Expr_ListExpr:
		ck, ok := c.GetExprKind().(*exprpb.Expr_ListExpr)
		if !ok || len(pk.ListExpr.GetElements()) != len(ck.ListExpr.GetElements()) ||
			!slices.Equal(pk.ListExpr.GetOptionalIndices(), ck.ListExpr.GetOptionalIndices()) {
			return false
		}
		for i, e := range pk.ListExpr.GetElements() {
			if !sameTree(e, ck.ListExpr.GetElements()[i]) {
				return false
			}
		}
		return true
	case *exprpb.Expr_StructExpr:
		ck, ok := c.GetExprKind().(*exprpb.Expr_StructExpr)
		if !ok || pk.StructExpr.GetMessageName() != ck.StructExpr.GetMessageName() ||
			len(pk.StructExpr.GetEntries()) != len(ck.StructExpr.GetEntries()) {
			return false
		}
		for i, pe := range pk.StructExpr.GetEntries() {
			ce := ck.StructExpr.GetEntries()[i]
			if pe.GetId() != ce.GetId() || pe.GetFieldKey() != ce.GetFieldKey() || pe.GetOptionalEntry() != ce.GetOptionalEntry() ||
				!sameTree(pe.GetMapKey(), ce.GetMapKey()) || !sameTree(pe.GetValue(), ce.GetValue()) {
				return false
			}
		}
		return true
	case *exprpb.Expr_ComprehensionExpr:
		ck, ok := c.GetExprKind().(*exprpb.Expr_ComprehensionExpr)
		if !ok {
			return false
		}
		pc, cc := pk.ComprehensionExpr, ck.ComprehensionExpr
		return pc.GetIterVar() == cc.GetIterVar() && pc.GetIterVar2() == cc.GetIterVar2() && pc.GetAccuVar() == cc.GetAccuVar() &&
			sameTree(pc.GetIterRange(), cc.GetIterRange()) && sameTree(pc.GetAccuInit(), cc.GetAccuInit()) &&
			sameTree(pc.GetLoopCondition(), cc.GetLoopCondition()) && sameTree(pc.GetLoopStep(), cc.GetLoopStep()) &&
			sameTree(pc.GetResult(), cc.GetResult())
	}
	// Constants and identifiers (and anything newer): exactly equal.
	return proto.Equal(p, c)
}

// qualifiedName renders an identifier or a chain of field selections on
// one (a.b.c) as a dotted name.
func qualifiedName(e *exprpb.Expr) (string, bool) {
	switch k := e.GetExprKind().(type) {
	case *exprpb.Expr_IdentExpr:
		return k.IdentExpr.GetName(), true
	case *exprpb.Expr_SelectExpr:
		if k.SelectExpr.GetTestOnly() {
			return "", false
		}
		q, ok := qualifiedName(k.SelectExpr.GetOperand())
		return q + "." + k.SelectExpr.GetField(), ok
	}
	return "", false
}

// TextIssues are the expressions and patterns whose compiled form is not
// their text, by index in Bundle.Exprs and Plan.Patterns.
type TextIssues struct {
	Exprs    map[int]error
	Patterns map[int]error
}

// Len is the number of expressions and patterns in disagreement.
func (t TextIssues) Len() int { return len(t.Exprs) + len(t.Patterns) }

// CheckTexts compares every expression's and pattern's text with its
// compiled form, without planning: the checks Plan makes, and with full
// set the full expression check (recompile the text, compare the
// encodings). An error means the bundle's declarations do not even
// rebuild into environments. inspect uses it to show a bundle Plan
// refuses.
func CheckTexts(b *bundle.Bundle, full bool) (TextIssues, error) {
	issues := TextIssues{Exprs: map[int]error{}, Patterns: map[int]error{}}
	out := issues.Exprs
	if err := b.Validate(); err != nil {
		return issues, fmt.Errorf("bundle is inconsistent: %w", err)
	}
	envs, err := NewEnvs(b)
	if err != nil {
		return issues, err
	}
	for i := range b.Plan.Patterns {
		if err := CheckPattern(b, &b.Plan.Patterns[i]); err != nil {
			issues.Patterns[i] = err
		}
	}
	for i := range b.Exprs {
		e := &b.Exprs[i]
		env, err := envs.For(i, *e)
		if err != nil {
			out[i] = err
			continue
		}
		var ce exprpb.CheckedExpr
		if err := proto.Unmarshal(e.Checked, &ce); err != nil {
			out[i] = fmt.Errorf("decoding its checked expression: %w", err)
			continue
		}
		if err := QuickCheck(env, e, &ce); err != nil {
			out[i] = err
			continue
		}
		if full {
			if err := recheck(env, e); err != nil {
				out[i] = err
			}
		}
	}
	return issues, nil
}

// CheckPattern compiles a pattern's text again over its steps' names and
// requires the stored program to be the result, and each step's Refs (and
// the pattern's Keyed steps) to be the earlier steps its guard names, as
// the compiler derives them: the program that runs and the thread
// identities it keeps are then the text's.
func CheckPattern(b *bundle.Bundle, pt *bundle.PatternPlan) error {
	names := make([]string, len(pt.Steps))
	for i, st := range pt.Steps {
		names[i] = st.Name
	}
	prog, err := patterncode.PatternProgram(pt.Text, names)
	if err != nil {
		return fmt.Errorf("its text does not compile: %v", err)
	}
	if !slices.Equal(prog, pt.Program) {
		return fmt.Errorf("its program (%d instructions) is not the one its text %q compiles to (%d instructions)", len(pt.Program), clipExpr(pt.Text), len(prog))
	}
	keyed := map[int]bool{}
	for j, st := range pt.Steps {
		var refs []int
		if st.When != bundle.NoExpr {
			var ce exprpb.CheckedExpr
			if err := proto.Unmarshal(b.Exprs[st.When].Checked, &ce); err != nil {
				return fmt.Errorf("step %s: decoding its guard: %v", st.Name, err)
			}
			used := identNames(ce.GetExpr())
			for k := 0; k < j; k++ {
				if used[pt.Steps[k].Name] {
					refs = append(refs, k)
					keyed[k] = true
				}
			}
		}
		if !slices.Equal(refs, st.Refs) {
			return fmt.Errorf("step %s refers to steps %v, but its guard names steps %v", st.Name, st.Refs, refs)
		}
	}
	var want []int
	for k := range keyed {
		want = append(want, k)
	}
	slices.Sort(want)
	if !slices.Equal(want, pt.Keyed) {
		return fmt.Errorf("it keys steps %v, but its guards name steps %v", pt.Keyed, want)
	}
	return nil
}

// identNames is the set of identifier names in an expression tree.
func identNames(e *exprpb.Expr) map[string]bool {
	out := map[string]bool{}
	var walk func(x *exprpb.Expr)
	walk = func(x *exprpb.Expr) {
		if id := x.GetIdentExpr(); id != nil {
			out[id.GetName()] = true
		}
		eachChild(x, walk)
	}
	walk(e)
	return out
}

// eachChild calls f on each direct subexpression of x that is not nil, in
// source order (a comprehension's range, accumulator, condition, step and
// result): the one place that knows the shape of every expression kind.
func eachChild(x *exprpb.Expr, f func(*exprpb.Expr)) {
	var kids []*exprpb.Expr
	switch k := x.GetExprKind().(type) {
	case *exprpb.Expr_SelectExpr:
		kids = []*exprpb.Expr{k.SelectExpr.GetOperand()}
	case *exprpb.Expr_CallExpr:
		kids = append([]*exprpb.Expr{k.CallExpr.GetTarget()}, k.CallExpr.GetArgs()...)
	case *exprpb.Expr_ListExpr:
		kids = k.ListExpr.GetElements()
	case *exprpb.Expr_StructExpr:
		for _, en := range k.StructExpr.GetEntries() {
			kids = append(kids, en.GetMapKey(), en.GetValue())
		}
	case *exprpb.Expr_ComprehensionExpr:
		c := k.ComprehensionExpr
		kids = []*exprpb.Expr{c.GetIterRange(), c.GetAccuInit(), c.GetLoopCondition(), c.GetLoopStep(), c.GetResult()}
	}
	for _, kid := range kids {
		if kid != nil {
			f(kid)
		}
	}
}
