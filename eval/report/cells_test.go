package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestHugeConditionNameBounded: one condition name of 6 MiB, next to a
// short one, gives a report of kilobytes in every format (issue 13, item
// 7): the table padded every row to the 6 MiB cell, and wrote it in every
// table, which made gigabytes from a few conditions.
func TestHugeConditionNameBounded(t *testing.T) {
	huge := strings.Repeat("g", 6<<20)
	recs := append(cutRecords(3, huge), cutRecords(3, "short")...)
	d := Build(Input{Command: CommandReport, Version: "v", Records: recs})
	mark := fmt.Sprintf("…(+%d bytes)", len(huge)-MaxNameWidthForTest)
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, d, f); err != nil {
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

// TestSkippedIDsBounded: 200,000 distinct unknown task ids and one of
// 10 MiB make a report of kilobytes in every format, listing the first
// MaxSkippedIDs ids (the long one cut) and counting the others.
func TestSkippedIDsBounded(t *testing.T) {
	ids := map[string]int{strings.Repeat("t", 10<<20): 1}
	for i := range 200000 {
		ids[fmt.Sprintf("unknown_task_%06d", i)] = 1
	}
	res := &pipeline.Result{
		Skipped:    map[eval.Skip]int{eval.TaskNotDeclared: len(ids)},
		SkippedIDs: map[eval.Skip]map[string]int{eval.TaskNotDeclared: ids},
	}
	p := &eval.Program{ID: "sha256:" + strings.Repeat("0", 64), Bundle: &bundle.Bundle{}}
	c := ContractOf(p, res)
	if s := c.Skipped[0]; len(s.IDs) != MaxSkippedIDs || s.MoreIDs != len(ids)-MaxSkippedIDs || s.Count != len(ids) {
		t.Fatalf("%d ids listed, %d more, count %d", len(s.IDs), s.MoreIDs, s.Count)
	}
	recs := cutRecords(1, "a")
	d := Build(Input{Command: CommandEval, Version: "v", Contracts: []Contract{c}, Records: recs})
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, d, f); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > 64<<10 {
			t.Errorf("%s: %d bytes, want at most 64 KiB", f, buf.Len())
		}
		if f == "json" {
			var v struct {
				Contracts []struct {
					Skipped []struct {
						IDs     []struct{ ID string }
						MoreIDs int `json:"more_ids"`
					}
				}
			}
			if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			s := v.Contracts[0].Skipped[0]
			if s.MoreIDs != 199901 || len(s.IDs) != 100 || s.IDs[0].ID != strings.Repeat("t", MaxCellWidth/2)+"…(+10485560 bytes)…"+strings.Repeat("t", MaxCellWidth/2) {
				t.Errorf("json: %d ids, more_ids %d, first %.30q", len(s.IDs), s.MoreIDs, s.IDs[0].ID)
			}
		}
	}
}

// TestFailedConditionsNamed: the error line of conditions in error names
// the first 20 and counts the others.
func TestFailedConditionsNamed(t *testing.T) {
	var recs []runs.Record
	for i := range 30 {
		r := fixtureRecord("", fmt.Sprintf("c%02d", i), "t", "", true, false)
		r.Utility = runs.Unknown("no such key")
		recs = append(recs, r)
	}
	d := Build(Input{Command: CommandReport, Version: "v", Records: recs})
	want := "metrics: 30 of 30 conditions have errors: c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, and 10 more"
	if len(d.Errors) != 1 || d.Errors[0] != want {
		t.Errorf("errors %q\nwant %q", d.Errors, want)
	}
}
