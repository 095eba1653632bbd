package runs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/tenetlang/tenet/internal/jsonl"
)

// DefaultMaxRecordBytes is the longest record (line) Read and ReadFiles
// accept: 64 MiB, as for transcripts. ReadOptions.MaxRecordBytes changes it.
const DefaultMaxRecordBytes = jsonl.DefaultMaxLine

// ReadOptions tune ReadFilesWith.
type ReadOptions struct {
	// MaxRecordBytes bounds one record (a line without its line ending); a
	// longer one is an error at its line, and its bytes are skipped without
	// being kept. Zero or negative means DefaultMaxRecordBytes.
	MaxRecordBytes int
	// Foreign, when set, is given each file's first line: a file it claims
	// (it returns a FileReader) is read by that reader instead of as a runs
	// file — a decision log, whose calls eval/authorize/decisionlog reads
	// as runs. The runs it gives are validated and checked against the
	// others (duplicate keys across files) as runs read from a runs file.
	Foreign func(first []byte) FileReader
}

// FileReader reads a file of another form as runs (ReadOptions.Foreign).
type FileReader interface {
	// Line reads the file's line n (from 1, without its line ending;
	// blank lines are not given); an error is reported at file:n.
	Line(line []byte, n int) error
	// Runs is called once, after the last line when no Line failed: the
	// file's runs, and for each the line it is named by. Its error may
	// join several; each *LineError among them is reported at file:LINE,
	// any other at the file.
	Runs() (recs []Record, lines []int, err error)
}

// LineError is an error about one line of a file a FileReader reads.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Read reads a runs file; file names it in errors. It reads r line by line
// as internal/jsonl frames it (blank lines are skipped, a UTF-8 byte-order
// mark and "\r\n" endings are accepted; a line longer than
// DefaultMaxRecordBytes is an error) and returns the records sorted by key.
//
// Errors read "file:line: reason", or "file:line: run KEY: reason" once the
// line's key is known; one longer than 1 KiB is cut. Read reports at most
// one error per line but keeps going, and returns every error joined with
// errors.Join (after 20 errors it stops reading and says so); on any error
// it returns no records. After the lines it runs the checks between records
// (duplicate keys, naming both lines, and exposure consistency).
func Read(file string, r io.Reader) ([]Record, error) {
	rd := reader{max: DefaultMaxRecordBytes}
	rd.read(file, r)
	return rd.finish()
}

// ReadFiles reads several runs files as one: duplicate keys and exposure
// consistency are checked across files. It returns the records of all files
// sorted by key, or every error (at most 20) joined.
func ReadFiles(paths ...string) ([]Record, error) {
	return ReadFilesWith(ReadOptions{}, paths...)
}

// ReadFilesWith is ReadFiles with options.
func ReadFilesWith(opt ReadOptions, paths ...string) ([]Record, error) {
	recs, _, err := ReadFilesAt(opt, paths...)
	return recs, err
}

// ReadFilesAt is ReadFilesWith that also returns where each record was
// read: at[i] is the file and line of recs[i].
func ReadFilesAt(opt ReadOptions, paths ...string) (recs []Record, at []Pos, err error) {
	rd := reader{max: opt.MaxRecordBytes, foreign: opt.Foreign}
	if rd.max <= 0 {
		rd.max = DefaultMaxRecordBytes
	}
	for _, p := range paths {
		if rd.stopped {
			break
		}
		f, err := os.Open(p)
		if err != nil {
			rd.add(err)
			rd.unreadable++
			continue
		}
		rd.read(p, f)
		f.Close()
	}
	if recs, err = rd.finish(); err != nil {
		return nil, nil, err
	}
	// finish sorted rd.recs in the order of recs.
	at = make([]Pos, len(rd.recs))
	for i, l := range rd.recs {
		at[i] = l.Pos
	}
	return recs, at, nil
}

// Pos is where a record was read: a runs file and a line (from 1).
type Pos struct {
	File string
	Line int
}

// String renders file:line.
func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

type reader struct {
	recs       []located
	errs       []error
	stopped    bool
	max        int // longest record accepted
	unreadable int // files that could not be opened, among errs
	foreign    func(first []byte) FileReader
}

// add records an error; the one after maxErrors stops the reading instead.
func (rd *reader) add(err error) {
	if len(rd.errs) == maxErrors {
		rd.stopped = true
		return
	}
	rd.errs = append(rd.errs, clip(err))
}

// ReadError is the error of Read, ReadFiles and ReadFilesWith: its text is
// the errors, one a line, as errors.Join writes them, and it counts them so
// that a command can close the list as tenet eval does ("tenet report: 3
// bad records; nothing written").
type ReadError struct {
	Errs []error // as printed: at most maxErrors, then a line that says more were left out
	// Bad counts the bad records (and duplicate runs), also those left
	// out, and Unreadable the files that could not be opened; when
	// Stopped, reading stopped after Bad+Unreadable errors and there are
	// more.
	Bad, Unreadable int
	Stopped         bool
}

func (e *ReadError) Error() string   { return errors.Join(e.Errs...).Error() }
func (e *ReadError) Unwrap() []error { return e.Errs }

// clip cuts an error message longer than jsonl.MaxMessageBytes.
func clip(err error) error {
	if msg := err.Error(); len(msg) > jsonl.MaxMessageBytes {
		return errors.New(jsonl.Clip(msg))
	}
	return err
}

// read reads the records of one file, framed by internal/jsonl.
func (rd *reader) read(file string, r io.Reader) {
	r, at, not := sniffed(r)
	if not != "" {
		rd.add(fmt.Errorf("%s:%d: %s", file, at, not))
		return
	}
	lines := jsonl.NewReader(r, rd.max)
	var other FileReader // the reader that claimed the file
	first, failed := true, false
	for !rd.stopped {
		line, err := lines.Next()
		var tooLong *jsonl.TooLongError
		if first && err == nil && rd.foreign != nil {
			other = rd.foreign(bytes.TrimSpace(line))
		}
		first = false
		switch {
		case err == io.EOF:
			if other != nil && !failed {
				rd.foreignRuns(file, other)
			}
			return
		case err == nil && other != nil:
			if err = other.Line(bytes.TrimSpace(line), lines.Line()); err == nil {
				continue
			}
			failed = true
		case err == nil:
			var rec Record
			if rec, err = decodeLine(bytes.TrimSpace(line)); err == nil {
				rd.recs = append(rd.recs, located{rec, Pos{file, lines.Line()}})
				continue
			}
		case !errors.As(err, &tooLong):
			rd.add(fmt.Errorf("%s:%d: %w", file, lines.Line(), err))
			return // a read error ends the input
		}
		failed = true
		rd.add(fmt.Errorf("%s:%d: %w", file, lines.Line(), err))
	}
}

// foreignRuns takes the runs of a file another reader read, validated.
func (rd *reader) foreignRuns(file string, fr FileReader) {
	recs, lines, err := fr.Runs()
	if err != nil {
		for _, e := range flatten(err) {
			if le := (*LineError)(nil); errors.As(e, &le) {
				rd.add(fmt.Errorf("%s:%d: %w", file, le.Line, le.Err))
			} else {
				rd.add(fmt.Errorf("%s: %w", file, e))
			}
		}
		return
	}
	for i, rec := range recs {
		if err := rec.Validate(); err != nil {
			rd.add(fmt.Errorf("%s:%d: %w", file, lines[i], err)) // Validate names the run
			continue
		}
		rd.recs = append(rd.recs, located{rec, Pos{file, lines[i]}})
	}
}

// flatten lists the errors errors.Join joined.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func (rd *reader) finish() ([]Record, error) {
	if rd.stopped {
		n := len(rd.errs)
		rd.errs = append(rd.errs, fmt.Errorf("too many errors, stopped reading after the first %d", maxErrors))
		return nil, &ReadError{Errs: rd.errs, Bad: n - rd.unreadable, Unreadable: rd.unreadable, Stopped: true}
	}
	// By key, stably: among equal keys the record read first stays first,
	// so a duplicate names the earlier line as the first.
	slices.SortStableFunc(rd.recs, func(a, b located) int { return a.rec.Key.Compare(b.rec.Key) })
	var c checker
	for _, l := range rd.recs {
		c.add(l)
	}
	rd.errs = append(rd.errs, c.end()...)
	if n := len(rd.errs); n > 0 {
		return nil, &ReadError{Errs: capErrors(rd.errs), Bad: n - rd.unreadable, Unreadable: rd.unreadable}
	}
	recs := make([]Record, len(rd.recs))
	for i, l := range rd.recs {
		recs[i] = l.rec
	}
	return recs, nil
}
