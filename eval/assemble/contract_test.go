package assemble

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/runs"
)

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
	if s := c.Skipped[0]; len(s.IDs) != report.MaxSkippedIDs || s.MoreIDs != len(ids)-report.MaxSkippedIDs || s.Count != len(ids) {
		t.Fatalf("%d ids listed, %d more, count %d", len(s.IDs), s.MoreIDs, s.Count)
	}
	r := runs.Record{Key: runs.Key{Condition: "a", Task: "T1", Attempt: 1, Repetition: 1}, Utility: runs.Bool(true),
		Invariants: map[string]runs.Label{"inv": runs.Bool(false)},
		Witnesses:  map[string]map[string]string{"invariants.inv": {"s": "event:0"}}}
	d := Build(Input{Command: report.CommandEval, Version: "v", Contracts: []report.Contract{c}}, []runs.Record{r})
	for _, f := range formats.Names() {
		var buf bytes.Buffer
		if err := formats.Write(&buf, d, f); err != nil {
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
			if s.MoreIDs != 199901 || len(s.IDs) != 100 || s.IDs[0].ID != strings.Repeat("t", report.MaxCellWidth/2)+"…(+10485560 bytes)…"+strings.Repeat("t", report.MaxCellWidth/2) {
				t.Errorf("json: %d ids, more_ids %d, first %.30q", len(s.IDs), s.MoreIDs, s.IDs[0].ID)
			}
		}
	}
}
