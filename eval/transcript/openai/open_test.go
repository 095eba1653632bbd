package openai

import (
	"io"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// The tests of this reader read whole files as eval/transcript's Open
// does (which cannot be imported here: it imports this package): framed
// by frame.JSONL, each record decoded by Decode, errors at the record's
// origin.

type (
	Options = frame.Options
	Error   = frame.Error
)

const DefaultMaxDepth = frame.DefaultMaxDepth

type testReader struct {
	records frame.RecordReader
	skipped int
}

// Open reads format, which must be "openai-messages", as eval/transcript's
// Open does.
func Open(format, file string, r io.Reader, opt Options) (*testReader, error) {
	if format != "openai-messages" {
		panic("this package reads openai-messages only")
	}
	return &testReader{records: frame.JSONL(file, r, opt)}, nil
}

func (r *testReader) Skipped() int { return r.skipped }

func (r *testReader) Next() (*run.Run, error) {
	for {
		rec, err := r.records.Next()
		if err != nil {
			return nil, err
		}
		rn, skip, msg := Decode(rec.Data)
		if msg != "" {
			return nil, &Error{File: rec.Origin.File, Line: rec.Origin.Line, Msg: msg}
		}
		if skip {
			r.skipped++
			continue
		}
		rn.Origin = rec.Origin
		return rn, nil
	}
}
