package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/report/github"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/ghactions"
	"github.com/tenetlang/tenet/internal/paths"
)

// reportFlags are --format and --report-out, shared by eval, report,
// compare and test.
type reportFlags struct {
	format   string
	out      string
	maxItems int // --report-max-items (eval, report, compare)
}

func (f *reportFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.format, "format", "table", "report format: "+strings.Join(formats.Names(), ", ")+" (docs/report-formats.md)")
	cmd.Flags().StringVar(&f.out, "report-out", "", "write the report to this file, atomically, instead of stdout (-: stdout)")
	flagcheck.AcceptDash(cmd, "report-out")
}

// addMaxItems adds --report-max-items (eval, report and compare).
func (f *reportFlags) addMaxItems(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.maxItems, "report-max-items", report.DefaultMaxListed,
		"entries of each kind of the report's lists (disagreements, unknown labels, checks, denied calls), runs in key order, and at least the first 3 per condition and check; counts stay exact, the runs file (eval --out) names every run (0: no limit)")
}

// check validates the flags before any work: a known format, and a
// --report-out that is not one of the inputs.
func (f *reportFlags) check(inputs []string) error {
	if !slices.Contains(formats.Names(), f.format) {
		return fmt.Errorf("unknown --format %q: want %s", f.format, strings.Join(formats.Names(), ", "))
	}
	if f.maxItems < 0 {
		return fmt.Errorf("--report-max-items %d: want 0 (no limit) or more", f.maxItems)
	}
	if f.out == "-" {
		f.out = "" // standard output, as without the flag
	}
	if f.out != "" {
		return paths.CheckOutput(f.out, inputs)
	}
	return nil
}

// write renders d to stdout or --report-out, names every failure and
// error on stderr, and returns the error that gives d's exit code. The
// report is rendered in full before anything is written, so a rendering
// error leaves no partial file. A command with other outputs, already
// written to set (eval's runs file), passes the set: the report joins them
// (atomicfile's Publish), so that either every output is replaced or, when
// anything fails (a full disk), none is; the error says which, also when a
// rename fails midway.
func (f *reportFlags) write(cmd *cobra.Command, d *report.Document, set *atomicfile.Set) error {
	if set == nil {
		set = &atomicfile.Set{}
	}
	var buf bytes.Buffer
	if err := formats.Write(&buf, d, f.format); err != nil {
		return set.Cancel(err)
	}
	data := buf.Bytes()
	if d.Command == report.CommandTest && f.format == "table" && f.out == "" {
		data = clistyle.Tests(data, clistyle.Stdout(cmd.Context())) // ok and FAIL, on a terminal
	}
	if err := set.Publish(f.out, data, 0o644, cmd.OutOrStdout()); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	for _, line := range d.Warnings {
		fmt.Fprintln(stderr, "warning: "+line)
	}
	for _, line := range slices.Concat(d.Failures, d.NotFailing) {
		fmt.Fprintln(stderr, line)
	}
	if f.format != "github" && ghactions.Enabled(os.Getenv) { // on stderr: stdout may be a document (docs/ci.md)
		github.Write(stderr, d)
	}
	switch d.ExitCode {
	case exitOK:
		return nil
	case exitFailure:
		return exitError{exitFailure}
	}
	// Metric errors: main prints them after the command path, as before.
	return errors.New(strings.Join(d.Errors, "\n"))
}
