package sourcetext

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/lang/diag"
)

// attr parses `x = <src>` and returns the expression of x with the file's tokens.
func attr(t *testing.T, src string) (hcl.Expression, hclsyntax.Tokens) {
	t.Helper()
	text := []byte("x = " + src + "\n")
	f, diags := hclsyntax.ParseConfig(text, "f.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	toks, _ := hclsyntax.LexConfig(text, "f.hcl", hcl.InitialPos)
	return f.Body.(*hclsyntax.Body).Attributes["x"].Expr, toks
}

func TestInterpolations(t *testing.T) {
	// One report per kind, each at its own sequence; a nested ${} inside
	// the directive is not reported again.
	expr, toks := attr(t, `"a ${b} %{ if c }${d}%{ endif } ${e}"`)
	ds := Interpolations(Criterion, "expr", expr, toks)
	if len(ds) != 2 || ds[0].Subject.Start.Column != 8 || ds[0].Subject.End.Column != 12 ||
		ds[1].Subject.Start.Column != 13 || ds[1].Summary != "Criterion contains an HCL template directive" {
		t.Fatalf("diagnostics %v", ds)
	}
	if c := diag.Of(ds[0]); c != diag.CriterionInterpolation {
		t.Errorf("code %v", c)
	}
	// Without the file's tokens the whole expression is reported once.
	ds = Interpolations(Pattern, "match", expr, nil)
	if len(ds) != 1 || *ds[0].Subject != expr.Range() || ds[0].Summary != "Pattern contains an HCL interpolation" {
		t.Errorf("without tokens: %v", ds)
	}
}

func TestNotStringAndDescribe(t *testing.T) {
	for src, want := range map[string]string{
		"1":           "a number",
		"null":        "null",
		"[1]":         "a list",
		"{a = 1}":     "an object",
		"foo":         "a bare reference (put the CEL expression in quotes)",
		"(\"a\")":     "a parenthesized expression (write the string literal without parentheses)",
		"upper(\"\")": "a function call (put the CEL expression in quotes)",
	} {
		expr, _ := attr(t, src)
		if got := Describe(expr); got != want {
			t.Errorf("Describe(%s) = %q, want %q", src, got, want)
		}
	}
	expr, _ := attr(t, "true")
	d := NotString(Criterion, "require", expr, true)
	if d.Summary != "Criterion must be a string" || d.Detail != `Each require criterion is a CEL expression written as an HCL string, quoted (require = ["..."]) or as a heredoc (<<EOT); found a bool.` {
		t.Errorf("NotString: %q: %q", d.Summary, d.Detail)
	}
}
