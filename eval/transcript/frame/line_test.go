package frame

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestRecordError checks where a Decoder's msg is reported: at the line
// AtLine names inside the record, counted from the record's origin, and
// at the origin for any other msg (a prefix naming no line of the record
// is kept as text).
func TestRecordError(t *testing.T) {
	at := run.Origin{File: "f.json", Line: 10}
	three := []byte("{\n\"a\": 1,\n\"b\": 2}")
	for _, tc := range []struct {
		data []byte
		msg  string
		want string
	}{
		{three, AtLine(3, "b: bad"), "f.json:12: b: bad"},
		{three, AtLine(1, "a: bad"), "f.json:10: a: bad"},
		{three, "line 1: text", "f.json:10: line 1: text"},
		{three, AtLine(0, "whole"), "f.json:10: whole"},
		{three, "whole record", "f.json:10: whole record"},
		{three, "line 4: past the record", "f.json:10: line 4: past the record"},
		{three, "line 02: leading zero", "f.json:10: line 02: leading zero"},
		{three, "line 2 of the text", "f.json:10: line 2 of the text"},
		{three, "line -1: sign", "f.json:10: line -1: sign"},
		{three, "line 99999999999999999999: huge", "f.json:10: line 99999999999999999999: huge"},
		{[]byte("{}"), "line 1: one line", "f.json:10: line 1: one line"},
		{[]byte("{}"), "line 2: one line", "f.json:10: line 2: one line"},
	} {
		if got := RecordError(at, tc.data, tc.msg).Error(); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.msg, got, tc.want)
		}
	}
	if got := AtLine(7, "x"); got != "line 7: x" {
		t.Errorf("AtLine(7) = %q", got)
	}
	if got := AtLine(1, "x"); got != "x" {
		t.Errorf("AtLine(1) = %q", got)
	}
}

// TestJSONLPrettyPrinted: a JSONL file whose first record is a lone "{" or
// "[" is one JSON document over many lines, refused once (it was one error
// per line); a lone "{" after a record is that line's own bad record.
func TestJSONLPrettyPrinted(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"\n[\n  {\"a\": 1}\n]\n", []string{`f:2: the file is one pretty-printed JSON document (a list over many lines), not JSONL (one record per line): a whole-file format's log, or records to write one per line, e.g. jq -c '.[]' FILE > FILE.jsonl`}},
		{"{\"a\": 1}\n{\n}\n", []string{"record f:1", "record f:2", "record f:3"}},
	} {
		r := JSONL("f", strings.NewReader(tc.in), Options{})
		var got []string
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				got = append(got, err.Error())
				continue
			}
			got = append(got, fmt.Sprintf("record %s:%d", rec.Origin.File, rec.Origin.Line))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
