package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// A reader refuses another format's records, but its own words can only
// say what it expected; a file given to the wrong reader is better told
// what it looks like. The hint is the sniffers' verdict (the ones of
// format auto) on the refused bytes: it is added, once, to the message of
// a refusal when the bytes are claimed by one or two formats other than
// the one reading them, and the message names none of those yet. It is
// computed only when a record is refused, so a file that reads well pays
// for no sniffing (docs/transcripts.md, "auto").
//
// Which bytes are sniffed:
//   - a record Decode refuses, or skips as a header line: the record itself
//     (its first frame.SniffBytes). A header line that another format
//     claims and this one does not is refused, not skipped: an MCP log read
//     as anthropic-messages would otherwise be a file of header lines, read
//     silently as no runs;
//   - a framing error (not a read failure), and a file's first record when
//     it is not JSON on its own (a JSON document over many lines read as
//     JSONL): the start of the file, up to frame.SniffBytes, peeked as the
//     framer starts.

// maxHinted is the most formats a hint names: a head claimed by more says
// nothing useful.
const maxHinted = 2

// foreign returns the formats other than format that claim head, when
// format does not and at most maxHinted do; else nil.
func foreign(format string, head []byte) []string {
	if len(head) > frame.SniffBytes {
		head = head[:frame.SniffBytes]
	}
	claimed := Sniff(head)
	for _, name := range claimed {
		if name == format {
			return nil
		}
	}
	if len(claimed) > maxHinted {
		return nil
	}
	return claimed
}

// hinted returns msg with the hint naming formats appended, or msg as it
// is when formats is empty or msg already names each of them. msg is cut
// first if the hint would not fit in frame.MaxErrorMsg.
func hinted(msg string, formats []string) string {
	missing := false
	for _, f := range formats {
		if !namesFormat(msg, f) {
			missing = true
		}
	}
	if !missing {
		return msg
	}
	var hint string
	if len(formats) == 1 {
		f := formats[0]
		hint = fmt.Sprintf(" (this looks like format %q: read it with --transcript-format %s, or format = %q in the source)", f, f, f)
	} else {
		hint = fmt.Sprintf(" (this looks like format %q or %q: name the right one with --transcript-format, or format = \"...\" in the source)", formats[0], formats[1])
	}
	if room := frame.MaxErrorMsg - len(hint) - len("…"); len(msg) > room {
		for room > 0 && !utf8.RuneStart(msg[room]) {
			room--
		}
		msg = msg[:room] + "…"
	}
	return msg + hint
}

// namesFormat reports whether msg names format as a word: not inside a
// longer name ("tenet_run" does not name "tenet").
func namesFormat(msg, format string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], format)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(format)
		if (start == 0 || !nameByte(msg[start-1])) && (end == len(msg) || !nameByte(msg[end])) {
			return true
		}
		i = start + 1
	}
}

// nameByte reports whether b can continue a format name or a member name.
func nameByte(b byte) bool {
	return b == '-' || b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// hintReader is the RecordReader of OpenRecords: the format's own, with
// the hint of the file's start added to framing errors and to a first
// record that is not JSON on its own.
type hintReader struct {
	format  string
	decode  frame.Decoder
	src     *bufio.Reader
	open    func(io.Reader) RecordReader
	records RecordReader // nil until the first Next
	head    []byte       // a copy of the file's start, until the hint is made
	hint    []string
	sniffed bool
	first   bool // the first record was seen
}

func (h *hintReader) Next() (RawRecord, error) {
	if h.records == nil {
		// A failed peek leaves its error in src for the framer to meet.
		head, _ := h.src.Peek(frame.SniffBytes)
		h.head = bytes.Clone(head)
		h.records = h.open(h.src)
	}
	rec, err := h.records.Next()
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Err == nil && err == error(e) {
			c := *e
			c.Msg = hinted(c.Msg, h.foreign())
			return rec, &c
		}
		return rec, err
	}
	if !h.first {
		h.first = true
		if !json.Valid(rec.Data) {
			if _, _, msg := h.decode(rec.Data); msg != "" {
				return RawRecord{}, &Error{File: rec.Origin.File, Line: rec.Origin.Line, Msg: hinted(msg, h.foreign())}
			}
		}
	}
	return rec, nil
}

// foreign sniffs the file's start once.
func (h *hintReader) foreign() []string {
	if !h.sniffed {
		h.sniffed = true
		h.hint = foreign(h.format, h.head)
		h.head = nil
	}
	return h.hint
}
