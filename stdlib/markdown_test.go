package stdlib

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite ../docs/stdlib.md from Functions() and Extensions()")

const docsPath = "../docs/stdlib.md"

// docs/stdlib.md is generated from Functions and Extensions, so it cannot
// drift from the code. Regenerate it with
//
//	go test ./stdlib -run TestDocsUpToDate -update
func TestDocsUpToDate(t *testing.T) {
	want := renderMarkdown()
	if *update {
		if err := os.WriteFile(docsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatalf("%v (regenerate with: go test ./stdlib -run TestDocsUpToDate -update)", err)
	}
	if string(got) != want {
		t.Errorf("%s is out of date; regenerate it with: go test ./stdlib -run TestDocsUpToDate -update", docsPath)
	}
}

func renderMarkdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Standard library\n\n")
	p("<!-- Generated from stdlib.Functions() and stdlib.Extensions() by `go test ./stdlib -run TestDocsUpToDate -update`. Edit the Go sources, not this file. -->\n\n")
	p("Every criterion is a CEL expression checked and run in one environment, configured by `stdlib.Library()`\n")
	p("(package `github.com/tenetlang/tenet/stdlib`). It adds tenet's functions below and a fixed set of cel-go\n")
	p("extensions at pinned versions to the CEL standard library, so that a bundle checked today means the same tomorrow.\n\n")

	p("## Functions\n\n")
	p("| name | signature | summary |\n| --- | --- | --- |\n")
	for _, d := range Functions() {
		var sigs []string
		for _, s := range d.Signatures {
			sigs = append(sigs, "`"+s.Text+"`")
		}
		p("| [%s](#%s) | %s | %s |\n", d.Name, strings.ToLower(d.Name), strings.Join(sigs, "<br>"), strings.ReplaceAll(d.Summary, "|", "\\|"))
	}
	p("\n")

	for _, d := range Functions() {
		p("### %s\n\n", d.Name)
		p("```\n")
		for _, s := range d.Signatures {
			if s.Overload != "" {
				p("%s    // overload %s\n", s.Text, s.Overload)
			} else {
				p("%s    // macro\n", s.Text)
			}
		}
		p("```\n\n")
		p("%s\n\n", d.Summary)
		for _, para := range d.Semantics {
			p("%s\n\n", para)
		}
		p("**Errors**\n\n")
		for _, e := range d.Errors {
			p("- %s\n", e)
		}
		p("\n**Examples**\n\n```cel\n")
		width := 0
		for _, e := range d.Examples {
			width = max(width, len(e.Expr))
		}
		for _, e := range d.Examples {
			outcome := e.Result
			if e.Error != "" {
				outcome = "error: " + e.Error
			}
			p("%-*s  // %s\n", width, e.Expr, outcome)
		}
		p("```\n\n")
		p("**Cost**: %s\n\n", d.Cost)
	}

	p("## cel-go extensions\n\n")
	p("`Library()` enables these cel-go (`cel.dev/cel-go` v0.33.2) libraries at pinned versions, the newest each offers in\n")
	p("that release. A cel-go upgrade therefore adds no function and changes no macro until a pin is raised deliberately\n")
	p("(`TestPinnedVersionsAreLatest` fails when an upgrade brings a newer library version).\n\n")
	p("| library | option | version | documentation |\n| --- | --- | --- | --- |\n")
	for _, e := range Extensions() {
		p("| `%s` | `%s` | %d | [docs](%s) |\n", e.Name, e.Option, e.Version, e.Doc)
	}
	p("\n")
	p("The cost model revision is pinned as well: `cel.CostModelVersion(%d)`, so static estimates and runtime charges\n", CostModelVersion)
	p("recorded in a bundle stay comparable across cel-go upgrades.\n\n")
	p("Not enabled: `ext.Regex`, `ext.Network`, `ext.Protos`, `ext.NativeTypes` and the other cel-go extensions.\n")
	p("The encoders extension's `json.parse` and `yaml.parse` are available, but their cost is estimated as unbounded;\n")
	p("prefer `parseJSON` and `parseYAML` in criteria.\n\n")

	p("## Notes on cost estimation\n\n")
	p("- Costs grow with the size of the values a function reads. Where an input's size is unknown to the estimator\n")
	p("  (a `dyn` tool argument, a transcript string without a size hint), functions that must read all of it\n")
	p("  (`eqFold` of two unknown strings, `containsFold`, `parseJSON`, `parseYAML`, like the standard `contains`) are\n")
	p("  estimated as unbounded. `num`, `approx` and `parseTime` refuse inputs longer than a fixed limit (256 and 64\n")
	p("  bytes) and are always bounded;\n")
	p("  `truthy` and `arg` are constant.\n")
	p("- The size of a parsed document, and of its entries two levels deep, is bounded by the text's size. cel-go carries\n")
	p("  sizes through indexing but not through field selection: `parseJSON(s)['items'].exists(...)` is bounded,\n")
	p("  `parseJSON(s).items.exists(...)` is not (both evaluate the same).\n")
	p("- `fold` is estimated as the comprehension it expands to, with the accumulator at the size of INIT while pricing\n")
	p("  STEP; a STEP that iterates over a growing accumulator is underestimated statically, and runtime cost tracking\n")
	p("  charges the real cost.\n\n")

	p("## Runtime charges\n\n")
	p("cel-go charges some calls at runtime below the work they do, and the difference, repeated by a comprehension,\n")
	p("is unbounded time under any run cost limit. tenet replaces the runtime charge of these calls (estimates, and so\n")
	p("bundle ids, are unchanged). A scan is 0.1 per byte, rounded up; lengths are in bytes, read without scanning\n")
	p("the text. Calls on `dyn` values, dispatched at runtime, are charged the same (`stdlib.CallCosts`).\n")
	p("See [robustness.md](robustness.md#bounding-a-runs-work).\n\n")
	p("Calls that build a string, bytes or a list (from `s + t` on) are charged by what they build as well as what\n")
	p("they read (`l + l`, which cel-go builds lazily, by its shorter operand), so the values a run builds are bounded\n")
	p("by its cost limit and a value doubled by a comprehension reaches the limit after about log2(limit) steps. A\n")
	p("charge comes after its call returns, so the calls whose one step can build far more than their inputs hold\n")
	p("(`join` or `format` of a list holding one string many times, `replace` of `''`, `split`, `flatten`,\n")
	p("`json.encode`, `yaml.encode`, `strings.quote`, and `reverse`, `slice`, `distinct` of a list built by `l + l`)\n")
	p("first bound what they would build, without allocating, and return an error (the label is unknown with the\n")
	p("reason) when it could exceed 256 MiB (`stdlib.maxBuildBytes`; a list element counts 32 bytes). Every other\n")
	p("call builds at most a constant times its inputs' bytes: case conversion, `trim`, `substring`, `charAt`,\n")
	p("`reverse` of a string, `bytes(s)`, `string(b)`, base64 (4/3), `lists.range(n)` (ext.Lists refuses n over\n")
	p("10^6), format's numbers (precision at most 100, ext.Strings).\n\n")
	p("| calls | overloads | runtime charge |\n| --- | --- | --- |\n")
	for _, c := range RuntimeCharges() {
		p("| %s | `%s` | %s |\n", c.Calls, strings.Join(c.Overloads, "`, `"), c.Cost)
	}
	return b.String()
}
