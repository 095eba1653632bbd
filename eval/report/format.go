package report

import (
	"fmt"
	"io"
	"strings"
)

// Write renders the Document in format, one of Formats: "table"
// (WriteTable), "json" (WriteJSON), "markdown" (WriteMarkdown), "junit"
// (WriteJUnit) or "html" (WriteHTML). An unknown format is an error that
// lists the known ones.
func Write(w io.Writer, d *Document, format string) error {
	switch format {
	case "table":
		return WriteTable(w, d)
	case "json":
		return WriteJSON(w, d)
	case "markdown":
		return WriteMarkdown(w, d)
	case "junit":
		return WriteJUnit(w, d)
	case "html":
		return WriteHTML(w, d)
	}
	return fmt.Errorf("unknown format %q: want %s", format, strings.Join(Formats, ", "))
}
