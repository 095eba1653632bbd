package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/readlimit"
)

func testCmd() *cobra.Command {
	var rf reportFlags
	var maxThreads int
	var runTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "test DIR",
		Short: "Run a contract's test blocks: judge each test transcript and compare labels",
		Long: `Run the contract's test blocks. Each test judges one run of a transcript
file (path relative to the contract directory) and compares the labels it
expects. Prints ok or FAIL per test with expected and actual values.
Exit 1 when a test fails, 2 when the contract or a test's input is bad.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := checkMaxPatternThreads(maxThreads); err != nil {
				return err
			}
			if err := checkRunTimeout(runTimeout); err != nil {
				return err
			}
			if err := rf.check(append([]string{dir}, contractFiles(dir)...)); err != nil {
				return err
			}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			mod, b, ok := compileModule(dir, stderr)
			if !ok {
				return exitError{exitBad}
			}
			data, _, err := bundle.Encode(b)
			if err != nil {
				return err
			}
			p, err := loadBundle(dir, data)
			if err != nil {
				return err
			}
			p.MaxPatternThreads = maxThreads
			p.RunTimeout = runTimeout
			specs := compiler.Tests(mod)
			if len(specs) == 0 && rf.format == "table" && rf.out == "" {
				fmt.Fprintf(stdout, "no tests in %s\n", dir)
				return nil
			}
			var results []report.TestResult
			for _, s := range specs {
				results = append(results, runTest(p, dir, s))
			}
			m := p.Bundle.Manifest
			c := report.Contract{Name: m.Contract, Version: m.Version, Bundle: p.ID}
			return rf.write(cmd, report.BuildTests(compiler.Version, c, results))
		},
	}
	rf.add(cmd)
	addMaxPatternThreads(cmd, &maxThreads)
	addRunTimeout(cmd, &runTimeout)
	return cmd
}

// runTest runs one test and says how it went.
func runTest(p *eval.Program, dir string, s compiler.TestSpec) report.TestResult {
	res := report.TestResult{Contract: p.Bundle.Manifest.Contract, Name: s.Name}
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
	rd, err := transcript.Open(src.Format, path, f, transcript.Options{})
	if err != nil {
		return runs.Record{}, err
	}
	var r *run.Run
	for n := 0; n < s.Record; {
		next, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return runs.Record{}, fmt.Errorf("%s has %s; the test reads run %d", path, count(n, "run"), s.Record)
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
	switch e.Label {
	case "utility":
		l = rec.Utility
	case "attack_success":
		l, present = rec.AttackSuccess, rec.Key.Attacked()
	case "side_effect":
		l, present = rec.SideEffect, rec.Key.Attacked()
	case "exposed":
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
	if label == "exposed" {
		return "the contract declares no exposure criterion, or the run is benign"
	}
	return "a benign run has no attack labels"
}
