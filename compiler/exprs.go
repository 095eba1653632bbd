package compiler

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/types"
	"github.com/hashicorp/hcl/v2"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// checkBool checks a criterion that must yield bool (dyn is accepted and
// checked at run time) and returns its expression index, or NoExpr after
// reporting errors.
func (c *compiler) checkBool(e *lang.Expr, kind, owner string) int {
	return c.checkCriterion(c.root, e, kind, owner)
}

// check parses and type-checks e in env. When want is non-nil the result
// type must be one of want (dyn always passes: it is checked at run time).
// drop filters CEL errors the caller already reported in its own words.
// It appends the checked expression to the bundle and returns its index and
// result type, or NoExpr and nil when e has errors.
func (c *compiler) check(in env, e *lang.Expr, kind, owner string, drop func(*cel.Error) bool, want ...*types.Type) (int, *types.Type) {
	if c.skipExpr(e) {
		return bundle.NoExpr, nil
	}
	parsed, iss := in.cel.Parse(e.Text)
	if iss.Err() != nil {
		c.celErrors(in.cel, e, iss, nil, kind, owner, drop)
		return bundle.NoExpr, nil
	}
	return c.checkParsed(in, e, parsed, kind, owner, drop, want...)
}

// env is where an expression is checked: a CEL environment, its kind
// (celenv.KindCriterion, KindSource, KindGate) and, for criteria, the scope
// whose params and predicates it sees.
type env struct {
	cel   *cel.Env
	kind  string
	scope *scope
}

func (c *compiler) checkParsed(in env, e *lang.Expr, parsed *cel.Ast, kind, owner string, drop func(*cel.Error) bool, want ...*types.Type) (int, *types.Type) {
	env, envKind := in.cel, in.kind
	if c.skipExpr(e) {
		return bundle.NoExpr, nil
	}
	// Usage is recorded before checking, so that a declaration whose only
	// user has a type error is not also reported as unused.
	c.used.record(parsed)
	misses := celenv.WatchFieldMisses(env)
	checked, iss := env.Check(parsed)
	if iss.Err() != nil {
		c.celErrors(env, e, iss, parsed, kind, owner, drop, misses()...)
		return bundle.NoExpr, nil
	}
	misses()
	out := checked.OutputType()
	if len(want) > 0 && !typeIn(out, want) {
		names := make([]string, len(want))
		for i, w := range want {
			names[i] = w.String()
			if w.Kind() == types.NullTypeKind {
				names[i] = "null"
			}
		}
		c.errorf("wrong-result-type", e.Range, "Wrong result type",
			fmt.Sprintf("The %s of %s must be %s, but this expression has type %s.", kindWords(kind), owner, strings.Join(names, " or "), out))
		return bundle.NoExpr, nil
	}
	var params map[string]any
	scopeIndex := 0
	if in.scope != nil {
		params, scopeIndex = in.scope.params, in.scope.index
	}
	// Estimating the cost of nested cel.bind takes exponential time in
	// cel-go: bound it first (bindwork.go).
	if !c.checkBindWork(e, checked.NativeRep().Expr(), kind, owner) {
		return bundle.NoExpr, nil
	}
	exprCost := c.estimate(env, e, checked, kind, owner, params)
	ce, err := cel.AstToCheckedExpr(checked)
	if err != nil {
		c.errorf("internal-error", e.Range, "Internal error", fmt.Sprintf("Serializing the checked expression: %v.", err))
		return bundle.NoExpr, nil
	}
	// Deterministic: the checked AST holds maps (types, references, positions).
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(ce)
	if err != nil {
		c.errorf("internal-error", e.Range, "Internal error", fmt.Sprintf("Serializing the checked expression: %v.", err))
		return bundle.NoExpr, nil
	}
	c.checked = append(c.checked, checkedExpr{env: env, ast: checked})
	c.b.Exprs = append(c.b.Exprs, bundle.Expr{
		Kind: kind, Owner: owner, Env: envKind, Text: e.Text, Range: rangeOf(e.Range),
		ResultType: out.String(), Checked: data, Cost: exprCost, Scope: scopeIndex,
	})
	return len(c.b.Exprs) - 1, out
}

func typeIn(t *types.Type, want []*types.Type) bool {
	if t.Kind() == types.DynKind {
		return true
	}
	for _, w := range want {
		if w.IsExactType(t) || (w.Kind() == types.DynKind) {
			return true
		}
	}
	return false
}

// kindWords renders an expression kind for messages: "source.task" → "task expression".
func kindWords(kind string) string {
	if i := strings.LastIndexByte(kind, '.'); i >= 0 {
		kind = kind[i+1:]
	}
	return strings.ReplaceAll(kind, "_", " ") + " expression"
}

// celErrors turns CEL issues into diagnostics located inside the .hcl file,
// each with its code and, where it helps, a suggestion or an explanation.
// misses are the fields the checker looked up in vain, in the order of its
// "undefined field" errors (celenv.WatchFieldMisses).
func (c *compiler) celErrors(env *cel.Env, e *lang.Expr, iss *cel.Issues, parsed *cel.Ast, kind, owner string, drop func(*cel.Error) bool, misses ...celenv.FieldMiss) {
	for _, ce := range iss.Errors() {
		var missed *celenv.FieldMiss // where an undefined field was looked for
		if m := undefinedField.FindStringSubmatch(ce.Message); m != nil {
			for i, miss := range misses {
				if miss.Field == m[1] {
					missed = &miss
					misses = append(misses[:i:i], misses[i+1:]...)
					break
				}
			}
		}
		if drop != nil && drop(ce) {
			continue
		}
		var fields []string // the fields of that type, for a suggestion
		if missed != nil {
			fields = missed.Fields()
		}
		start, end := c.celSpan(e, ce, parsed)
		code, help := c.explain(env, ce.Message, parsed == nil, fields)
		c.diags = append(c.diags, diag.Set(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  celSummary(ce.Message),
			Detail:   fmt.Sprintf("In the %s of %s.%s", kindWords(kind), owner, help),
			Subject:  e.RangeOf(start, end).Ptr(),
		}, code))
	}
}

// celSummary capitalises CEL's message for HCL's diagnostic format and
// drops cel-go's "(in container ”)" noise.
func celSummary(msg string) string {
	msg = strings.TrimSuffix(msg, " (in container '')")
	// tenet adds its own suggestion to the detail, from more names.
	if i := strings.Index(msg, " (did you mean "); i > 0 {
		msg = msg[:i]
	}
	if msg == "" {
		return "Invalid expression"
	}
	r, n := utf8.DecodeRuneInString(msg)
	return strings.ToUpper(string(r)) + msg[n:]
}

var (
	undefinedField = regexp.MustCompile(`^undefined field '([^']*)'`)
	undeclaredRef  = regexp.MustCompile(`^undeclared reference to '([^']*)'`)
)

// explain classifies a CEL message into a diagnostic code and adds a
// suggestion (nearest variable or function, or nearest of fields for an
// undefined field) or an explanation.
func (c *compiler) explain(env *cel.Env, msg string, syntax bool, fields []string) (diag.Code, string) {
	switch {
	case syntax:
		if strings.Contains(msg, "token recognition error") {
			return "cel-syntax", " A CEL string literal cannot span lines: HCL turns \\n inside a quoted .hcl string into a real newline before CEL sees it; write \\\\n to give CEL the escape, or use a heredoc."
		}
		return "cel-syntax", ""
	case strings.HasPrefix(msg, celenv.RegexErrorPrefix):
		return "invalid-regex", " tenet uses Go's regular expressions (RE2 syntax: no backreferences or lookaround; a repetition count is at most 1000)."
	case undefinedField.MatchString(msg):
		name := undefinedField.FindStringSubmatch(msg)[1]
		if now, ok := celenv.RenamedMetric(name); ok && slices.Contains(fields, now) {
			return "unknown-field", fmt.Sprintf(" The metric %s is now called %s, its name in every report. Did you mean %q?", name, now, now)
		}
		return "unknown-field", didYouMean(name, fields)
	case undeclaredRef.MatchString(msg):
		name := undeclaredRef.FindStringSubmatch(msg)[1]
		return "unknown-reference", didYouMean(name, referenceNames(env))
	case strings.Contains(msg, "no matching overload") && strings.Contains(msg, "int") && strings.Contains(msg, "double") &&
		!strings.Contains(msg, "string"):
		return "int-double-compare", " CEL never compares or combines int with double implicitly (1 == 1.0 does not type-check). Numbers from transcripts and params are doubles: write 1.0, not 1. Sizes, indexes and arguments declared int are ints: write 1, or convert with double(...)."
	}
	return "cel-type", ""
}

// referenceNames are the variables, functions and macros of env.
func referenceNames(env *cel.Env) []string {
	var names []string
	for _, v := range env.Variables() {
		names = append(names, v.Name())
	}
	for name := range env.Functions() {
		if !strings.HasPrefix(name, "_") && !strings.Contains(name, "@") {
			names = append(names, name)
		}
	}
	for _, m := range env.Macros() {
		names = append(names, m.Function())
	}
	sort.Strings(names)
	return dedupe(names)
}

// celSpan returns the byte span in e.Text that a CEL error refers to: the
// offending node when CEL names one, else its reported position.
func (c *compiler) celSpan(e *lang.Expr, ce *cel.Error, parsed *cel.Ast) (int, int) {
	if parsed != nil && ce.ExprID != 0 {
		if r, ok := parsed.NativeRep().SourceInfo().GetOffsetRange(ce.ExprID); ok {
			s, t := runeToByte(e.Text, int(r.Start)), runeToByte(e.Text, int(r.Stop))
			if t <= s {
				t = s + 1
			}
			return s, t
		}
	}
	off := locationOffset(e.Text, ce.Location)
	return off, off + 1
}

// locationOffset converts a CEL location (1-based line, 0-based column in
// code points) to a byte offset in text.
func locationOffset(text string, loc common.Location) int {
	if loc == nil || loc.Line() < 1 {
		return 0
	}
	line, col := 1, 0
	for i, r := range text {
		if line == loc.Line() && col == loc.Column() {
			return i
		}
		if r == '\n' {
			if line == loc.Line() {
				return i
			}
			line++
			col = 0
			continue
		}
		if line == loc.Line() {
			col++
		}
	}
	return len(text)
}

// runeToByte converts a code-point offset in text to a byte offset.
func runeToByte(text string, n int) int {
	i := 0
	for b := range text {
		if i == n {
			return b
		}
		i++
	}
	return len(text)
}
