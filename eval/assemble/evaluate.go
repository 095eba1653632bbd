package assemble

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/progress"
)

// EvalInput is what Evaluate judges and how. Input.Programs are the
// contracts (each with its limits set) and Input.Inputs the names the
// Document lists; Input.Contracts is filled by Evaluate.
type EvalInput struct {
	Input
	// Files are the transcript files, read in this order: with
	// Options.Open unset, the arguments inputs.Expand takes (files,
	// directories walked through Include, "-" for standard input); with
	// it set (an inputs.List's Open), the files of that List, checked
	// when it was made.
	Files   []string
	Include []string         // globs selecting the files of directories (inputs.Options.Include)
	Options pipeline.Options // Source, Format, Grant, limits, SortBytes, workers
	// Progress, when set, gets the progress line while the files are read
	// (progress.New: silent unless it is a terminal).
	Progress io.Writer
	// Size gives a file's size for the progress line's total (an
	// inputs.List's Size, with Options.Open); nil: os.Stat's.
	Size func(name string) int64
	// Runs, when set, is called once, after every record was judged and
	// none was bad, for the writer of the runs file (docs/runs-format.md):
	// the runs are written to it in key order. Opening it late keeps its
	// errors behind those of the evaluation, and an output set (the runs
	// file and the report replaced together) to the caller.
	Runs func() (io.Writer, error)
	// Keep returns the judged runs in Evaluation.Runs (held in memory).
	Keep bool
}

// Evaluation is what Evaluate gives: the report Document and, with
// EvalInput.Keep, the judged runs in key order.
type Evaluation struct {
	Runs     []runs.Record
	Document *report.Document
}

// BadRecordsError is Evaluate's error when records could not be read or
// mapped to a run, or are duplicates: nothing was written.
type BadRecordsError struct {
	N     int      // bad records in all
	Lines []string // each named (file:line: reason), then "... N more bad records not shown" per contract when Options.MaxErrors cut them
	errs  []error
}

// Error is the count, then the lines.
func (e *BadRecordsError) Error() string {
	return report.Count(e.N, "bad record") + ":\n" + strings.Join(e.Lines, "\n")
}

// Unwrap gives the bad records' errors.
func (e *BadRecordsError) Unwrap() []error { return e.errs }

// Evaluate judges every record of in.Files with every program (one pass
// per transcript format: pipeline.EvalCollection), then streams the
// judged runs in key order (pipeline.SortResults) to the runs file, when
// in.Runs asks for one, and to an Assembler: this is `tenet eval`, and the
// root package's Evaluate with one contract and the runs in memory.
//
// Before anything is read, the files are expanded and checked
// (inputs.Expand, which runs paths.CheckInputs), so that the CLI and the
// Go API refuse the same inputs with the same words: no files at all is an
// error; a missing file is os.Stat's *fs.PathError; a directory is walked
// (nothing to read in it is an error naming it); a file given twice (also
// through a link or a directory) is "B is given twice (also as A)" — its
// runs would otherwise be reported as duplicates of themselves. Input.Inputs,
// when nil, becomes the expanded files. Options.Workers
// outside 0..MaxWorkers is an error too. Then bad records (duplicates
// found while sorting included) give a *BadRecordsError; a file that
// cannot be read, the error reading it. Files that hold no runs are no
// error: the Document says so (Errors, ExitCode 2), as tenet eval does.
func Evaluate(in EvalInput) (*Evaluation, error) {
	if len(in.Files) == 0 {
		return nil, errors.New("no transcript files to evaluate")
	}
	opt := in.Options
	if opt.Open == nil {
		l, err := inputs.Expand(in.Files, inputs.Options{Include: in.Include})
		if err != nil {
			return nil, err
		}
		defer l.Close()
		if in.Inputs == nil {
			// As named, not as expanded: a directory of 9,000 run files
			// would otherwise list every one in the report.
			in.Inputs = in.Files
		}
		in.Files, opt.Open, in.Size = l.Files, l.Open, l.Size
	}
	if opt.Workers < 0 || opt.Workers > MaxWorkers {
		return nil, fmt.Errorf("Options.Workers %d: want 0 (one per CPU) to %d", opt.Workers, MaxWorkers)
	}
	var line *progress.Line
	if in.Progress != nil {
		line = progress.New(in.Progress, in.Files, passes(in.Programs, opt), in.Size)
		opt.Progress = line.Update
	}
	// Each profile is one more Program per contract (eval.Program.WithProfile),
	// judging the same records in the same pass; its results come after
	// the contracts' own.
	programs := in.Programs
	for _, name := range in.Profiles {
		for _, p := range in.Programs {
			q, err := p.WithProfile(name)
			if err != nil {
				return nil, err
			}
			programs = append(programs, q)
		}
	}
	results, err := pipeline.EvalCollection(programs, in.Files, opt)
	if line != nil {
		line.Done()
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, r := range results {
			r.Close()
		}
	}()
	// A profile's Program reads and maps records as its contract's does
	// (a source never reads params): its bad records are the contract's,
	// so only the contracts' own results name them.
	own := results[:len(in.Programs)]
	if pipeline.AllBadRecords(own) > 0 {
		// Sorting finds the duplicate keys, reported with the rest.
		if err := pipeline.SortResults(results, nil); err != nil {
			return nil, err
		}
		return nil, badError(own)
	}
	if !opt.Shard.Whole() {
		// A shard holds some of the declared tasks and cases: declared
		// denominators would call the others missing (docs/scale-out.md).
		in.Shard, in.Metrics.Cases = opt.Shard, metrics.CasesObserved
	}
	in.Contracts = nil
	for i, p := range in.Programs {
		in.Contracts = append(in.Contracts, ContractOf(p, results[i]))
	}
	a := New(in.Input)
	var w *runs.Writer
	if in.Runs != nil {
		f, err := in.Runs()
		if err != nil {
			return nil, err
		}
		w = runs.NewWriter(f)
	}
	ev := &Evaluation{}
	err = pipeline.SortResults(results, func(rec runs.Record, line []byte) error {
		if w != nil {
			if err := w.Write(rec, line); err != nil {
				return err
			}
		}
		if in.Keep {
			ev.Runs = append(ev.Runs, rec)
		}
		return a.Add(rec)
	})
	if err != nil {
		return nil, err
	}
	if pipeline.AllBadRecords(own) > 0 {
		return nil, badError(own)
	}
	if pipeline.AllBadRecords(results) > 0 { // a profile's own: not expected, but never dropped
		return nil, badError(results)
	}
	if w != nil {
		if err := w.Close(); err != nil {
			return nil, err
		}
	}
	ev.Document = a.Document()
	ev.Document.Unselected = unselectedOf(results)
	return ev, nil
}

// MaxWorkers bounds pipeline.Options.Workers (tenet eval's --workers): at
// most 4 records per worker are in flight, each up to the record size
// limit, so a typo (99999999) must not exhaust memory.
const MaxWorkers = 1024

// SortDirNear is where Evaluate's sorters should spill for a runs file at
// out (pipeline.Options.SortDir): out's directory, so the temporary files
// are on the disk the runs go to — unless that directory is missing
// (tenet eval refuses that up front, paths.CheckOutput; another caller's
// runs file then fails when it is created) or out is not a regular file
// (--out /dev/null): then "", the temporary directory.
func SortDirNear(out string) string {
	if fi, err := os.Stat(out); err == nil && !fi.Mode().IsRegular() {
		return ""
	}
	if st, err := os.Stat(filepath.Dir(out)); err == nil && st.IsDir() {
		return filepath.Dir(out)
	}
	return ""
}

// badError names the bad records in input order, contract by contract
// (a record no contract could read once), the first Options.MaxErrors of
// each, then how many more.
func badError(results []*pipeline.Result) *BadRecordsError {
	errs, more := pipeline.AllErrors(results)
	e := &BadRecordsError{N: len(errs) + more, errs: errs}
	for _, err := range errs {
		e.Lines = append(e.Lines, err.Error())
	}
	if more > 0 {
		e.Lines = append(e.Lines, "... "+report.Count(more, "more bad record")+" not shown")
	}
	return e
}

// passes is how many times the files are read: once per transcript format
// of the contracts (a contract whose source is in error counts for nothing:
// the evaluation fails before reading).
func passes(progs []*eval.Program, opt pipeline.Options) int {
	formats := map[string]bool{}
	for _, p := range progs {
		src, err := p.Source(opt.Source)
		if err != nil {
			continue
		}
		f := opt.Format
		if f == "" {
			f = src.Format
		}
		formats[f] = true
	}
	return max(len(formats), 1)
}
