package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/agentdojo"
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

// format is one transcript format: how its records are framed, how one
// record is decoded, and how the start of a file is recognised under
// format "auto" (see frame.Framer, frame.Decoder and frame.Sniffer for
// what each must do).
type format struct {
	frame  frame.Framer
	decode frame.Decoder
	sniff  frame.Sniffer
	// peek, when the format has one, reads a record's meta without its
	// transcript (frame.Peeker).
	peek frame.Peeker
	// peeked, with peek, decodes a record peek passed, reusing the peek
	// (frame.PeekDecoder).
	peeked frame.PeekDecoder
}

// formats is the one table of transcript formats: a new format is a
// package under eval/transcript and one row here.
var formats = map[string]format{
	"agentdojo-run":      {frame: agentdojo.Frame, decode: agentdojo.Decode, sniff: agentdojo.SniffHead, peek: agentdojo.Peek, peeked: agentdojo.DecodePeeked},
	"anthropic-messages": {frame: frame.JSONL, decode: anthropic.Decode, sniff: anthropic.SniffHead},
	"inspect":            {frame: inspect.Frame, decode: inspect.Decode, sniff: inspect.SniffHead},
	"mcp":                {frame: mcp.Frame, decode: mcp.Decode, sniff: mcp.SniffHead},
	"openai-messages":    {frame: frame.JSONL, decode: openai.Decode, sniff: openai.SniffHead, peek: openai.Peek, peeked: openai.DecodePeeked},
	"openai-responses":   {frame: frame.JSONL, decode: responses.Decode, sniff: responses.SniffHead},
	"otel-genai":         {frame: otelgenai.Frame, decode: otelgenai.Decode, sniff: otelgenai.SniffHead},
	"tau-bench":          {frame: taubench.Frame, decode: taubench.Decode, sniff: taubench.SniffHead},
	"tenet":              {frame: frame.JSONL, decode: native.Decode, sniff: native.SniffHead},
}

// CheckFormat returns nil when format names a known transcript format, else
// the error Open returns for it, which lists the known formats.
// "auto" (Auto) is known too.
func CheckFormat(name string) error {
	if name == Auto {
		return nil
	}
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
// format is the error of CheckFormat. OpenRecords reads nothing from r;
// the first Next peeks at the file's start (up to frame.SniffBytes, through
// one bufio.Reader, so r is read once) to name the format it looks like in
// a refusal (hint.go).
func OpenRecords(format, file string, r io.Reader, opt Options) (RecordReader, error) {
	f, err := lookup(format)
	if err != nil {
		return nil, err
	}
	return &hintReader{format: format, decode: f.decode, src: bufio.NewReaderSize(r, frame.SniffBytes),
		open: func(r io.Reader) RecordReader { return f.frame(file, r, opt) }}, nil
}

// Decode decodes one record of format, as framed by OpenRecords, into a run
// whose Origin is origin. skip reports a record that carries no transcript
// (such as a header line; the run is then nil). A malformed record returns
// an *Error at origin, or at the line inside it that the reader names
// (frame.RecordError): file:line: reason. An unknown format is the error of
// CheckFormat. Decode keeps no reference to data; it is safe for concurrent
// use.
func Decode(format string, origin run.Origin, data []byte) (rn *run.Run, skip bool, err error) {
	f, err := lookup(format)
	if err != nil {
		return nil, false, err
	}
	rn, skip, msg := f.decode(data)
	if msg != "" {
		e := frame.RecordError(origin, data, msg)
		e.Msg = hinted(e.Msg, foreignRecord(format, data))
		return nil, false, e
	}
	if skip {
		// A record this format skips as a header line but another
		// format claims is that format's, read silently as nothing.
		// (Claimed, not read: a record of a format that groups
		// records, such as otel-genai's spans, is not a run alone.)
		if others := foreign(format, data); len(others) > 0 {
			return nil, false, &Error{File: origin.File, Line: origin.Line,
				Msg: hinted(fmt.Sprintf("format %s finds no transcript in this record (it would skip it as a header line)", format), others)}
		}
		return nil, true, nil
	}
	rn.Origin = origin
	return rn, false, nil
}

// Peek is a peek at one record of format, as framed by OpenRecords: its
// meta and record without its transcript (frame.Peek), so that a record
// no contract selects need not be decoded. ok is false when the format
// has no peek or the record is not one it can peek at; Decode then tells
// what the record is.
func Peek(format string, data []byte) (p frame.Peek, ok bool) {
	f, err := lookup(format)
	if err != nil || f.peek == nil {
		return frame.Peek{}, false
	}
	return f.peek(data)
}

// DecodePeeked is Decode of a record of format that Peek passed as p,
// reusing p (its members but the transcript are not decoded again; p is
// used up). ok false means Decode on the record's bytes is to tell what
// the record is (it refuses it); when ok, rn is what Decode gives, at
// origin.
func DecodePeeked(format string, origin run.Origin, p frame.Peek) (rn *run.Run, ok bool) {
	f, err := lookup(format)
	if err != nil || f.peeked == nil {
		return nil, false
	}
	if rn, ok = f.peeked(p); ok {
		rn.Origin = origin
	}
	return rn, ok
}

// CanPeek reports whether format has a peek (Peek can answer).
func CanPeek(format string) bool {
	f, err := lookup(format)
	return err == nil && f.peek != nil
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

// Auto is the format name that asks for each file's format to be
// recognised from its start (docs/transcripts.md, "auto"); a source
// without a format means it too.
const Auto = "auto"

// IsAuto reports whether name asks for recognition: "auto", or no name.
func IsAuto(name string) bool { return name == Auto || name == "" }

// Sniff returns the formats whose sniffer claims head, the first up to
// frame.SniffBytes of a file (decompressed), sorted.
func Sniff(head []byte) []string {
	h := frame.Scan(head) // once, for every sniffer
	var claimed []string
	for _, name := range Formats() {
		if formats[name].sniff(h) {
			claimed = append(claimed, name)
		}
	}
	return claimed
}

// ErrNotRecognised is wrapped by the error of ResolveFormat when no format,
// or more than one, claims a file.
var ErrNotRecognised = errors.New("transcript format not recognised")

// ResolveFormat returns the format to read file in and a reader that
// yields all of r. A named format is returned as it is (with r). Under
// auto (IsAuto) it reads the start of r, up to frame.SniffBytes, and
// exactly one format must claim it: none or several is an *Error at the
// file's line 1 (wrapping ErrNotRecognised) naming the formats tried or
// the ones that claimed it; a read error is an *Error too.
func ResolveFormat(name, file string, r io.Reader) (string, io.Reader, error) {
	if !IsAuto(name) {
		return name, r, nil
	}
	br := bufio.NewReaderSize(r, frame.SniffBytes)
	head, err := br.Peek(frame.SniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", nil, &Error{File: file, Line: 1, Msg: "read: " + err.Error(), Err: err}
	}
	claimed := Sniff(head)
	switch len(claimed) {
	case 1:
		return claimed[0], br, nil
	case 0:
		if err != nil && len(bytes.TrimSpace(head)) == 0 {
			// The whole file is in head: nothing for a sniffer to see.
			return "", nil, &Error{File: file, Line: 1, Err: ErrNotRecognised, Msg: emptyFile(file, head)}
		}
		start := "the file's start"
		if c, ok := r.(interface{ Compression() string }); ok && c.Compression() != "" {
			// Said, since the name may not tell (inputs.Decompress goes
			// by the bytes): what no format claims is the decompressed
			// text.
			start += ", once " + c.Compression() + "-decompressed,"
		}
		return "", nil, &Error{File: file, Line: 1, Err: ErrNotRecognised,
			Msg: fmt.Sprintf("format auto: %s looks like none of the formats tried (%s); name the format with format = \"...\" in the source or --transcript-format", start, strings.Join(Formats(), ", "))}
	default:
		return "", nil, &Error{File: file, Line: 1, Err: ErrNotRecognised,
			Msg: fmt.Sprintf("format auto: ambiguous: %s; name the format with format = \"...\" in the source or --transcript-format", orList(claimed))}
	}
}

// emptyFile is the refusal, under auto, of a file that is empty or holds
// only white space (head, all of it): no format can be recognised, and
// the formats differ on what it is — a format whose records are lines
// reads it as no run, one whose file is one document refuses it — so the
// message says which does which, as each format's framer answers.
func emptyFile(file string, head []byte) string {
	var none, refused []string
	for _, name := range Formats() {
		_, err := formats[name].frame(file, bytes.NewReader(head), Options{}).Next()
		if errors.Is(err, io.EOF) {
			none = append(none, name)
		} else {
			refused = append(refused, name)
		}
	}
	what := "empty"
	if len(head) > 0 {
		what = "blank (white space only)"
	}
	msg := "format auto: the file is " + what + ", so its format cannot be recognised"
	if len(none) > 0 {
		msg += "; " + strings.Join(none, ", ") + " read it as no run"
	}
	if len(refused) > 0 {
		msg += "; " + strings.Join(refused, ", ") + " refuse it"
	}
	return msg + ": leave it out, or name the format with format = \"...\" in the source or --transcript-format"
}

// orList joins names as "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
