package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestLongNamesApart: conditions of 5,001 characters that differ only in
// the last one print apart in the table and Markdown reports (review
// finding 7: both printed as "AAAA…(+4801 bytes)", no warning); two that
// differ only in the middle print the same and are warned about.
func TestLongNamesApart(t *testing.T) {
	a := strings.Repeat("A", 5000)
	half := strings.Repeat("A", MaxNameWidthForTest/2)
	tail := strings.Repeat("A", MaxNameWidthForTest/2-1)
	recs := cutRecords(1, a+"x", a+"y")
	d := testBuild(testInput{Command: CommandReport, Version: "v", Records: recs})
	if len(d.Warnings) != 0 {
		t.Errorf("warnings %q", d.Warnings)
	}
	for _, f := range []string{"table", "markdown"} {
		var buf bytes.Buffer
		if err := testWrite(&buf, d, f); err != nil {
			t.Fatal(err)
		}
		for _, end := range []string{"x", "y"} {
			if want := half + "…(+4801 bytes)…" + tail + end; !strings.Contains(buf.String(), want) {
				t.Errorf("%s: no condition ending in %q", f, end)
			}
		}
	}
	m1, m2 := a[:2500]+"1"+a[2500:], a[:2500]+"2"+a[2500:]
	d = testBuild(testInput{Command: CommandReport, Version: "v", Records: cutRecords(1, m1, m2)})
	shown := half + "…(+4801 bytes)…" + half
	want := "conditions " + shown + ", " + shown + " differ only by the middle that is cut when they are printed: they are reported as different conditions"
	if len(d.Warnings) != 1 || d.Warnings[0] != want {
		t.Errorf("warnings %.300q\nwant %.300q", d.Warnings, want)
	}
}
