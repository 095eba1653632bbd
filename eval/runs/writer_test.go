package runs_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	. "github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/runstest"
)

// TestWriterMatchesWrite: records written one at a time in key order give
// Write's bytes, and Close the error Write gives for them.
func TestWriterMatchesWrite(t *testing.T) {
	valid := runstest.Adversarial(300, 21)
	attacked := func(cond, task string, exposed bool) Record {
		r := Record{Key: Key{Condition: cond, Task: task, Goal: "g", Attempt: 1, Repetition: 1},
			Utility: True(), AttackSuccess: False(), SideEffect: False()}
		if exposed {
			r.HasExposed, r.Exposed = true, True()
		}
		return r
	}
	bad := Record{Key: Key{Condition: "c", Task: "t", Attempt: 0, Repetition: 1}, Utility: True()}
	var many []Record
	for i := range 30 {
		many = append(many, attacked("m", strings.Repeat("t", i+1), false), attacked("m", strings.Repeat("t", i+1), false))
	}
	for name, recs := range map[string][]Record{
		"valid":      valid,
		"empty":      nil,
		"duplicates": append(slices.Clone(valid[:50]), valid[3], valid[7], valid[7]),
		"invalid":    append(slices.Clone(valid[:20]), bad),
		"exposure": {attacked("a", "t1", true), attacked("a", "t2", false), attacked("a", "t3", false),
			attacked("b", "t1", false), attacked("c", "t1", false), attacked("c", "t2", true), bad},
		"too many errors": many,
	} {
		t.Run(name, func(t *testing.T) {
			var want bytes.Buffer
			werr := Write(&want, recs)
			sorted := slices.Clone(recs)
			SortRecords(sorted)
			for _, withLines := range []bool{false, true} {
				var got bytes.Buffer
				w := NewWriter(&got)
				for _, r := range sorted {
					var line []byte
					if withLines {
						var b bytes.Buffer
						if err := EncodeLine(&b, r); err != nil {
							t.Fatal(err)
						}
						line = b.Bytes()
					}
					if err := w.Write(r, line); err != nil {
						t.Fatal(err)
					}
				}
				err := w.Close()
				switch {
				case werr == nil && err != nil:
					t.Errorf("lines %v: Close: %v", withLines, err)
				case werr != nil && (err == nil || err.Error() != werr.Error()):
					t.Errorf("lines %v: Close gave\n%v\nwant\n%v", withLines, err, werr)
				case werr == nil && !bytes.Equal(got.Bytes(), want.Bytes()):
					t.Errorf("lines %v: bytes differ from Write's", withLines)
				}
			}
		})
	}
}

func TestWriterOrder(t *testing.T) {
	recs := runstest.Adversarial(2, 3)
	SortRecords(recs)
	w := NewWriter(&bytes.Buffer{})
	if err := w.Write(recs[1], nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(recs[0], nil); err == nil || !strings.Contains(err.Error(), "key order") {
		t.Errorf("out of order: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after an order error: nil")
	}
}
