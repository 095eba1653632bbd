// Package jsonl frames JSON Lines input for tenet's two JSONL readers, the
// transcript reader (eval/transcript) and the runs-file reader (eval/runs):
// one line at a time in bounded memory, with the limits both share — the
// longest record, how deeply a record nests, how long an error message
// quoting a record may grow. It decodes nothing and imports no tenet
// package.
//
// The framing rule (docs/transcripts.md, docs/runs-format.md): a line ends
// at "\n"; a "\r" right before that "\n", or at the very end of the input,
// belongs to the line ending and not to the line (so "\r\n" files read as
// "\n" files); any other "\r" is part of the line. Line numbers count
// "\n", from 1. A UTF-8 byte-order mark at the start of line 1 is dropped,
// and a blank line (white space only) is not a record.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// TooLongError is the error of a record longer than the Reader's limit. Its
// bytes were read and dropped as they came, never held whole.
type TooLongError struct{ Limit int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("record longer than the limit of %d bytes (raise it with --max-record-bytes)", e.Limit)
}

// Reader reads the records of a JSONL input: its non-blank lines. Memory is
// bounded by the limit plus a read buffer, whatever the input.
type Reader struct {
	br    *bufio.Reader
	buf   []byte // the current line, reused
	limit int
	line  int  // number of the line last read, from 1
	ended bool // io.EOF or a read error was returned
}

// NewReader returns a Reader over r whose records are at most limit bytes
// (a line without its line ending; limit ≥ 0).
func NewReader(r io.Reader, limit int) *Reader {
	size := 64 << 10
	if limit < size {
		size = max(limit+1, 16) // 16: bufio's minimum
	}
	return &Reader{br: bufio.NewReaderSize(r, size), limit: limit}
}

// Line returns the number of the line Next last read (from 1): the
// record's, or the one a *TooLongError or a read error is about.
func (l *Reader) Line() int { return l.line }

// Next returns the next record: a non-blank line without its line ending
// (and, on line 1, without a byte-order mark), valid until the next call.
// A line longer than the limit returns a *TooLongError, and the following
// call reads on. At the end it returns io.EOF. A read error is returned as
// is, once, at the line being read (whose bytes are dropped); the input
// then ends and later calls return io.EOF.
func (l *Reader) Next() ([]byte, error) {
	for !l.ended {
		line, tooLong, err := l.next()
		switch {
		case err == io.EOF:
			l.ended = true
		case err != nil:
			l.ended = true
			return nil, err
		case tooLong:
			return nil, &TooLongError{Limit: l.limit}
		default:
			if l.line == 1 {
				line = bytes.TrimPrefix(line, []byte("\ufeff"))
			}
			if len(bytes.TrimSpace(line)) > 0 {
				return line, nil
			}
		}
	}
	return nil, io.EOF
}

// next reads one line: its content, or tooLong when that is over the limit
// (then not kept). err is io.EOF when no line is left; a final line
// without "\n" is a line.
func (l *Reader) next() (line []byte, tooLong bool, err error) {
	if cap(l.buf) > 4<<20 {
		l.buf = nil // do not keep a huge line's buffer for the ordinary ones
	}
	l.buf = l.buf[:0]
	n := 0 // bytes of this line read so far, "\n" excluded
	started := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		started = started || len(chunk) > 0
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		n += len(chunk)
		// Keep up to limit+1 bytes: the extra one may be a "\r" that ends
		// the line.
		tooLong = tooLong || n-1 > l.limit
		if !tooLong {
			l.buf = append(l.buf, chunk...)
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if !started {
				return nil, false, io.EOF
			}
		default:
			l.line++
			return nil, false, err
		}
		l.line++
		if tooLong {
			return nil, true, nil
		}
		line = bytes.TrimSuffix(l.buf, []byte{'\r'})
		return line, len(line) > l.limit, nil
	}
}

// DeeperThan reports whether the JSON text data nests arrays and objects
// more than limit levels deep. It counts brackets and braces outside
// strings and validates nothing: the decoder reports malformed JSON. A
// reader whose limit is below its decoder's runs it before decoding.
func DeeperThan(data []byte, limit int) bool {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// DefaultMaxLine is the longest record (line) both JSONL readers accept by
// default: 64 MiB. Each has an option to change it.
const DefaultMaxLine = 64 << 20

// MaxMessageBytes bounds an error message about a record: one that quotes
// a huge string, name or number of the record is cut (Clip), so that a
// hostile line cannot make an error of megabytes.
const MaxMessageBytes = 1 << 10

// Clip returns msg when it has at most MaxMessageBytes bytes, else its
// first MaxMessageBytes bytes (cut at a character boundary) followed by
// "… (N more bytes)".
func Clip(msg string) string {
	if len(msg) <= MaxMessageBytes {
		return msg
	}
	cut := MaxMessageBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
}
