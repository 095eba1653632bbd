package runs

import (
	"os"
	"path/filepath"
	"testing"
)

// ReadFilesAt returns, for each record (sorted by key), the file and line
// it was read from: commands refuse a run at its line with it.
func TestReadFilesAtPositions(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	rec := func(cond string) string {
		return `{"condition":"` + cond + `","task":"t","goal":null,"labels":{"utility":true}}` + "\n"
	}
	if err := os.WriteFile(a, []byte(rec("z")+"\n"+rec("m")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(rec("a")), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, at, err := ReadFilesAt(ReadOptions{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		cond string
		pos  Pos
	}{{"a", Pos{b, 1}}, {"m", Pos{a, 3}}, {"z", Pos{a, 1}}}
	if len(recs) != len(want) || len(at) != len(want) {
		t.Fatalf("got %d records and %d positions, want %d", len(recs), len(at), len(want))
	}
	for i, w := range want {
		if recs[i].Key.Condition != w.cond || at[i] != w.pos {
			t.Errorf("record %d: condition %q at %v, want %q at %v", i, recs[i].Key.Condition, at[i], w.cond, w.pos)
		}
	}
	if got, want := at[1].String(), a+":3"; got != want {
		t.Errorf("Pos.String() = %q, want %q", got, want)
	}
	if _, at, err := ReadFilesAt(ReadOptions{}, filepath.Join(dir, "missing")); err == nil || at != nil {
		t.Errorf("missing file: err %v, positions %v; want an error and no positions", err, at)
	}
}
