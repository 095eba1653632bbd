package tenet

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/tester"
)

// Tests are the contract's test blocks (Build only: a bundle file, or a
// directory's bundle Open took from the compile cache, carries none). The
// caller must not change them.
func (b *Bundle) Tests() []compiler.TestSpec { return b.tests }

// TestOptions are the limits Test judges each test's run with
// (eval.Program's; 0: eval.MaxThreads, and no time limit).
type TestOptions struct {
	MaxPatternThreads int
	RunTimeout        time.Duration
	// Select picks the tests run by name (tenet test --run); nil: every
	// test.
	Select func(name string) bool
}

// Test runs the contract's test blocks (eval/tester: each judges one run
// of its transcript, a path relative to the contract directory, and
// compares the labels it expects) and builds the document `tenet test`
// renders, whose ExitCode is 1 when a test failed. A test that cannot be
// run fails with the reason. The errors: a bundle from LoadBundle or
// OpenBundle (a bundle file carries no test blocks, so there is nothing
// to run: that must not read as "every test passed"; Build the contract
// directory); a negative limit; the bundle's planning error (eval.Plan).
// A contract directory with no test blocks gives a Document with none.
func (b *Bundle) Test(opts TestOptions) (*report.Document, error) {
	if b.dir == "" {
		return nil, errors.New("the bundle was loaded from bundle bytes, which carry no test blocks: Build (or Open) the contract directory to run its tests")
	}
	if b.cached {
		return nil, errors.New("the bundle was taken from the compile cache (WithCache), without the test blocks of its sources: Build the contract directory to run its tests")
	}
	if opts.MaxPatternThreads < 0 {
		return nil, fmt.Errorf("TestOptions.MaxPatternThreads %d: want 0 (eval.MaxThreads) or more", opts.MaxPatternThreads)
	}
	if opts.RunTimeout < 0 {
		return nil, fmt.Errorf("TestOptions.RunTimeout %s: want 0 (no limit) or more", opts.RunTimeout)
	}
	p, err := b.Program()
	if err != nil {
		return nil, err
	}
	p.MaxPatternThreads, p.RunTimeout = opts.MaxPatternThreads, opts.RunTimeout
	var results []report.TestResult
	tests := b.tests
	if opts.Select != nil {
		tests = nil
		for _, t := range b.tests {
			if opts.Select(t.Name) {
				tests = append(tests, t)
			}
		}
	}
	for _, r := range tester.Run(p, b.dir, tests) {
		results = append(results, report.TestResult(r))
	}
	m := b.contract.Manifest
	return report.BuildTests(compiler.Version, report.Contract{Name: m.Contract, Version: m.Version, Bundle: b.id}, results), nil
}
