package assemble

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// TestCheckIDs: runs of another bundle or of none are refused at
// their file:line, in the order the files were given and read (not the
// records' key order), at most maxRefusedRuns named and the rest counted.
func TestCheckIDs(t *testing.T) {
	good, other := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	rec := func(task, bundle string) runs.Record {
		return runs.Record{Key: runs.Key{Contract: "c", Condition: "x", Task: task, Attempt: 1, Repetition: 1}, Bundle: bundle}
	}
	// Sorted by key, as read: t1 from b.jsonl:2, t2 from a.jsonl:1, t3
	// from b.jsonl:1; the files were given as b.jsonl then a.jsonl.
	recs := []runs.Record{rec("t1", other), rec("t2", ""), rec("t3", good)}
	at := []runs.Pos{{File: "b.jsonl", Line: 2}, {File: "a.jsonl", Line: 1}, {File: "b.jsonl", Line: 1}}
	files := []string{"b.jsonl", "a.jsonl"}
	if got := fileOrder(at, files); fmt.Sprint(got) != "[2 0 1]" {
		t.Errorf("fileOrder = %v, want [2 0 1]", got)
	}
	if err := CheckIDs(recs, at, files, nil); err != nil {
		t.Errorf("no ids: %v", err)
	}
	if err := CheckIDs(recs[2:], at[2:], files, []string{good}); err != nil {
		t.Errorf("the expected bundle: %v", err)
	}
	want := "b.jsonl:2: run c:x/t1 was judged by " + other + ", not by the expected bundle " + good + " (--expect-bundle-id)\n" +
		"a.jsonl:1: run c:x/t2 has no bundle field: which bundle judged it is unknown, and --expect-bundle-id accepts only runs judged by " + good + "\n" +
		"2 of 3 runs refused: re-run tenet eval with the expected bundle (it writes the bundle field), or leave out the runs of other bundles"
	if err := CheckIDs(recs, at, files, []string{good}); err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	var many []runs.Record
	var manyAt []runs.Pos
	for i := range maxRefusedRuns + 3 {
		many = append(many, rec(fmt.Sprintf("t%02d", i), other))
		manyAt = append(manyAt, runs.Pos{File: "r.jsonl", Line: i + 1})
	}
	err := CheckIDs(many, manyAt, []string{"r.jsonl"}, []string{good, other + "0"})
	lines := strings.Split(fmt.Sprint(err), "\n")
	if len(lines) != maxRefusedRuns+2 || lines[maxRefusedRuns] != "… and 3 more runs" || !strings.HasPrefix(lines[maxRefusedRuns+1], "13 of 13 runs refused") ||
		!strings.HasPrefix(lines[0], "r.jsonl:1: run c:x/t00 was judged by "+other+", not by the expected bundle "+good+" or "+other+"0 ") {
		t.Errorf("got\n%v", err)
	}
}
