package transcript

import (
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/anthropic"
	"github.com/tenetlang/tenet/eval/transcript/frame"
	"github.com/tenetlang/tenet/eval/transcript/inspect"
	"github.com/tenetlang/tenet/eval/transcript/mcp"
	"github.com/tenetlang/tenet/eval/transcript/native"
	"github.com/tenetlang/tenet/eval/transcript/openai"
	"github.com/tenetlang/tenet/eval/transcript/otelgenai"
	"github.com/tenetlang/tenet/eval/transcript/responses"
	"github.com/tenetlang/tenet/eval/transcript/taubench"
)

// RawRecord is one framed, undecoded record of a transcript file
// (frame.RawRecord).
type RawRecord = frame.RawRecord

// RecordReader frames the records of one transcript file without decoding
// them, so that decoding (Decode) can run elsewhere, e.g. in parallel
// (frame.RecordReader).
type RecordReader = frame.RecordReader

// format is one transcript format: how its records are framed and how one
// record is decoded (see frame.Framer and frame.Decoder for what each
// must do).
type format struct {
	frame  frame.Framer
	decode frame.Decoder
}

// formats is the one table of transcript formats: a new format is a
// package under eval/transcript and one row here.
var formats = map[string]format{
	"anthropic-messages": {frame: frame.JSONL, decode: anthropic.Decode},
	"inspect":            {frame: inspect.Frame, decode: inspect.Decode},
	"mcp":                {frame: mcp.Frame, decode: mcp.Decode},
	"openai-messages":    {frame: frame.JSONL, decode: openai.Decode},
	"openai-responses":   {frame: frame.JSONL, decode: responses.Decode},
	"otel-genai":         {frame: otelgenai.Frame, decode: otelgenai.Decode},
	"tau-bench":          {frame: taubench.Frame, decode: taubench.Decode},
	"tenet":              {frame: frame.JSONL, decode: native.Decode},
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
