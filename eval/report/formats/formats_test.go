package formats

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval/report"
)

// TestTable: the formats --format accepts, in help order, each rendering
// a Document; an unknown name is an error listing them.
func TestTable(t *testing.T) {
	want := []string{"table", "table-full", "json", "markdown", "junit", "html", "sarif", "github"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	d := report.BuildTests("v", report.Contract{Name: "c"}, []report.TestResult{{Contract: "c", Name: "ok", Passed: true}})
	for _, name := range want {
		var b bytes.Buffer
		if err := Write(&b, d, name); err != nil || (b.Len() == 0) != (name == "github") { // github: no failure, no line
			t.Errorf("%s: %d bytes, %v", name, b.Len(), err)
		}
	}
	err := Write(&bytes.Buffer{}, d, "pdf")
	if err == nil || err.Error() != `unknown format "pdf": want table, table-full, json, markdown, junit, html, sarif, github` {
		t.Errorf("unknown format: %v", err)
	}
}
