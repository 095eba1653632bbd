package transcript

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
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

// jsonlRecords frames JSONL: a record is a non-blank line.
type jsonlRecords struct {
	file     string
	lines    *lineReader
	maxDepth int  // 0: the decoder's limit, not scanned for
	ended    bool // sticky: the stream has ended (io.EOF or a read error)
}

func newJSONLRecords(file string, r io.Reader, opt Options) RecordReader {
	rr := &jsonlRecords{file: file, lines: newLineReader(r, opt.maxRecordBytes())}
	if opt.MaxDepth > 0 && opt.MaxDepth < DefaultMaxDepth {
		rr.maxDepth = opt.MaxDepth
	}
	return rr
}

// deeperThan reports whether the JSON text data nests arrays and objects
// more than max levels deep. It counts brackets and braces outside strings
// and does not validate: the decoder reports malformed JSON.
func deeperThan(data []byte, max int) bool {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > max {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

func (r *jsonlRecords) Next() (RawRecord, error) {
	for !r.ended {
		line, tooLong, err := r.lines.next()
		if err == io.EOF {
			r.ended = true
			break
		}
		if err != nil {
			// Reported once; the stream then ends, so that a caller that
			// carries on after an *Error does not loop.
			r.ended = true
			return RawRecord{}, &Error{File: r.file, Line: r.lines.line, Msg: "read: " + err.Error(), Err: err}
		}
		if tooLong {
			return RawRecord{}, &Error{File: r.file, Line: r.lines.line,
				Msg: fmt.Sprintf("record longer than the limit of %d bytes (raise it with --max-record-bytes)", r.lines.max)}
		}
		if r.lines.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff")) // a UTF-8 byte-order mark
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if r.maxDepth > 0 && deeperThan(line, r.maxDepth) {
			return RawRecord{}, &Error{File: r.file, Line: r.lines.line,
				Msg: fmt.Sprintf("record nested deeper than the limit of %d levels (raise it with --max-depth)", r.maxDepth)}
		}
		return RawRecord{Origin: run.Origin{File: r.file, Line: r.lines.line}, Data: line}, nil
	}
	return RawRecord{}, io.EOF
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
