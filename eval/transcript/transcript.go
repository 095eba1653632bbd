// Package transcript reads agent transcripts into runs (docs/transcripts.md).
//
// A reader is chosen by format name (Open, Formats) and streams: it reads one
// record at a time with a bounded buffer and keeps nothing of earlier records,
// so memory stays constant in the size of the corpus. Malformed input is
// reported as an *Error, "file:line: reason", and the reader carries on with
// the next record, so one bad line costs one run, not the file.
//
// Reading is two steps that can also be taken apart: framing (OpenRecords
// returns a RecordReader yielding each record's raw bytes and origin) and
// decoding (Decode turns one record into a run, and may run on another
// goroutine). Open does both, one record at a time; eval's parallel pipeline
// frames on one goroutine and decodes on many.
//
// This package is the entry and the registry only: each format is a
// package of its own under eval/transcript (openai-messages is
// eval/transcript/openai) that supplies a frame.Framer and a
// frame.Decoder, and is one row of the formats table (records.go). The
// readers share eval/transcript/frame (options, errors, framing) and
// eval/transcript/build (events, calls, matching, nested calls, refusals
// of unread call shapes); the types and constants of frame are re-exported
// here under their old names.
//
// Each row also has a sniffer (frame.Sniffer): under format "auto" (Auto,
// and a source that names no format) ResolveFormat shows a file's first
// 64 KiB to every sniffer and exactly one must claim it; none or several
// is an *Error at the file's line 1 (docs/transcripts.md, "auto"). Under a
// named format the same sniffers name, in a refusal, the format the
// refused bytes look like (hint.go).
package transcript

import (
	"io"
	"sort"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// DefaultMaxRecordBytes is the longest record (line) a reader accepts when
// Options.MaxRecordBytes is zero or negative: 64 MiB.
const DefaultMaxRecordBytes = frame.DefaultMaxRecordBytes

// DefaultMaxDepth is the JSON decoder's nesting limit, which bounds every
// record whatever Options.MaxDepth says.
const DefaultMaxDepth = frame.DefaultMaxDepth

// Options tune a reader (frame.Options).
type Options = frame.Options

// Error is a malformed record (or a read failure) at a line of a file
// (frame.Error).
type Error = frame.Error

// maxErrorMsg bounds the message of an Error, in bytes.
const maxErrorMsg = frame.MaxErrorMsg

// Reader streams the runs of one transcript file.
type Reader interface {
	// Next returns the next run, or io.EOF after the last one. A malformed
	// record returns a nil run and an *Error (file:line: reason); the reader
	// stays usable and the following call reads the next record. An error
	// reading the underlying io.Reader is also returned as an *Error (wrapping
	// it, see errors.Is), once: it ends the stream and later calls return
	// io.EOF. So a caller may always carry on after an *Error.
	Next() (*run.Run, error)
	// Skipped returns how many records read so far were skipped because they
	// carry no transcript (e.g. header lines without "messages").
	Skipped() int
}

// Formats returns the names of the supported formats, sorted.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for name := range formats {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Open returns a reader of format over r; file names the input in errors and
// in each run's Origin. An unknown format is an error that lists the known
// ones. Open reads nothing from r. It is OpenRecords and Decode, one record at
// a time. Under auto (IsAuto) it reads the start of r to choose the
// format (ResolveFormat), whose error it returns.
func Open(format, file string, r io.Reader, opt Options) (Reader, error) {
	format, r, err := ResolveFormat(format, file, r)
	if err != nil {
		return nil, err
	}
	records, err := OpenRecords(format, file, r, opt)
	if err != nil {
		return nil, err
	}
	return &reader{format: format, records: records}, nil
}

// HeaderRecord returns the decoded object of a record Decode skipped as a
// header line, so that a caller that knows the source can tell whether it
// maps to a run (eval's Program.HeaderRun), or nil when data is not one.
func HeaderRecord(data []byte) map[string]any {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil
	}
	rec, _ := v.(map[string]any)
	return rec
}
