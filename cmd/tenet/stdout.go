package main

import (
	"fmt"
	"io"
)

// checkedWriter is standard output as every command sees it: it keeps the
// first write error, and after one writes nothing more (a report cut
// midway is not followed by a later line as if nothing happened).
// MainContext checks it once after the command, so that no command exits
// 0 (or 1) having lost its output — `tenet inspect > /dev/full` printed
// nothing and exited 0 — whether or not the command checks its writes.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
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

// stdoutFailed is the exit code and message after the command when
// standard output could not be written: exitBad, unless the command has
// already exited with exitBad (eval and report check their own writes and
// name the error) or was interrupted.
func stdoutFailed(code int, out *checkedWriter, stderr io.Writer) int {
	if out.err == nil || code == exitBad || code == exitInterrupted {
		return code
	}
	fmt.Fprintf(stderr, "tenet: cannot write standard output: %v\n", out.err)
	return exitBad
}
