package report

import (
	"fmt"
	"io"
)

// testFormat is one format the tests render in.
type testFormat struct {
	name     string
	write    func(io.Writer, *Document) error
	failures bool // formats.Format.Failures: no lists, so no cuts to say
}

// TestFormats lists every format the tests render in: the table of this
// package, then those formats_test.go (package report_test) appends from
// eval/report/formats (JSON among them), which imports this package and
// so cannot be imported by its internal tests.
var TestFormats = []testFormat{{"table", WriteTable, false}}

// AddTestFormat adds a format to TestFormats (from formats_test.go).
func AddTestFormat(name string, write func(io.Writer, *Document) error, failures bool) {
	for _, f := range TestFormats {
		if f.name == name {
			return
		}
	}
	TestFormats = append(TestFormats, testFormat{name, write, failures})
}

// listsRuns reports whether the named format lists runs (and so says
// where a list was cut): all but the failures-only formats.
func listsRuns(name string) bool {
	for _, f := range TestFormats {
		if f.name == name {
			return !f.failures
		}
	}
	return true
}

// testFormatNames returns the names of TestFormats.
func testFormatNames() []string {
	var out []string
	for _, f := range TestFormats {
		out = append(out, f.name)
	}
	return out
}

// testWrite renders d in the named format of TestFormats.
func testWrite(w io.Writer, d *Document, name string) error {
	for _, f := range TestFormats {
		if f.name == name {
			return f.write(w, d)
		}
	}
	return fmt.Errorf("format %q not in TestFormats", name)
}
