package responses

import (
	"bytes"
	"io"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Frame is the format's frame.Framer: JSONL (frame.JSONL, with its
// bounds), except that a file whose first record is "{" or "[" alone —
// one JSON document pretty-printed over many lines, as an SDK's snapshot
// or `json.dump(..., indent=2)` writes it — is one *frame.Error at that
// line, and the file ends there: read as JSONL, each of its lines would
// be an error of its own (hundreds of "invalid JSON") that say less.
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &records{inner: frame.JSONL(file, r, opt), file: file}
}

type records struct {
	inner frame.RecordReader
	file  string
	first bool // the first record was framed
	done  bool // a pretty-printed document was reported
}

func (r *records) Next() (frame.RawRecord, error) {
	if r.done {
		return frame.RawRecord{}, io.EOF
	}
	rec, err := r.inner.Next()
	if err != nil || r.first {
		return rec, err
	}
	r.first = true
	if msg := prettyPrinted(rec.Data); msg != "" {
		r.done = true
		return frame.RawRecord{}, &frame.Error{File: r.file, Line: rec.Origin.Line, Msg: msg}
	}
	return rec, nil
}

// prettyPrinted says why a first line that opens a JSON document and
// holds nothing else is not a record, or returns "".
func prettyPrinted(line []byte) string {
	switch string(bytes.TrimSpace(line)) {
	case "[":
		return `the file is one pretty-printed JSON document (a list over many lines), not JSONL (one record per line): write one record per line, e.g. jq -c '.[]' FILE > FILE.jsonl`
	case "{":
		return `the file is one pretty-printed JSON document (an object over many lines), not JSONL (one record per line): write it on one line, e.g. jq -c . FILE > FILE.jsonl`
	}
	return ""
}
