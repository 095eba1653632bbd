package compiler

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/types"
	"github.com/hashicorp/hcl/v2"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang"
)

// checkBool checks a criterion that must yield bool (dyn is accepted and
// checked at run time) and returns its expression index, or NoExpr after
// reporting errors.
func (c *compiler) checkBool(e *lang.Expr, kind, owner string) int {
	return c.checkCriterion(e, kind, owner)
}

// check parses and type-checks e in env. When want is non-nil the result
// type must be one of want (dyn always passes: it is checked at run time).
// drop filters CEL errors the caller already reported in its own words.
// It appends the checked expression to the bundle and returns its index and
// result type, or NoExpr and nil when e has errors.
func (c *compiler) check(env *cel.Env, envKind string, e *lang.Expr, kind, owner string, drop func(*cel.Error) bool, want ...*types.Type) (int, *types.Type) {
	parsed, iss := env.Parse(e.Text)
	if iss.Err() != nil {
		c.celErrors(e, iss, nil, kind, owner, drop)
		return bundle.NoExpr, nil
	}
	return c.checkParsed(env, envKind, e, parsed, kind, owner, drop, want...)
}

func (c *compiler) checkParsed(env *cel.Env, envKind string, e *lang.Expr, parsed *cel.Ast, kind, owner string, drop func(*cel.Error) bool, want ...*types.Type) (int, *types.Type) {
	checked, iss := env.Check(parsed)
	if iss.Err() != nil {
		c.celErrors(e, iss, parsed, kind, owner, drop)
		return bundle.NoExpr, nil
	}
	out := checked.OutputType()
	if len(want) > 0 && !typeIn(out, want) {
		names := make([]string, len(want))
		for i, w := range want {
			names[i] = w.String()
			if w.Kind() == types.NullTypeKind {
				names[i] = "null"
			}
		}
		c.errorf(e.Range, "Wrong result type",
			fmt.Sprintf("The %s of %s must be %s, but this expression has type %s.", kindWords(kind), owner, strings.Join(names, " or "), out))
		return bundle.NoExpr, nil
	}
	ce, err := cel.AstToCheckedExpr(checked)
	if err != nil {
		c.errorf(e.Range, "Internal error", fmt.Sprintf("Serializing the checked expression: %v.", err))
		return bundle.NoExpr, nil
	}
	// Deterministic: the checked AST holds maps (types, references, positions).
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(ce)
	if err != nil {
		c.errorf(e.Range, "Internal error", fmt.Sprintf("Serializing the checked expression: %v.", err))
		return bundle.NoExpr, nil
	}
	c.b.Exprs = append(c.b.Exprs, bundle.Expr{
		Kind: kind, Owner: owner, Env: envKind, Text: e.Text, Range: rangeOf(e.Range),
		ResultType: out.String(), Checked: data,
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

// celErrors turns CEL issues into diagnostics located inside the .hcl file.
func (c *compiler) celErrors(e *lang.Expr, iss *cel.Issues, parsed *cel.Ast, kind, owner string, drop func(*cel.Error) bool) {
	for _, ce := range iss.Errors() {
		if drop != nil && drop(ce) {
			continue
		}
		start, end := c.celSpan(e, ce, parsed)
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  celSummary(ce.Message),
			Detail:   fmt.Sprintf("In the %s of %s.%s", kindWords(kind), owner, hint(ce.Message)),
			Subject:  e.RangeOf(start, end).Ptr(),
		})
	}
}

// celSummary capitalises CEL's message for HCL's diagnostic format.
func celSummary(msg string) string {
	if msg == "" {
		return "Invalid expression"
	}
	r, n := utf8.DecodeRuneInString(msg)
	return strings.ToUpper(string(r)) + msg[n:]
}

// hint explains CEL messages whose cause is not obvious.
func hint(msg string) string {
	switch {
	case strings.Contains(msg, "_==_") && strings.Contains(msg, "int") && strings.Contains(msg, "double"),
		strings.Contains(msg, "_!=_") && strings.Contains(msg, "int") && strings.Contains(msg, "double"),
		strings.Contains(msg, "_<") && strings.Contains(msg, "int") && strings.Contains(msg, "double"),
		strings.Contains(msg, "_>") && strings.Contains(msg, "int") && strings.Contains(msg, "double"):
		return " CEL never compares int with double implicitly (1 == 1.0 does not type-check). Numbers from transcripts and params are doubles: write 1.0, not 1. Sizes and indexes are ints: write 1, or convert with double(...)."
	}
	return ""
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
