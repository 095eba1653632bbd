package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestHugeConditionNameBounded: one condition name of 6 MiB, next to a
// short one, gives a report of kilobytes in every format (issue 13, item
// 7): the table padded every row to the 6 MiB cell, and wrote it in every
// table, which made gigabytes from a few conditions.
func TestHugeConditionNameBounded(t *testing.T) {
	testtier.Heavy(t, "a 6 MiB condition name rendered in every format")
	huge := strings.Repeat("g", 6<<20)
	recs := append(cutRecords(3, huge), cutRecords(3, "short")...)
	d := testBuild(testInput{Command: CommandReport, Version: "v", Records: recs})
	mark := fmt.Sprintf("…(+%d bytes)", len(huge)-MaxNameWidthForTest)
	for _, f := range testFormatNames() {
		var buf bytes.Buffer
		if err := testWrite(&buf, d, f); err != nil {
			t.Fatal(err)
		}
		// JSON keeps names whole: the name once per entry naming it.
		limit := 64 << 10
		if f == "json" {
			limit = 64<<10 + 16*len(huge)
		}
		if buf.Len() > limit {
			t.Errorf("%s: %d bytes, want at most %d", f, buf.Len(), limit)
		}
		want := mark
		if f == "html" {
			want = strings.Replace(mark, "+", "&#43;", 1) // html/template's escape
		}
		if f != "json" && !strings.Contains(buf.String(), want) {
			t.Errorf("%s: the cut is not marked %q", f, mark)
		}
	}
}

// MaxNameWidthForTest is runs.MaxNameWidth, the width names are cut to.
const MaxNameWidthForTest = runs.MaxNameWidth

// TestFailedConditionsNamed: the error line of conditions in error names
// the first 20 and counts the others.
func TestFailedConditionsNamed(t *testing.T) {
	var recs []runs.Record
	for i := range 30 {
		r := fixtureRecord("", fmt.Sprintf("c%02d", i), "t", "", true, false)
		r.Utility = runs.Unknown("no such key")
		recs = append(recs, r)
	}
	d := testBuild(testInput{Command: CommandReport, Version: "v", Records: recs})
	want := "metrics: 30 of 30 conditions have errors (30 with a rate over an unknown label: --unknown=bounds bounds it): c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, and 10 more"
	if len(d.Errors) != 1 || d.Errors[0] != want {
		t.Errorf("errors %q\nwant %q", d.Errors, want)
	}
}
