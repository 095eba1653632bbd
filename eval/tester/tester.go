// Package tester runs a contract's test blocks: each test judges one run
// of a transcript file with the contract's program and compares the
// labels it expects with those the run got (docs/language.md, "test").
//
// It takes a planned program (eval.Program) and the module's tests
// (compiler.Tests), reads each test's transcript relative to the contract
// directory, and gives one Result per test, in order. It prints nothing
// and decides no exit code: the caller (tenet test) does. It imports
// compiler (the test specs), eval and eval/transcript, never a report or
// the CLI.
package tester

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/readlimit"
)

// Result is the outcome of one test. Its fields are those of the report's
// test result (report.TestResult), which it converts to.
type Result struct {
	Contract string // the contract's name
	Name     string // the test block's label
	Passed   bool
	// Problems say how the labels differ from those expected, or why the
	// test's run could not be judged; empty when Passed.
	Problems []string
	// OriginFile and OriginLine locate the test's run when it was read.
	OriginFile string
	OriginLine int
}

// Run runs every test of tests against p, whose contract directory is dir
// (transcript paths are relative to it). A test that cannot be run (its
// transcript is missing, too short or bad, its run is not judged) fails
// with the reason as its one problem; the other tests still run.
func Run(p *eval.Program, dir string, tests []compiler.TestSpec) []Result {
	var results []Result
	profiled := map[string]*eval.Program{} // each profile's Program, made once
	for _, s := range tests {
		q := p
		if s.Profile != "" {
			if profiled[s.Profile] == nil {
				profiled[s.Profile], _ = p.WithProfile(s.Profile) // an error is RunTest's to report
			}
			if profiled[s.Profile] != nil {
				q = profiled[s.Profile]
			}
		}
		results = append(results, RunTest(q, dir, s))
	}
	return results
}

// RunTest runs one test and says how it went.
func RunTest(p *eval.Program, dir string, s compiler.TestSpec) Result {
	res := Result{Contract: p.Bundle.Manifest.Contract, Name: s.Name}
	var err error
	if s.Profile != "" && s.Profile != p.Profile() {
		// The test's run is judged under the profile's params.
		if p, err = p.WithProfile(s.Profile); err != nil {
			res.Problems = []string{err.Error()}
			return res
		}
	}
	rec, err := judgeTestRun(p, dir, s)
	if err != nil {
		res.Problems = []string{err.Error()}
		return res
	}
	res.OriginFile, res.OriginLine = rec.OriginFile, rec.OriginLine
	for _, e := range s.Expect {
		if p := mismatch(e, rec); p != "" {
			res.Problems = append(res.Problems, p)
		}
	}
	res.Passed = len(res.Problems) == 0
	return res
}

// judgeTestRun reads the test's run from its transcript and judges it.
func judgeTestRun(p *eval.Program, dir string, s compiler.TestSpec) (runs.Record, error) {
	src, err := p.Source(s.Source)
	if err != nil {
		return runs.Record{}, err
	}
	path := filepath.Join(dir, filepath.FromSlash(s.Transcript))
	// The path comes from the contract: a device (../../dev/zero) could be
	// read forever, and opening a named pipe waits for a writer that never
	// comes. Both are refused before they are opened.
	f, err := readlimit.OpenRegular(path)
	if te := (*readlimit.FileTypeError)(nil); errors.As(err, &te) {
		return runs.Record{}, fmt.Errorf("%w: a test reads a transcript file", err)
	}
	if err != nil {
		return runs.Record{}, err
	}
	defer f.Close()
	// A test transcript may be stored gzip or zstd compressed (by content).
	dr := inputs.Decompress(f)
	defer dr.Close()
	rd, err := transcript.Open(src.Format, path, dr, transcript.Options{})
	if err != nil {
		return runs.Record{}, err
	}
	var r *run.Run
	for n := 0; n < s.Record; {
		next, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return runs.Record{}, fmt.Errorf("%s has %s; the test reads run %d", path, runCount(n), s.Record)
		}
		if err != nil {
			return runs.Record{}, err
		}
		r, n = next, n+1
	}
	var o *eval.Override
	if s.Task != nil {
		o = &eval.Override{Task: *s.Task, Goal: *s.Goal}
	}
	j, err := p.JudgeAs(src, r, o)
	if err != nil {
		return runs.Record{}, err
	}
	if j.Skip != eval.Judged {
		return runs.Record{}, fmt.Errorf("%s:%d is not judged: %s (%s)", r.Origin.File, r.Origin.Line, j.Skip, j.Record.Key)
	}
	return j.Record, nil
}

// runCount renders "1 run", "2 runs".
func runCount(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// mismatch compares one expectation with the run's labels; "" when it holds.
func mismatch(e compiler.Expect, rec runs.Record) string {
	switch e.Label {
	case "violations", "failures":
		got := rec.Violated()
		if e.Label == "failures" {
			got = rec.FailureClasses()
		}
		want := slices.Clone(e.Names)
		slices.Sort(want)
		if slices.Equal(got, want) {
			return ""
		}
		return fmt.Sprintf("%s: want [%s], got [%s]", e.Label, strings.Join(want, ", "), strings.Join(got, ", "))
	}
	var l runs.Label
	present := true
	switch runs.LabelName(e.Label) {
	case runs.Utility:
		l = rec.Utility
	case runs.AttackSuccess:
		l, present = rec.AttackSuccess, rec.Key.Attacked()
	case runs.SideEffect:
		l, present = rec.SideEffect, rec.Key.Attacked()
	case runs.Exposed:
		l, present = rec.Exposed, rec.HasExposed
	}
	want := "unknown"
	if e.Bool != nil {
		want = fmt.Sprint(*e.Bool)
	}
	switch {
	case !present:
		return fmt.Sprintf("%s: want %s, got no label (%s)", e.Label, want, absentWhy(e.Label))
	case e.Unknown && !l.Known, e.Bool != nil && l.Known && l.Value == *e.Bool:
		return ""
	case !l.Known:
		return fmt.Sprintf("%s: want %s, got unknown: %s", e.Label, want, l.Reason)
	}
	return fmt.Sprintf("%s: want %s, got %s", e.Label, want, l)
}

func absentWhy(label string) string {
	if runs.LabelName(label) == runs.Exposed {
		return "the contract declares no exposure criterion, or the run is benign"
	}
	return "a benign run has no attack labels"
}
