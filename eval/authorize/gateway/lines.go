package gateway

import (
	"bufio"
	"errors"
	"io"
)

// lineReader reads newline-delimited messages, each at most max bytes
// (without its newline). A longer line is skipped as it streams by — never
// held whole — and reported by its length.
type lineReader struct {
	r    *bufio.Reader
	max  int
	long []byte // a line longer than the bufio buffer, being gathered
}

const readBuffer = 64 << 10

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBuffer), max: max}
}

// next returns the next line, with its newline when it had one; it is
// valid until the following call. When the line was over the limit, line
// is nil and over is its length (as far as it went: up to the newline or
// the end of input). err is io.EOF after the last line.
func (l *lineReader) next() (line []byte, over int64, err error) {
	l.long = l.long[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		n := len(l.long) + len(chunk)
		content := n
		if err == nil {
			content-- // the line's newline, which the limit does not count
		}
		if content > l.max {
			n := int64(n)
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, n, nil
			}
			return nil, n + l.skip(), nil
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			l.long = append(l.long, chunk...)
			continue
		case err != nil && len(l.long)+len(chunk) == 0:
			return nil, 0, err
		case err != nil && !errors.Is(err, io.EOF):
			return nil, 0, err
		}
		// A whole line, or the last one without a newline (err io.EOF:
		// returned now, io.EOF on the next call).
		if len(l.long) == 0 {
			return chunk, 0, nil
		}
		l.long = append(l.long, chunk...)
		return l.long, 0, nil
	}
}

// skip discards input up to and including the next newline and returns
// how many bytes it discarded.
func (l *lineReader) skip() int64 {
	var n int64
	for {
		chunk, err := l.r.ReadSlice('\n')
		n += int64(len(chunk))
		if !errors.Is(err, bufio.ErrBufferFull) {
			return n
		}
	}
}
