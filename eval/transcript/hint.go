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
// the one reading them, and the message does not name them already. It
// is computed only when a record is refused or skipped as a header line,
// so a file of runs that read well pays for a peek, no sniffing
// (docs/transcripts.md, "Refusals name the likely format").
//
// Which bytes are sniffed:
//   - a record Decode refuses: the record itself (its first
//     frame.SniffBytes), and a claimant is named only if it reads the
//     record (foreignRecord);
//   - a record Decode skips as a header line: the record itself. One that
//     another format claims is refused, not skipped: an MCP log read as
//     anthropic-messages would otherwise be a file of header lines, read
//     silently as no runs;
//   - the file's first refusal when it comes before any record (a framing
//     error, not a read failure, or a first record that is not JSON on
//     its own: a JSON document over many lines read as JSONL): the start
//     of the file, up to frame.SniffBytes, peeked as the framer starts.

// maxHinted is the most formats a hint names: a head claimed by more says
// nothing useful.
const maxHinted = 2

// foreignRecord is foreign for one record that format refused, keeping
// only the formats that read it: framed and decoded by them, it gives at
// least one run and no error. The sniffers judge a file's start, and a
// record of format that is malformed can look like a laxer format's
// (openai-messages claims most records with "messages"); a record the
// other format refuses too is not hinted at it. This runs only when a
// record was refused, and costs a decode per claimant (two at most).
func foreignRecord(format string, data []byte) []string {
	var read []string
	for _, name := range foreign(format, data) {
		if reads(name, data) {
			read = append(read, name)
		}
	}
	return read
}

// reads reports whether format reads data as runs without an error.
func reads(format string, data []byte) bool {
	f := formats[format]
	// A limit of the record's size keeps the framer's buffer as small:
	// this runs once per refused record.
	records := f.frame("", bytes.NewReader(data), Options{MaxRecordBytes: len(data) + 1})
	runs := 0
	for {
		rec, err := records.Next()
		if errors.Is(err, io.EOF) {
			return runs > 0
		}
		if err != nil {
			return false
		}
		rn, skip, msg := f.decode(rec.Data)
		if msg != "" {
			return false
		}
		if !skip && rn != nil {
			runs++
		}
	}
}

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
	head    []byte       // a copy of the file's start, until the first Next returns
	started bool         // Next returned a record or an error
}

func (h *hintReader) Next() (RawRecord, error) {
	if h.records == nil {
		// A failed peek leaves its error in src for the framer to meet.
		head, _ := h.src.Peek(frame.SniffBytes)
		h.head = bytes.Clone(head)
		h.records = h.open(h.src)
	}
	rec, err := h.records.Next()
	// Only the file's first refusal, before any record, is judged by the
	// file's start: a later one is of its own line, which may hold
	// another format than the first (Decode sniffs a refused record).
	if h.started {
		return rec, err
	}
	h.started = true
	defer func() { h.head = nil }()
	if err != nil {
		var e *Error
		if errors.As(err, &e) && err == error(e) && e.Err == nil {
			c := *e
			c.Msg = hinted(c.Msg, h.foreign())
			return rec, &c
		}
		if errors.As(err, &e) && err == error(e) && errors.Is(e.Err, frame.ErrPrettyPrinted) {
			c := *e
			c.Msg = hinted(c.Msg, h.wholeFile(h.foreign()))
			return rec, &c
		}
		return rec, err
	}
	// A first record that is not JSON by itself is the first line of a
	// JSON document read as JSONL (or a broken line): its refusal, made
	// here, is judged by the file's start. A JSON record is decoded
	// where the caller decodes it (Decode).
	if !json.Valid(rec.Data) {
		if _, _, msg := h.decode(rec.Data); msg != "" {
			e := frame.RecordError(rec.Origin, rec.Data, msg)
			e.Msg = hinted(e.Msg, h.foreign())
			return RawRecord{}, e
		}
	}
	return rec, nil
}

// wholeFile keeps the formats whose framer does not refuse the file's
// start as one pretty-printed JSON document (frame.ErrPrettyPrinted):
// a JSONL format's sniffer may claim the start of such a file, but its
// reader cannot read it.
func (h *hintReader) wholeFile(names []string) []string {
	var keep []string
	for _, name := range names {
		_, err := formats[name].frame("", bytes.NewReader(h.head), Options{}).Next()
		if !errors.Is(err, frame.ErrPrettyPrinted) {
			keep = append(keep, name)
		}
	}
	return keep
}

// foreign sniffs the file's start.
func (h *hintReader) foreign() []string { return foreign(h.format, h.head) }
