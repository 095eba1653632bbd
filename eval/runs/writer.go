package runs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Writer writes a runs file one record at a time, records in key order (as
// a Sorted yields them), and checks what Write checks (Check): each record
// valid, no two with the same key, exposure labels consistent within a
// condition. A record that breaks a rule is still written: Close reports
// every problem, as Write would have reported it before writing anything,
// so write to a file that is discarded on error (atomicfile). For valid
// records the bytes are Write's.
type Writer struct {
	w       *bufio.Writer
	buf     bytes.Buffer
	check   checker
	invalid []error
	err     error // an I/O error, or a record out of order
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10)}
}

// Write writes rec. line, when not nil, is rec's runs-file line as Sorted
// gives it (Sorted.Line), written as is; else rec is encoded. It returns an
// error for a record whose key sorts before the last one's, and for an I/O
// error; the rules Close checks do not stop the writing.
func (w *Writer) Write(rec Record, line []byte) error {
	if w.err != nil {
		return w.err
	}
	if last := w.check.last.rec.Key; w.check.n > 0 && rec.Key.Compare(last) < 0 {
		w.err = fmt.Errorf("runs: run %s written after run %s: records are written in key order", rec.Key, last)
		return w.err
	}
	w.check.add(located{rec: rec})
	if err := rec.Validate(); err != nil {
		w.invalid = append(w.invalid, err)
	}
	if line == nil {
		w.buf.Reset()
		if err := encodeLine(&w.buf, rec); err != nil {
			w.err = err
			return err
		}
		line = w.buf.Bytes()
	}
	if _, err := w.w.Write(line); err != nil {
		w.err = err
	}
	return w.err
}

// Close flushes the output and returns the first I/O or order error, else
// what Write's Check would have returned for the records written (at most
// 20 errors, joined), else nil. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = err
		return err
	}
	return errors.Join(capErrors(append(slices.Clone(w.invalid), w.check.end()...))...)
}
