package report_test

import (
	"io"
	"testing"

	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
)

// init makes the internal tests render in every format of the table
// (report.TestFormats), so that what they check of every format (cuts,
// bounds, equivalence of the ways to build a Document) covers Markdown,
// JUnit and HTML too.
func init() {
	for _, f := range formats.All() {
		report.AddTestFormat(f.Name, func(w io.Writer, d *report.Document) error { return f.Render(w, d) }, f.Failures())
	}
}

// TestEveryFormatTested: the internal tests render in every format.
func TestEveryFormatTested(t *testing.T) {
	if got, want := len(report.TestFormats), len(formats.All()); got != want {
		t.Errorf("%d test formats, want %d", got, want)
	}
}
