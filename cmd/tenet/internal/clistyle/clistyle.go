// Package clistyle carries the colour decision (internal/termstyle) to
// where tenet's commands write: standard output's style through the
// command's context, since the writer a command sees there is a wrapper
// that checks errors (a terminal only shows through the real one), and a
// buffer's through Writer, for text buffered on its way to a terminal.
// It also colours the words of tenet test's report.
package clistyle

import (
	"bytes"
	"context"
	"io"

	"github.com/tenetlang/tenet/internal/termstyle"
)

type stdoutKey struct{}

// WithStdout is ctx carrying the style of the command's standard output.
func WithStdout(ctx context.Context, s termstyle.Style) context.Context {
	return context.WithValue(ctx, stdoutKey{}, s)
}

// Stdout is the style of standard output carried by ctx (off if none).
func Stdout(ctx context.Context) termstyle.Style {
	s, _ := ctx.Value(stdoutKey{}).(termstyle.Style)
	return s
}

// Writer is a writer with the style of where its text ends up: a buffer
// whose content is copied to a terminal later.
type Writer struct {
	io.Writer
	termstyle.Style
}

// Of is the style of text written to w: w's own for a Writer, else
// termstyle.For(w, getenv).
func Of(w io.Writer, getenv func(string) string) termstyle.Style {
	if sw, ok := w.(Writer); ok {
		return sw.Style
	}
	return termstyle.For(w, getenv)
}

// Tests colours tenet test's table (eval/report's writeTestsTable): the
// "ok" that starts a passed test's line green, the "FAIL" of a failed one
// red. Other lines, and everything with colour off, are left as they are.
func Tests(table []byte, s termstyle.Style) []byte {
	if !s.Enabled() {
		return table
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(table, []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("ok    ")):
			out.WriteString(s.OK("ok"))
			out.Write(line[len("ok"):])
		case bytes.HasPrefix(line, []byte("FAIL  ")):
			out.WriteString(s.Error("FAIL"))
			out.Write(line[len("FAIL"):])
		default:
			out.Write(line)
		}
	}
	return out.Bytes()
}
