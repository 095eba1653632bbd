package contractarg

import (
	"fmt"
	"io"
	"regexp"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/lang"
)

// Sources are the contract sources a resolved argument names, for the
// check that an output does not overwrite one.
func Sources(a Arg) []string {
	var files []string
	for _, p := range a.Paths {
		files = append(files, lang.SourceFiles(p)...)
	}
	return files
}

// TestSelection is tenet test --run: a Go regular expression the names of
// the tests run must match ("" runs every test). An invalid expression is
// refused, naming the flag.
func TestSelection(expr string) (func(name string) bool, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("--run %q: not a regular expression (Go syntax, as go test -run takes): %w", expr, err)
	}
	return re.MatchString, nil
}

// Test builds each contract directory a names (tenet.Build: the test
// blocks are in the sources, never in a bundle or the compile cache) and
// runs its test blocks, those opts.Select picks: one Document for all, its
// results in contract order, the contracts of a directory under headings
// (report.BuildTestsOf). Contracts without tests are built and listed,
// not run. Bundles are refused: they carry no test blocks. When a
// selection picks no test, the Document says so in a warning ("no tests
// to run", as go test -run says) and has exit code 0; when no contract
// has a test block, it has neither tests nor warnings. A *tenet.BuildError is returned as is, its diagnostics
// written to stderr.
func Test(a Arg, opts tenet.TestOptions, stderr io.Writer) (*report.Document, error) {
	if a.Compiled() {
		return nil, fmt.Errorf("%s is a %s: bundles carry no test blocks; run tenet test on the contract directory (or the directory of contract directories) they were built from", a.Path, a.Kind)
	}
	var cs []report.Contract
	var results []report.TestResult
	bs := make([]*tenet.Bundle, len(a.Paths))
	declared := 0
	for i, dir := range a.Paths {
		b, err := tenet.Build(dir, Diagnostics(stderr))
		if err != nil {
			return nil, err
		}
		bs[i] = b
		declared += len(b.Tests())
		m := b.Contract().Manifest
		cs = append(cs, report.Contract{Name: m.Contract, Version: m.Version, Bundle: b.ID()})
		if !selects(b.Tests(), opts.Select) {
			continue
		}
		d, err := b.Test(opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		results = append(results, d.Tests...)
	}
	if err := Distinct(a.Paths, bs); err != nil {
		return nil, err
	}
	d := report.BuildTestsOf(compiler.Version, cs, results)
	if len(results) == 0 && declared > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("no tests to run: --run matches none of the %s", report.Count(declared, "test")))
	}
	return d, nil
}

// selects reports whether sel picks one of tests (nil picks all).
func selects(tests []compiler.TestSpec, sel func(string) bool) bool {
	for _, t := range tests {
		if sel == nil || sel(t.Name) {
			return true
		}
	}
	return false
}
