// Package termstyle decides whether a command's output may be coloured and
// colours short pieces of text when it may.
//
// Colour is for people at a terminal: it is on only when the writer is a
// terminal, the NO_COLOR convention (https://no-color.org: set and not
// empty) is absent and TERM is not "dumb". Pipes, files, CI logs and
// golden tests therefore always see plain text. It imports no tenet
// package.
package termstyle

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Style colours text, or leaves it alone when colour is off. The zero
// Style is off.
type Style struct{ on bool }

// For is the Style of output written to w, with the environment read
// through getenv (os.Getenv in commands; a map in tests).
func For(w io.Writer, getenv func(string) string) Style {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return Style{}
	}
	f, ok := w.(interface{ Fd() uintptr })
	if !ok {
		return Style{}
	}
	return Style{on: term.IsTerminal(int(f.Fd()))}
}

// On is a Style that colours (tests of what colour looks like).
func On() Style { return Style{on: true} }

// Enabled reports whether s colours.
func (s Style) Enabled() bool { return s.on }

// SGR parameters of the styles used (ECMA-48 Select Graphic Rendition).
const (
	sgrBold   = "1"
	sgrDim    = "2"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrCyan   = "36"
)

func (s Style) wrap(sgr, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}

// Error is text that reports a failure (an error, a failed gate, a
// violated invariant): bold red.
func (s Style) Error(text string) string { return s.wrap(sgrBold+";"+sgrRed, text) }

// Warning is text that needs attention but fails nothing: yellow.
func (s Style) Warning(text string) string { return s.wrap(sgrYellow, text) }

// OK is text that reports a pass: green.
func (s Style) OK(text string) string { return s.wrap(sgrGreen, text) }

// Bold is a heading.
func (s Style) Bold(text string) string { return s.wrap(sgrBold, text) }

// Dim is text of less weight (a hint, a path).
func (s Style) Dim(text string) string { return s.wrap(sgrDim, text) }

// Note is informational emphasis (a location, a code): cyan.
func (s Style) Note(text string) string { return s.wrap(sgrCyan, text) }

// Stderr is os.Stderr's Style with the process environment: a helper for
// commands, whose writers are the process's own.
func Stderr() Style { return For(os.Stderr, os.Getenv) }
