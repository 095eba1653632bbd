package runs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Writer writes a runs file one record at a time, records in key order (as
// a Sorted yields them), and checks what Write checks (Check): each record
// valid, no two with the same key, exposure labels consistent within a
// condition. A record that breaks a rule is still written: Close reports
// every problem, as Write would have reported it before writing anything,
// so write to a file that is discarded on error (atomicfile). For valid
// records the bytes are Write's.
type Writer struct {
	w   *bufio.Writer
	buf bytes.Buffer

	n    int
	last Key
	// The current condition (its first key) and its attacked runs with
	// and without exposure, with the first of each.
	cond          Key
	with, without int
	withEx, woEx  Key
	invalid, dups []error
	exposure      []error
	err           error // an I/O error, or a record out of order
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
	k := rec.Key
	if w.n > 0 {
		if c := k.Compare(w.last); c < 0 {
			w.err = fmt.Errorf("runs: run %s written after run %s: records are written in key order", k, w.last)
			return w.err
		} else if c == 0 {
			w.dups = append(w.dups, fmt.Errorf("duplicate run %s", k))
		}
	}
	if w.n == 0 || k.Contract != w.cond.Contract || k.Condition != w.cond.Condition {
		if w.n > 0 {
			w.endCondition()
		}
		w.cond = k
	}
	w.n++
	w.last = k
	if err := rec.Validate(); err != nil {
		w.invalid = append(w.invalid, err)
	}
	if k.Attacked() {
		if rec.HasExposed {
			if w.with == 0 {
				w.withEx = k
			}
			w.with++
		} else {
			if w.without == 0 {
				w.woEx = k
			}
			w.without++
		}
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

// endCondition checks the exposure labels of the condition that ends.
func (w *Writer) endCondition() {
	if w.with > 0 && w.without > 0 {
		w.exposure = append(w.exposure, fmt.Errorf("condition %s: label exposed is present on %d of %d attacked runs (e.g. run %s) and absent on %d (e.g. run %s); either every attacked run of a condition carries it or none",
			w.cond.ConditionName(), w.with, w.with+w.without, w.withEx, w.without, w.woEx))
	}
	w.with, w.without = 0, 0
}

// Close flushes the output and returns the first I/O or order error, else
// what Write's Check would have returned for the records written (at most
// 20 errors, joined), else nil. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.n > 0 {
		w.endCondition()
	}
	if err := w.w.Flush(); err != nil {
		w.err = err
		return err
	}
	errs := append(append(append([]error(nil), w.invalid...), w.dups...), w.exposure...)
	if len(errs) > maxErrors {
		errs = append(errs[:maxErrors], fmt.Errorf("too many errors (%d), showing the first %d", len(errs), maxErrors))
	}
	return errors.Join(errs...)
}
