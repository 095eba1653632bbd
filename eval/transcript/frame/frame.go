// Package frame is the lowest floor of the transcript readers: what a
// reader package and the registry (eval/transcript) share without
// importing each other. It holds the reading options (Options and their
// defaults), the record-level error (Error, "file:line: reason"), one
// framed record (RawRecord) and the stream of them (RecordReader), the
// signatures of a format's two halves (Framer, Decoder) and the JSONL
// framer most formats use (JSONL, over internal/jsonl), what a format's
// sniffer (Sniffer) sees of a file under format auto (Scan), and how a
// Decoder's message names a line inside a record that spans lines
// (AtLine, RecordError).
//
// A reader package supplies a Decoder and, unless its records are JSONL
// lines, a Framer of its own (a whole-file JSON array, a ZIP member per
// sample). It imports eval/run and internal/jsonl only.
package frame

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/internal/jsonl"
)

// DefaultMaxRecordBytes is the longest record (line) a reader accepts when
// Options.MaxRecordBytes is zero or negative: 64 MiB.
const DefaultMaxRecordBytes = jsonl.DefaultMaxLine

// DefaultMaxDepth is the JSON decoder's nesting limit, which bounds every
// record whatever Options.MaxDepth says.
const DefaultMaxDepth = 10_000

// Options tune a reader.
type Options struct {
	// MaxRecordBytes bounds one record (for JSONL formats, one line without
	// its line ending). A longer record is an *Error for that record, and the
	// reader skips to the next one. Zero or negative means DefaultMaxRecordBytes.
	MaxRecordBytes int
	// MaxDepth bounds how deeply a record's JSON nests (arrays and objects):
	// a record nested deeper is an *Error for that record. Zero or negative
	// means DefaultMaxDepth, the JSON decoder's own limit; a value above it
	// cannot raise that limit. Only a value below DefaultMaxDepth costs a
	// scan of each record before it is decoded.
	MaxDepth int
}

// RecordBytes is MaxRecordBytes, or DefaultMaxRecordBytes when that is
// zero or negative: the bound a Framer applies.
func (o Options) RecordBytes() int {
	if o.MaxRecordBytes <= 0 {
		return DefaultMaxRecordBytes
	}
	return o.MaxRecordBytes
}

// Error is a malformed record (or a read failure) at a line of a file.
type Error struct {
	File string
	Line int // 1-based
	Msg  string
	// Err is the underlying error for a read failure, else nil.
	Err error
}

// Error returns "file:line: msg". A message longer than MaxErrorMsg bytes
// (one that quotes a huge number or string of the record) is cut, so that
// a hostile record cannot make an error of megabytes.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, jsonl.Clip(e.Msg))
}

// MaxErrorMsg bounds the message of an Error, in bytes.
const MaxErrorMsg = jsonl.MaxMessageBytes

// Unwrap returns the underlying read error, if any.
func (e *Error) Unwrap() error { return e.Err }

// RawRecord is one framed, undecoded record of a transcript file.
type RawRecord struct {
	// Origin is the file (as given to the Framer) and the record's line,
	// from 1.
	Origin run.Origin
	// Data is the record's bytes: for JSONL formats, the line without its
	// "\n" or "\r\n" and, on line 1, without a UTF-8 byte-order mark. It
	// is never blank (blank lines are not records). Data is only valid
	// until the next call to Next: keep a copy (bytes.Clone) to use it
	// later.
	Data []byte
}

// RecordReader frames the records of one transcript file without decoding
// them, so that decoding can run elsewhere, e.g. in parallel. Memory is
// bounded by Options.MaxRecordBytes plus a read buffer.
type RecordReader interface {
	// Next returns the next record, or io.EOF after the last one. A record
	// longer than Options.MaxRecordBytes returns an *Error for it (its bytes
	// are discarded) and the following call reads the next record. An error
	// reading the underlying io.Reader is returned once as an *Error
	// wrapping it; it ends the stream, and later calls return io.EOF. So a
	// caller may always carry on after an *Error.
	Next() (RawRecord, error)
}

// Framer splits a file into records: file names the input in errors and
// in each record's Origin. It must read nothing from r before the first
// Next, and honour opt (MaxRecordBytes, MaxDepth) or say in its package
// why a bound does not apply.
type Framer func(file string, r io.Reader, opt Options) RecordReader

// Decoder decodes one record's Data into a run. It returns skip for a
// record that carries no transcript (a header line), or a non-empty msg
// saying why the record is malformed (the registry makes it an *Error at
// the record's origin; msg names the place in the record, not the file,
// and a record spanning lines may name one of them with AtLine).
// It must keep no reference to data, which the Framer reuses, and be safe
// for concurrent use. It leaves Run.Origin to the caller.
type Decoder func(data []byte) (rn *run.Run, skip bool, msg string)

// ErrPrettyPrinted is the Err of the *Error by which JSONL refuses a file
// that is one pretty-printed JSON document (its first record is a lone
// "{" or "["): a JSONL format cannot read such a file whatever its
// content, which is what a hint naming another format must know.
var ErrPrettyPrinted = errors.New("one pretty-printed JSON document, not JSONL")

// jsonlRecords frames JSONL (internal/jsonl): a record is a non-blank line.
type jsonlRecords struct {
	file     string
	lines    *jsonl.Reader
	maxDepth int  // 0: the decoder's limit, not scanned for
	started  bool // a record was returned: the file is not pretty-printed JSON
	done     bool // the file was refused as a whole
}

// JSONL is the Framer of JSONL formats: a record is a non-blank line,
// numbered from 1 (blank lines count), with "\n" or "\r\n" endings and a
// byte-order mark on line 1 removed. A line longer than MaxRecordBytes or
// nested deeper than MaxDepth is an *Error for that line.
func JSONL(file string, r io.Reader, opt Options) RecordReader {
	rr := &jsonlRecords{file: file, lines: jsonl.NewReader(r, opt.RecordBytes())}
	if opt.MaxDepth > 0 && opt.MaxDepth < DefaultMaxDepth {
		rr.maxDepth = opt.MaxDepth
	}
	return rr
}

func (r *jsonlRecords) Next() (RawRecord, error) {
	if r.done {
		return RawRecord{}, io.EOF
	}
	line, err := r.lines.Next()
	if err == nil && !r.started {
		r.started = true
		// A lone "{" or "[" as the first record opens one JSON document
		// written over many lines: its every line would be a bad record,
		// so the file is refused once, here.
		switch string(bytes.TrimSpace(line)) {
		case "[":
			r.done = true
			return RawRecord{}, &Error{File: r.file, Line: r.lines.Line(), Err: ErrPrettyPrinted,
				Msg: "the file is one pretty-printed JSON document (a list over many lines), not JSONL (one record per line): a whole-file format's log, or records to write one per line, e.g. jq -c '.[]' FILE > FILE.jsonl"}
		case "{":
			r.done = true
			return RawRecord{}, &Error{File: r.file, Line: r.lines.Line(), Err: ErrPrettyPrinted,
				Msg: "the file is one pretty-printed JSON document (an object over many lines), not JSONL (one record per line): a whole-file format's log, or a record to write on one line, e.g. jq -c . FILE > FILE.jsonl"}
		}
	}
	var tooLong *jsonl.TooLongError
	switch {
	case err == io.EOF:
		return RawRecord{}, io.EOF
	case errors.As(err, &tooLong):
		return RawRecord{}, &Error{File: r.file, Line: r.lines.Line(), Msg: err.Error()}
	case err != nil:
		// Reported once; the stream then ends, so that a caller that
		// carries on after an *Error does not loop.
		return RawRecord{}, &Error{File: r.file, Line: r.lines.Line(), Msg: "read: " + err.Error(), Err: err}
	case r.maxDepth > 0 && jsonl.DeeperThan(line, r.maxDepth):
		return RawRecord{}, &Error{File: r.file, Line: r.lines.Line(),
			Msg: fmt.Sprintf("record nested deeper than the limit of %d levels (raise it with --max-depth)", r.maxDepth)}
	}
	return RawRecord{Origin: run.Origin{File: r.file, Line: r.lines.Line()}, Data: line}, nil
}
