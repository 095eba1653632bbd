package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/stdlib"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/diagnostics.md from lang/diag")

// goldens returns the text of every testscript golden under testdata/.
func goldens(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// TestEveryDiagnosticHasAGolden fails when a registered diagnostic code is
// not shown by any golden (as "[code]" in expected output), so every
// diagnostic's text is pinned somewhere.
func TestEveryDiagnosticHasAGolden(t *testing.T) {
	gs := goldens(t)
	for _, info := range diag.All() {
		if info.Code == "internal-error" {
			continue // a bug in tenet, not a mistake input can make
		}
		tag := "[" + string(info.Code) + "]"
		found := false
		for _, text := range gs {
			if strings.Contains(text, tag) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("diagnostic %s has no golden: add a testdata/*.txtar whose expected output shows it", tag)
		}
	}
}

// TestEveryStdlibFunctionHasAGolden fails when a stdlib function or macro
// has no testdata/stdlib_<name>.txtar that uses it.
func TestEveryStdlibFunctionHasAGolden(t *testing.T) {
	gs := goldens(t)
	for _, f := range stdlib.Functions() {
		name := "stdlib_" + strings.ToLower(f.Name) + ".txtar"
		text, ok := gs[name]
		switch {
		case !ok:
			t.Errorf("stdlib function %s has no golden testdata/%s", f.Name, name)
		case !strings.Contains(text, f.Name+"("):
			t.Errorf("testdata/%s does not call %s", name, f.Name)
		}
	}
}

// TestDiagnosticsDoc keeps docs/diagnostics.md equal to the registry
// (go test ./cmd/tenet -run TestDiagnosticsDoc -update-docs rewrites it).
func TestDiagnosticsDoc(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Diagnostics\n\n<!-- Generated from lang/diag by `go test ./cmd/tenet -run TestDiagnosticsDoc -update-docs`. Edit lang/diag, not this file. -->\n\n")
	b.WriteString("Every diagnostic `tenet check`, `build`, `eval` and `test` print carries a stable code, shown in brackets after its\n")
	b.WriteString("location: `file:line:col: [code] Error: summary`. Codes never change meaning; each has a golden test under `testdata/`.\n\n")
	b.WriteString("| code | severity | title |\n| --- | --- | --- |\n")
	for _, i := range diag.All() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", i.Code, i.Code, severity(i.Severity), i.Title)
	}
	for _, i := range diag.All() {
		fmt.Fprintf(&b, "\n## %s\n\n%s. %s\n", i.Code, severity(i.Severity), i.Doc)
	}
	path := filepath.Join("..", "..", "docs", "diagnostics.md")
	if *updateDocs {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-docs)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("docs/diagnostics.md is out of date: run go test ./cmd/tenet -run TestDiagnosticsDoc -update-docs")
	}
}

func severity(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "Warning"
	}
	return "Error"
}

// TestEveryBlockAndAttributeHasAGolden fails when a block or an attribute of
// the language appears in no golden's contract.
func TestEveryBlockAndAttributeHasAGolden(t *testing.T) {
	var all strings.Builder
	for _, text := range goldens(t) {
		all.WriteString(text)
	}
	text := all.String()
	for block, attrs := range lang.Syntax() {
		name := block[strings.LastIndex(block, ".")+1:]
		if !regexp.MustCompile(`(?m)^\s*` + name + `(\s+"[^"]*")*\s*\{`).MatchString(text) {
			t.Errorf("block %s appears in no golden", block)
		}
		for _, a := range attrs {
			if !regexp.MustCompile(`(?m)^\s*`+a+`\s*=`).MatchString(text) &&
				!regexp.MustCompile(`[{,]\s*`+a+`\s*=`).MatchString(text) {
				t.Errorf("attribute %s.%s appears in no golden", block, a)
			}
		}
	}
}
