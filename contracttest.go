package tenet

import (
	"time"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/tester"
)

// Tests are the contract's test blocks (Build only: a bundle file carries
// none). The caller must not change them.
func (b *Bundle) Tests() []compiler.TestSpec { return b.tests }

// TestOptions are the limits Test judges each test's run with
// (eval.Program's; 0: eval.MaxThreads, and no time limit).
type TestOptions struct {
	MaxPatternThreads int
	RunTimeout        time.Duration
}

// Test runs the contract's test blocks (eval/tester: each judges one run
// of its transcript, a path relative to the contract directory, and
// compares the labels it expects) and builds the document `tenet test`
// renders, whose ExitCode is 1 when a test failed. A test that cannot be
// run fails with the reason; the error is only the bundle's planning
// error (eval.Plan).
func (b *Bundle) Test(opts TestOptions) (*report.Document, error) {
	p, err := b.Program()
	if err != nil {
		return nil, err
	}
	p.MaxPatternThreads, p.RunTimeout = opts.MaxPatternThreads, opts.RunTimeout
	var results []report.TestResult
	for _, r := range tester.Run(p, b.dir, b.tests) {
		results = append(results, report.TestResult(r))
	}
	m := b.contract.Manifest
	return report.BuildTests(compiler.Version, report.Contract{Name: m.Contract, Version: m.Version, Bundle: b.id}, results), nil
}
