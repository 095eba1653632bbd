package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineReader reads lines with memory bounded by max: a line longer than max
// bytes is reported as too long and its bytes are discarded as they are read.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // the current line, reused
	max  int
	line int // number of the line last returned, from 1
}

func newLineReader(r io.Reader, limit int) *lineReader {
	size := 64 << 10
	if limit < size {
		size = max(limit+1, 16) // 16: bufio's minimum
	}
	return &lineReader{br: bufio.NewReaderSize(r, size), max: limit}
}

// next returns the next line without its "\n" or "\r\n". tooLong reports a
// line over max bytes (its content is then not returned). err is io.EOF when
// no line is left, or a read error; a final line without "\n" is a line.
// The returned slice is valid until the next call.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	if cap(l.buf) > 4<<20 {
		l.buf = nil // do not keep a huge line's buffer for the ordinary ones
	}
	l.buf = l.buf[:0]
	n := 0 // bytes of this line read so far, "\n" excluded
	started := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(chunk) > 0 {
			started = true
		}
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		n += len(chunk)
		// Keep up to max+1 bytes: the extra one may be a "\r" before "\n".
		if n-1 > l.max {
			tooLong = true
		}
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
			// A read error: report it at the line being read.
			l.line++
			return nil, false, err
		}
		l.line++
		if tooLong {
			return nil, true, nil
		}
		line = bytes.TrimSuffix(l.buf, []byte{'\r'})
		if len(line) > l.max {
			return nil, true, nil
		}
		return line, false, nil
	}
}
