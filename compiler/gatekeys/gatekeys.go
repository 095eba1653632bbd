// Package gatekeys refuses, in a gate requirement, a literal key of a
// metrics map whose keys are known when the contract is built
// (metrics.joint_utility_attack's fixed keys, metrics.failures' declared
// failure classes). It takes the requirement's text and parsed form and
// gives diagnostics; it imports lang and lang/diag of tenet.
package gatekeys

import (
	"fmt"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// jointKeys are the keys of metrics.joint_utility_attack (eval/gates).
var jointKeys = []string{"attack_only", "both", "neither", "utility_only"}

// Check refuses a literal key of metrics.joint_utility_attack or
// metrics.failures that the map cannot hold. Both maps' keys are known when
// the contract is built (fixed, and the declared failure classes); a typo
// would otherwise pass tenet check and fail at eval as a gate requirement
// that "cannot be evaluated" — exit 1, like a real regression.
func Check(e *lang.Expr, parsed *cel.Ast, failures []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	keysOf := func(x ast.Expr) (string, []string) {
		if x.Kind() != ast.SelectKind {
			return "", nil
		}
		sel := x.AsSelect()
		if op := sel.Operand(); op.Kind() != ast.IdentKind || op.AsIdent() != "metrics" {
			return "", nil
		}
		switch sel.FieldName() {
		case "joint_utility_attack":
			return "metrics.joint_utility_attack", jointKeys
		case "failures":
			return "metrics.failures", failures
		}
		return "", nil
	}
	info := parsed.NativeRep().SourceInfo()
	ast.PreOrderVisit(parsed.NativeRep().Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		var m ast.Expr
		var key string
		switch x.Kind() {
		case ast.SelectKind:
			if x.AsSelect().IsTestOnly() {
				return // has(metrics.failures.x) asks; it does not read
			}
			m, key = x.AsSelect().Operand(), x.AsSelect().FieldName()
		case ast.CallKind:
			call := x.AsCall()
			if call.FunctionName() != operators.Index || len(call.Args()) != 2 || call.Args()[1].Kind() != ast.LiteralKind {
				return
			}
			s, ok := call.Args()[1].AsLiteral().Value().(string)
			if !ok {
				return
			}
			m, key = call.Args()[0], s
		default:
			return
		}
		name, keys := keysOf(m)
		if name == "" || slices.Contains(keys, key) {
			return
		}
		start, end := 0, len(e.Text)
		if r, ok := info.GetOffsetRange(x.ID()); ok {
			start, end = byteOffset(e.Text, int(r.Start)), byteOffset(e.Text, int(r.Stop))
			if end <= start {
				end = start + 1
			}
		}
		held := "no key: the contract declares no failure class"
		if len(keys) > 0 {
			held = fmt.Sprintf("the keys %q", keys)
		}
		diags = append(diags, diag.Set(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown key",
			Detail:   fmt.Sprintf("%s has no key %q (it holds %s), so this requirement could never be evaluated.%s", name, key, held, suggestion(key, keys)),
			Subject:  e.RangeOf(start, end).Ptr(),
		}, "unknown-field"))
	}))
	return diags
}

// byteOffset converts CEL's code-point offset n in text to a byte offset.
func byteOffset(text string, n int) int {
	r := []rune(text)
	if n > len(r) {
		n = len(r)
	}
	return len(string(r[:n]))
}

func suggestion(name string, candidates []string) string {
	if s := diag.Suggest(name, candidates); s != "" {
		return ` Did you mean "` + s + `"?`
	}
	return ""
}
