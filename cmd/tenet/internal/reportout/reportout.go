// Package reportout is how tenet eval, report, compare and test write
// their report: the flags that choose it (--format, --detail, --report-out,
// --report-max-items, -q/--quiet), their checks, and the one rule of where
// failures are said (docs/cli.md, "Where failures are printed"):
//
// Failures (a violated invariant, a failed gate or test) and warnings are
// part of the report. They are printed on standard error, one line each,
// only when the report itself does not show them on standard output:
// with a machine format (json, markdown, junit, html), with --report-out
// (the report goes to a file), and with -q (no report at all). So each
// failure line is printed once, on one stream.
//
// It decides no exit code: the Document carries it, cmd/tenet maps it.
package reportout

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/brief"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/report/github"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/ghactions"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/internal/termstyle"
)

// The formats a person reads on a terminal: they show every failure.
const (
	Table     = "table"      // the summary (eval/report/brief), the default
	TableFull = "table-full" // every table (report.WriteTable); --detail
)

// Flags are the report flags of one command.
type Flags struct {
	Format   string // --format as given
	Out      string // --report-out
	MaxItems int    // --report-max-items (eval, report, compare)
	Detail   bool   // --detail: --format table-full
	Quiet    bool   // -q, --quiet: no report on standard output
	// Record, when set (--record: historycmd.Session.Recorder), is called by Write
	// after the report is written, for a Document of exit code 0 or 1;
	// its error is Write's (exit 2), the report already out.
	Record func(*report.Document) error
}

// Add declares --format, --detail, --report-out and -q on cmd.
func (f *Flags) Add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.Format, "format", Table, "report format: "+strings.Join(formats.Names(), ", ")+" (docs/report-formats.md)")
	cmd.Flags().BoolVar(&f.Detail, "detail", false, "print every table of the report (the same as --format table-full)")
	cmd.Flags().StringVar(&f.Out, "report-out", "", "write the report to this file, atomically, instead of stdout (-: stdout)")
	flagcheck.AcceptDash(cmd, "report-out")
	cmd.Flags().BoolVarP(&f.Quiet, "quiet", "q", false, "print no report, only the failures (and errors) on stderr; nothing when all passed; the exit code and --report-out are unchanged")
}

// AddMaxItems declares --report-max-items (eval, report and compare).
func (f *Flags) AddMaxItems(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.MaxItems, "report-max-items", report.DefaultMaxListed,
		"entries of each kind of the report's lists (disagreements, unknown labels, checks, denied calls), runs in key order, and at least the first 3 per condition and check; counts stay exact, the runs file names every run (0: no limit)")
}

// Check validates the flags before any work: a known format, --detail
// only with a table format, a --report-out that is not one of the inputs.
func (f *Flags) Check(inputs []string) error {
	if !slices.Contains(formats.Names(), f.Format) {
		return fmt.Errorf("unknown --format %q: want %s", f.Format, strings.Join(formats.Names(), ", "))
	}
	if f.Detail && f.Format != Table && f.Format != TableFull {
		return fmt.Errorf("--detail and --format %s conflict: --detail is --format %s; leave out one of them", f.Format, TableFull)
	}
	if f.MaxItems < 0 {
		return fmt.Errorf("--report-max-items %d: want 0 (no limit) or more", f.MaxItems)
	}
	if f.Out == "-" {
		f.Out = "" // standard output, as without the flag
	}
	if f.Out != "" {
		return paths.CheckOutput(f.Out, inputs)
	}
	return nil
}

// Resolved is the format the report is written in: --format, or
// table-full under --detail.
func (f *Flags) Resolved() string {
	if f.Detail {
		return TableFull
	}
	return f.Format
}

// Tables reports whether the report is one of the plain-text tables, which
// never list the violations' witnesses (eval/assemble's NoViolations).
func (f *Flags) Tables() bool { return f.Resolved() == Table || f.Resolved() == TableFull }

// ShowsFailures reports whether the report printed on standard output
// shows the failures, so that standard error need not repeat them.
func (f *Flags) ShowsFailures() bool { return f.Tables() && f.Out == "" && !f.Quiet }

// Write renders d to stdout or --report-out (nothing to stdout under -q),
// and prints on stderr what the report does not show (ShowsFailures): the
// warnings, unless -q, and the failures. The report is rendered in full
// before anything is written, so a rendering error leaves no partial
// file. A command with other outputs, already written to set (eval's runs
// file), passes the set: the report joins them (atomicfile's Publish), so
// that either every output is replaced or, when anything fails, none is.
//
// With GITHUB_ACTIONS=true the failures are also written as workflow
// commands on stderr (stdout may hold a document they would corrupt:
// docs/ci.md). style is standard output's (colour on a terminal only).
//
// It returns an error when writing fails, or, for a Document with exit
// code 2, its errors (the command's error message); nil otherwise, the
// caller mapping d.ExitCode 1 to its exit.
func (f *Flags) Write(stdout, stderr io.Writer, d *report.Document, set *atomicfile.Set, style termstyle.Style) error {
	if set == nil {
		set = &atomicfile.Set{}
	}
	var buf bytes.Buffer
	var err error
	if format := f.Resolved(); format == Table && f.Out == "" {
		// Colour for a terminal only: never in a file, a pipe or a golden.
		err = brief.WriteStyled(&buf, d, style)
	} else {
		err = formats.Write(&buf, d, format)
	}
	if err != nil {
		return set.Cancel(err)
	}
	data := buf.Bytes()
	if d.Command == report.CommandTest && f.Out == "" {
		data = clistyle.Tests(data, style) // ok and FAIL, on a terminal
	}
	to := stdout
	if f.Quiet {
		to = io.Discard
	}
	if err := set.Publish(f.Out, data, 0o644, to); err != nil {
		return err
	}
	if !f.ShowsFailures() {
		if !f.Quiet {
			for _, line := range d.Warnings {
				fmt.Fprintln(stderr, "warning: "+line)
			}
		}
		for _, line := range d.Failures {
			fmt.Fprintln(stderr, line)
		}
	}
	// The failures --fail-on leaves out are said on stderr in every case:
	// they explain an exit code 0 next to a failure, and no table spells
	// out why each does not count.
	for _, line := range d.NotFailing {
		fmt.Fprintln(stderr, line)
	}
	if f.Resolved() != "github" && ghactions.Enabled(os.Getenv) {
		github.Write(stderr, d)
	}
	if d.ExitCode == 2 {
		return errors.New(strings.Join(d.Errors, "\n"))
	}
	if f.Record != nil {
		return f.Record(d)
	}
	return nil
}
