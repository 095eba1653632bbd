package mcp

import (
	"bytes"
	"fmt"
	"io"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Frame is the format's frame.Framer: the whole file is one record (one
// session, one run), since a tools/call response may come any number of
// lines after its request. The file is read whole, so memory is bounded by
// opt.RecordBytes() (64 MiB by default, --max-record-bytes): a longer file
// is an *frame.Error at line 1 and no run. opt.MaxDepth bounds each line's
// nesting (an *frame.Error at that line). A file holding only white space
// is no session: no record. A UTF-8 byte-order mark at the start is
// removed.
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &session{file: file, r: r, opt: opt}
}

type session struct {
	file string
	r    io.Reader
	opt  frame.Options
	done bool
}

func (s *session) Next() (frame.RawRecord, error) {
	if s.done {
		return frame.RawRecord{}, io.EOF
	}
	s.done = true
	limit := s.opt.RecordBytes()
	// One byte more than the limit tells a file of exactly the limit from
	// a longer one without reading the rest.
	data, err := io.ReadAll(io.LimitReader(s.r, int64(limit)+1))
	if err != nil {
		return frame.RawRecord{}, &frame.Error{File: s.file, Line: 1, Msg: "read: " + err.Error(), Err: err}
	}
	if len(data) > limit {
		return frame.RawRecord{}, &frame.Error{File: s.file, Line: 1,
			Msg: fmt.Sprintf("MCP session log longer than the limit of %d bytes (the whole file is one record; raise it with --max-record-bytes)", limit)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return frame.RawRecord{}, io.EOF
	}
	if d := s.opt.MaxDepth; d > 0 && d < frame.DefaultMaxDepth {
		// The JSONL framer checks each line's nesting and names its line.
		lines := frame.JSONL(s.file, bytes.NewReader(data), s.opt)
		for {
			if _, err := lines.Next(); err == io.EOF {
				break
			} else if err != nil {
				return frame.RawRecord{}, err
			}
		}
	}
	return frame.RawRecord{Origin: run.Origin{File: s.file, Line: 1}, Data: data}, nil
}
