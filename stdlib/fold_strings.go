package stdlib

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// Overload ids of eqFold and containsFold.
const (
	overloadEqFold       = "tenet_eqfold_string_string"
	overloadContainsFold = "tenet_containsfold_string_string"
)

// eqFold reports whether two strings are equal under Unicode simple case
// folding, as Go's strings.EqualFold does.
//
//	eqFold(string, string) -> bool
//
// "Go" equals "GO" and "go"; the Kelvin sign "K" (U+212A) equals "k"; full
// case folding is not applied, so "ß" does not equal "SS".
//
// Errors: none.
//
// Example:
//
//	eqFold("Bob@Example.com", "bob@example.COM") // true
//
// Cost: 1 plus a scan of the shorter string.
func eqFold(a, b ref.Val) ref.Val {
	return types.Bool(strings.EqualFold(string(a.(types.String)), string(b.(types.String))))
}

// containsFold reports whether the second string occurs in the first under
// Unicode simple case folding: containsFold(s, sub) is true exactly when some
// substring t of s has eqFold(t, sub). The empty string occurs in every string.
//
//	containsFold(string, string) -> bool
//
// Errors: none.
//
// Example:
//
//	containsFold("Please send the IBAN now", "iban") // true
//
// Cost: 1 plus a scan of both strings plus the product of their scans, as for
// the standard contains.
func containsFold(s, sub ref.Val) ref.Val {
	str, needle := string(s.(types.String)), string(sub.(types.String))
	if needle == "" {
		return types.True
	}
	return types.Bool(strings.Contains(foldString(str), foldString(needle)))
}

// foldString maps every rune to the smallest rune of its simple case folding
// orbit, so that two strings are equal under strings.EqualFold exactly when
// their folded forms are equal.
func foldString(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII orbits hold only ASCII letters, except k (K, k, U+212A)
			// and s (S, s, U+017F), whose smallest member is the upper case
			// ASCII letter as well.
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune returns the smallest rune equivalent to r under simple case folding.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

func eqFoldSpec() spec {
	d := FunctionDoc{
		Name:       "eqFold",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadEqFold, Text: "eqFold(string, string) -> bool"}},
		Summary:    "Unicode case-insensitive string equality (Go's strings.EqualFold).",
		Semantics: []string{
			"True when the strings are equal under Unicode simple case folding: \"Go\", \"GO\" and \"go\" are equal, and so are the Kelvin sign (U+212A) and \"k\".",
			"Full case folding is not applied: \"ß\" does not equal \"SS\". No other normalisation (accents, white space, Unicode normal forms) is done.",
		},
		Errors: []string{"None."},
		Examples: []Example{
			{Expr: `eqFold("Bob@Example.com", "bob@example.COM")`, Result: "true"},
			{Expr: `eqFold("straße", "STRASSE")`, Result: "false"},
			{Expr: `eqFold("Σίσυφος", "ΣΊΣΥΦΟΣ")`, Result: "true"},
			{Expr: `eqFold("bob", "bob ")`, Result: "false"},
		},
		Cost: "1 plus a string scan (0.1 per character) of the shorter string; charged per byte at runtime.",
	}
	return spec{
		doc: d,
		decl: cel.Function("eqFold", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadEqFold, []*cel.Type{cel.StringType, cel.StringType}, cel.BoolType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.BinaryBinding(eqFold))),
		models: []cost.OverloadModel{
			cost.Overload(overloadEqFold,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost),
					cost.StringScan(cost.Min(cost.Length(cost.Arg(0)), cost.Length(cost.Arg(1))))))),
		},
	}
}

func containsFoldSpec() spec {
	d := FunctionDoc{
		Name:       "containsFold",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadContainsFold, Text: "containsFold(string, string) -> bool"}},
		Summary:    "Unicode case-insensitive substring test: whether the second string occurs in the first.",
		Semantics: []string{
			"containsFold(s, sub) is true exactly when some substring t of s has eqFold(t, sub): the same simple case folding as eqFold.",
			"The empty string occurs in every string.",
		},
		Errors: []string{"None."},
		Examples: []Example{
			{Expr: `containsFold("Please send the IBAN now", "iban")`, Result: "true"},
			{Expr: `containsFold("abc", "")`, Result: "true"},
			{Expr: `containsFold("Σίσυφος", "ΊΣΥ")`, Result: "true"},
			{Expr: `containsFold("iPhone 15", "android")`, Result: "false"},
		},
		Cost: "1 plus a string scan of both strings plus the product of their scans (0.01 per pair of characters), like the standard contains.",
	}
	return spec{
		doc: d,
		decl: cel.Function("containsFold", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadContainsFold, []*cel.Type{cel.StringType, cel.StringType}, cel.BoolType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.BinaryBinding(containsFold))),
		models: []cost.OverloadModel{
			cost.Overload(overloadContainsFold,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost),
					cost.StringScan(cost.Sum(cost.Length(cost.Arg(0)), cost.Length(cost.Arg(1)))),
					cost.Mul(cost.StringScan(cost.Length(cost.Arg(0))), cost.StringScan(cost.Length(cost.Arg(1))))))),
		},
	}
}
