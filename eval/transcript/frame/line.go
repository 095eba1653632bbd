package frame

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
)

// A record may span lines: a whole MCP session, a pretty-printed
// tau-bench trajectory. Its Origin names the line it starts on, but an
// error is most useful at the line of the failing message. A Decoder
// says which line of its record a msg is about by writing msg as AtLine
// gives it ("line N: ..."); RecordError, the registry's side, turns that
// into the file's line. The message stays a plain string, so a Decoder
// called on its own still reads well ("line 7: id 3: ..."). Lines are
// counted in the record's Data from Origin.Line, so a Framer that wraps
// an element of the file in Data must put no line break before it
// (tau-bench compacts the header it adds).
//
// A line is only named as "line N: " at the very start of msg, N from 2
// to the record's number of lines: within a message, or naming no line
// of the record, "line" is text (mcp's "the request of line 3"), so a
// one-line (JSONL) record's msg is never taken for a position.

// AtLine returns msg as a Decoder's message about line n of its record,
// counted from 1 at the record's first line (the line of its Origin):
// "line n: msg". For n <= 1 it returns msg unchanged: the record's first
// line is where the registry reports a msg anyway, and a one-line record
// so never carries the prefix.
func AtLine(n int, msg string) string {
	if n <= 1 {
		return msg
	}
	return "line " + strconv.Itoa(n) + ": " + msg
}

// RecordError is the *Error for a Decoder's msg about the record data
// framed at origin. A msg that AtLine placed at line n of the record is
// reported at the file's line origin.Line+n-1, without its "line n: "
// prefix; any other msg at origin.Line. A prefix naming a line the
// record does not have is no position: msg is then kept whole.
func RecordError(origin run.Origin, data []byte, msg string) *Error {
	if n, rest, ok := cutLine(msg); ok && n <= bytes.Count(data, []byte("\n"))+1 {
		return &Error{File: origin.File, Line: origin.Line + n - 1, Msg: rest}
	}
	return &Error{File: origin.File, Line: origin.Line, Msg: msg}
}

// cutLine splits "line N: rest" (N >= 2, in decimal without a sign or
// leading zeros, as AtLine writes it).
func cutLine(msg string) (n int, rest string, ok bool) {
	s, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return 0, "", false
	}
	num, rest, ok := strings.Cut(s, ": ")
	if !ok || num == "" || len(num) > 9 || num[0] == '0' {
		return 0, "", false
	}
	for _, c := range []byte(num) {
		if c < '0' || c > '9' {
			return 0, "", false
		}
	}
	n, _ = strconv.Atoi(num)
	if n < 2 {
		return 0, "", false
	}
	return n, rest, true
}
