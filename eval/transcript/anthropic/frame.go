package anthropic

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Frame is the format's frame.Framer: JSONL as frame.JSONL frames it,
// except for a file whose first record line is "[" or "{" alone. That
// is the first line of one pretty-printed JSON document (the SDK's
// snapshots, a json.dump with indent), which is not JSONL: each of its
// lines would be an error of its own, hundreds for one file. Such a file
// is one error at that line, with the jq command that makes it JSONL;
// the rest of the file is read past, not framed (a read error there is
// still reported). Memory stays bounded by opt as in frame.JSONL.
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &records{lines: frame.JSONL(file, r, opt)}
}

type records struct {
	lines  frame.RecordReader
	seen   bool // the first record was looked at
	pretty bool // the file is one pretty-printed document, reported
}

func (rr *records) Next() (frame.RawRecord, error) {
	if rr.pretty {
		// Read past the rest of the document, line by line.
		for {
			_, err := rr.lines.Next()
			var fe *frame.Error
			switch {
			case err == nil:
			case errors.As(err, &fe) && fe.Err == nil:
				// A line too long or too deep: part of the document.
			default:
				return frame.RawRecord{}, err // io.EOF, or a read error
			}
		}
	}
	if rr.seen {
		return rr.lines.Next()
	}
	rr.seen = true
	rec, err := rr.lines.Next()
	if err != nil {
		return rec, err
	}
	t := strings.TrimSpace(string(rec.Data))
	if t != "[" && t != "{" {
		return rec, nil
	}
	rr.pretty = true
	return frame.RawRecord{}, &frame.Error{File: rec.Origin.File, Line: rec.Origin.Line,
		Msg: fmt.Sprintf("line %d is %q alone: the file is %s", rec.Origin.Line, t, prettyHint(t))}
}

// prettyHint says what a file whose first line is t ("[" or "{") alone
// is, and how to make it JSONL.
func prettyHint(t string) string {
	return "one pretty-printed JSON document, not JSONL (one record a line): " + jqHint(t)
}

// jqHint is the jq command that makes JSONL of a document that starts
// with t: the elements of a list, or the one object.
func jqHint(t string) string {
	if t == "[" {
		return `a list of records? make it JSONL with jq -c '.[]'`
	}
	return `one record? make it JSONL with jq -c .`
}
