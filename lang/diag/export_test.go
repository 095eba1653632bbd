package diag

import (
	"io"

	"github.com/hashicorp/hcl/v2"
)

// What the external tests (text_test.go, which compiles contracts and so
// cannot be in package diag) read of the text writer's internals.

var (
	ScanLines   = scanLines
	SnippetLine = snippetLine
)

const (
	MaxSnippetLine = maxSnippetLine
	SnippetWindow  = snippetWindow
	SnippetBefore  = snippetBefore
)

// IndexedLine is a line as scanLines gives it, for comparison with HCL's
// range scanner.
func IndexedLine(l indexedLine) (hcl.Range, []byte) { return l.rng, l.bytes }

// WriteTextCounting is WriteText, returning the files indexed and the lines
// visited.
func WriteTextCounting(w io.Writer, dir string, files map[string]*hcl.File, diags hcl.Diagnostics) (scans, visited int) {
	tw := writeText(w, dir, files, diags, nil)
	return tw.scans, tw.visited
}
