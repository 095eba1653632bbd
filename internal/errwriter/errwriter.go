// Package errwriter keeps the first error of a writer. tenet's commands
// write standard output through one, so that the command line can check
// once, after the command, that nothing was lost — `tenet inspect >
// /dev/full` used to print nothing and exit 0 — whether or not the command
// checked its own writes.
//
// It takes any io.Writer and gives a Writer that fails every write after
// the first failure (a report cut midway is not followed by a later line
// as if nothing happened) and says what that failure was. It imports no
// tenet package.
package errwriter

import "io"

// Writer is an io.Writer that keeps its first write error; the zero value
// is not usable (New).
type Writer struct {
	w   io.Writer
	err error
}

// New returns a Writer to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p unless an earlier write failed; a short write is
// io.ErrShortWrite.
func (c *Writer) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// Err is the first write error, nil if every write succeeded.
func (c *Writer) Err() error { return c.err }

// Underlying is the writer c writes to: a command asks it whether its
// output is a terminal (termstyle.For), which c itself cannot say.
func (c *Writer) Underlying() io.Writer { return c.w }
