package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// badInputs are contract files with mistakes of every kind lang reports,
// HCL's own (syntax, schema, evaluation) included.
var badInputs = []string{
	// Syntax.
	`contract "c" {`,
	`contract "c" { version = "1" `,
	`task "t" { utility = "x }`,
	"task \"t\" { utility = \"\\q\" }",
	"task \"t\" {\n  utility = <<EOT\nx\n}\n",
	`task "t" { utility = "a" utility = "b" }`,
	"task \"t\" {\n  utility = \"a\"\n  utility = \"b\"\n}\n",
	`= 1`,
	`task "t" "u" { utility = "x" }`,
	`task { utility = "x" }`,
	`threat_model "x" {}`,
	"\x00\xff",
	"params {\n  a = [for x in [1]: x]\n  b = 1 + \"x\"\n  c = { a = 1, a = 2 }\n  d = [1][3]\n  e = unknown_fn(1)\n  f = x.y\n  g = true ? 1 : \"x\"\n}\n",
	"params {\n  a = {\n    b = 1\n  }\n  block {}\n}\n",
	"task \"t\" { utility = \"${\" }",
	"task \"t\" { utility = \"%{ if }\" }",
	"task \"t\" { utility = \"%{ endif }\" }",
	"params {\n  x = " + nested(MaxNesting+1) + "\n}\n",
	"task \"t\" {\n  utility = <<-CEL\n" + strings.Repeat("  true ||\n", MaxStringParts) + "  false\n  CEL\n}\n",
	// Schema and values.
	`contrct "x" {}`,
	"task \"t\" {\n  utility = \"true\"\n  promt = \"x\"\n}\n",
	`task "t" {}`,
	"grant \"g\" {}\n",
	"registry { operations = [\"read\"] }\nregistry { operations = [\"read\"] }\n",
	"tool \"t\" { operation = \"read\" }\ntool \"t\" { operation = \"read\" }\n",
	"tool \"send-money\" { operation = \"read\" }\n",
	"tool \"var\" { operation = \"read\" }\n",
	"task \"t\" { utility = true }\n",
	"task \"t\" { utility = \"${x}\" }\n",
	"tool \"t\" {\n  operation = \"read\"\n  params = { a = lsit(string) }\n}\n",
	"threat_model { attempt_budget = \"x\" }\n",
	"invariant \"i\" {\n  severity = \"hgh\"\n  assert   = \"true\"\n}\n",
	"invariant \"i\" {\n  step \"a\" { call = \"x\" }\n}\n",
	"predicate \"p\" {\n  expr  = \"true\"\n  match = \"a (\"\n}\n",
	"task \"t\" {\n  step \"calls\" { role = \"user\" }\n  step \"x\" {\n    call = \"t\"\n    role = \"user\"\n  }\n  match = \"calls b\"\n}\n",
	"test \"t\" {\n  transcript = \"x\"\n  expect     = { utilty = true, utility = 1, exposed = \"x\" }\n}\n",
	"test \"t\" {\n  transcript = \"x\"\n  expect     = { utility = true, utility = false }\n}\n",
	"use \"../x\" { as = \"let\" }\nuse \"../y\" { as = \"let\" }\nuse \"/abs\" {}\n",
}

// nested returns n nested lists.
func nested(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += "["
	}
	for i := 0; i < n; i++ {
		s += "]"
	}
	return s
}

// langCodes lists every code lang reports.
var langCodes = []diag.Code{
	diag.HCLSyntax, diag.NestingTooDeep, diag.ReadError, diag.NoContractFiles, diag.MissingContract, diag.UnknownBlock,
	diag.UnknownAttribute, diag.MissingAttribute, diag.MissingBlock, diag.DuplicateAttribute,
	diag.DuplicateBlock, diag.DuplicateName, diag.InvalidLabels, diag.InvalidName, diag.ReservedWord, diag.CriterionNotString,
	diag.CriterionInterpolation, diag.InvalidType, diag.WrongValueType, diag.InvalidValue, diag.NotConstant,
	diag.ConflictingAttributes, diag.PatternSyntax, diag.UnknownStep, diag.UnusedStep, diag.StepShadowsVariable, diag.UseCycle, diag.UseMissing, diag.UseDuplicate, diag.UseTooDeep, diag.StringTooLarge, diag.InternalError,
}

// TestEveryDiagnosticHasACode parses bad inputs and checks that every
// diagnostic carries a registered code, and that every code lang registers
// is produced by some input (internal-error, a bug, excepted).
func TestEveryDiagnosticHasACode(t *testing.T) {
	seen := map[diag.Code]bool{}
	check := func(what string, diags hcl.Diagnostics) {
		t.Helper()
		if len(diags) == 0 {
			t.Errorf("%s: no diagnostics", what)
		}
		for _, d := range diags {
			checkCode(t, d)
			seen[diag.Of(d)] = true
		}
	}
	for _, src := range badInputs {
		_, diags := ParseFiles("dir", map[string][]byte{"a.tenet.hcl": []byte(src)})
		check(src, diags)
	}
	_, diags := ParseFiles("dir", map[string][]byte{"a.txt": nil})
	check("no files", diags)

	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"a/m.tenet.hcl":   "contract \"a\" {}\nuse \"../b\" {}\nuse \"../none\" {}\nuse \"../b/\" { as = \"b2\" }\n",
		"b/m.tenet.hcl":   "use \"../a\" {}\n",
		"d0/m.tenet.hcl":  "contract \"c\" {}\nuse \".\" {}\n",
		"lib/m.tenet.hcl": "\n",
	})
	_, diags = ParseDir(filepath.Join(tmp, "a"))
	check("imports", diags)
	_, diags = ParseDir(filepath.Join(tmp, "missing"))
	check("missing directory", diags)
	_, diags = ParseDir(filepath.Join(tmp, "lib"))
	check("missing contract", diags)
	if os.Getuid() != 0 { // root reads anything
		p := filepath.Join(tmp, "lib", "secret.tenet.hcl")
		if err := os.WriteFile(p, nil, 0); err != nil {
			t.Fatal(err)
		}
		_, diags = ParseDir(filepath.Join(tmp, "lib"))
		check("unreadable file", diags)
	}
	// use-too-deep is covered by TestUseTooDeep.
	seen[diag.UseTooDeep] = true

	for _, c := range langCodes {
		if _, ok := diag.Lookup(c); !ok {
			t.Errorf("code %s is not registered", c)
		}
		if !seen[c] && c != diag.InternalError {
			t.Errorf("no input produced code %s", c)
		}
	}
}
