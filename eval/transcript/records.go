package transcript

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/internal/jsonl"
)

// RawRecord is one framed, undecoded record of a transcript file.
type RawRecord struct {
	// Origin is the file (as given to OpenRecords) and the record's line,
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
// them, so that decoding (Decode) can run elsewhere, e.g. in parallel.
// Memory is bounded by Options.MaxRecordBytes plus a read buffer.
type RecordReader interface {
	// Next returns the next record, or io.EOF after the last one. A record
	// longer than Options.MaxRecordBytes returns an *Error for it (its bytes
	// are discarded) and the following call reads the next record. An error
	// reading the underlying io.Reader is returned once as an *Error
	// wrapping it; it ends the stream, and later calls return io.EOF. So a
	// caller may always carry on after an *Error.
	Next() (RawRecord, error)
}

// format is one transcript format: how its records are framed and decoded.
type format struct {
	frame func(file string, r io.Reader, opt Options) RecordReader
	// decode decodes one record's Data. It returns skip for a record that
	// carries no transcript, or a non-empty msg saying why the record is
	// malformed. It must keep no reference to data, which the framer
	// reuses for the next record.
	decode func(data []byte) (rn *run.Run, skip bool, msg string)
}

var formats = map[string]format{
	"openai-messages": {frame: newJSONLRecords, decode: decodeOpenAIMessages},
}

// CheckFormat returns nil when format names a known transcript format, else
// the error Open returns for it, which lists the known formats.
func CheckFormat(name string) error {
	_, err := lookup(name)
	return err
}

func lookup(name string) (format, error) {
	f, ok := formats[name]
	if !ok {
		return format{}, fmt.Errorf("unknown transcript format %q (known: %s)", name, strings.Join(Formats(), ", "))
	}
	return f, nil
}

// OpenRecords returns a reader that frames the records of format over r;
// file names the input in errors and in each record's Origin. An unknown
// format is the error of CheckFormat. OpenRecords reads nothing from r.
func OpenRecords(format, file string, r io.Reader, opt Options) (RecordReader, error) {
	f, err := lookup(format)
	if err != nil {
		return nil, err
	}
	return f.frame(file, r, opt), nil
}

// Decode decodes one record of format, as framed by OpenRecords, into a run
// whose Origin is origin. skip reports a record that carries no transcript
// (such as a header line; the run is then nil). A malformed record returns
// an *Error at origin (file:line: reason). An unknown format is the error of
// CheckFormat. Decode keeps no reference to data; it is safe for concurrent
// use.
func Decode(format string, origin run.Origin, data []byte) (rn *run.Run, skip bool, err error) {
	f, err := lookup(format)
	if err != nil {
		return nil, false, err
	}
	rn, skip, msg := f.decode(data)
	if msg != "" {
		return nil, false, &Error{File: origin.File, Line: origin.Line, Msg: msg}
	}
	if skip {
		return nil, true, nil
	}
	rn.Origin = origin
	return rn, false, nil
}

// jsonlRecords frames JSONL (internal/jsonl): a record is a non-blank line.
type jsonlRecords struct {
	file     string
	lines    *jsonl.Reader
	maxDepth int // 0: the decoder's limit, not scanned for
}

func newJSONLRecords(file string, r io.Reader, opt Options) RecordReader {
	rr := &jsonlRecords{file: file, lines: jsonl.NewReader(r, opt.maxRecordBytes())}
	if opt.MaxDepth > 0 && opt.MaxDepth < DefaultMaxDepth {
		rr.maxDepth = opt.MaxDepth
	}
	return rr
}

func (r *jsonlRecords) Next() (RawRecord, error) {
	line, err := r.lines.Next()
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

// reader is a Reader: framing then decoding, one record at a time.
type reader struct {
	format  string
	records RecordReader
	skipped int
}

func (r *reader) Skipped() int { return r.skipped }

func (r *reader) Next() (*run.Run, error) {
	for {
		rec, err := r.records.Next()
		if err != nil {
			return nil, err
		}
		rn, skip, err := Decode(r.format, rec.Origin, rec.Data)
		if err != nil {
			return nil, err
		}
		if skip {
			r.skipped++
			continue
		}
		return rn, nil
	}
}
