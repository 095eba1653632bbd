package runs

import (
	"github.com/tenetlang/tenet/internal/jsonl"

	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRecordLimit: a line longer than the limit is an error at its
// line, its bytes are not kept, and the lines around it are read; "\r\n"
// does not count, and the limit holds across the reader's buffer.
func TestReadRecordLimit(t *testing.T) {
	rec := `{"condition":"a","task":"t%d","labels":{"utility":true}}`
	short := strings.Replace(rec, "%d", "1", 1)
	long := `{"condition":"a","task":"t2","labels":{"utility":true},"grant":"` + strings.Repeat("g", 200<<10) + `"}`
	last := strings.Replace(rec, "%d", "3", 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.jsonl")
	if err := os.WriteFile(path, []byte(short+"\r\n"+long+"\n"+last), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFilesWith(ReadOptions{MaxRecordBytes: 100 << 10}, path)
	want := path + ":2: record longer than the limit of 102400 bytes (raise it with --max-record-bytes)"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	recs, err := ReadFilesWith(ReadOptions{MaxRecordBytes: len(long)}, path)
	if err != nil || len(recs) != 3 {
		t.Fatalf("at the limit: %d records, %v", len(recs), err)
	}
	// Exactly at the limit with "\r\n": accepted.
	if _, err := Read("f", strings.NewReader(short+"\r\n")); err != nil {
		t.Fatal(err)
	}
	rd := reader{max: len(short)}
	rd.read("f", strings.NewReader(short+"\r\n"+short+"x\n"))
	if len(rd.recs) != 1 || len(rd.errs) != 1 || !strings.HasPrefix(rd.errs[0].Error(), "f:2: record longer") {
		t.Fatalf("records %d, errors %v", len(rd.recs), rd.errs)
	}
}

// TestReadErrorsAreCut: an error quoting 100,000 digits, or a field name
// of 100 KB, is cut to about 1 KiB.
func TestReadErrorsAreCut(t *testing.T) {
	in := `{"condition":"a","task":"t","attempt":` + strings.Repeat("9", 100000) + `,"labels":{"utility":true}}` + "\n" +
		`{"condition":"a","task":"u","labels":{"utility":true},"` + strings.Repeat("é", 50000) + `":1}` + "\n"
	_, err := Read("f", strings.NewReader(in))
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d errors", len(lines))
	}
	for _, l := range lines {
		if len(l) > jsonl.MaxMessageBytes+40 || !strings.Contains(l, "more bytes)") || !bytes.Equal([]byte(l), bytes.ToValidUTF8([]byte(l), nil)) {
			t.Errorf("error of %d bytes: %.80s…", len(l), l)
		}
	}
	if !strings.HasPrefix(lines[0], "f:1: field attempt is 999") || !strings.HasPrefix(lines[1], `f:2: run a/u: unknown field "ééé`) {
		t.Errorf("errors:\n%.100s\n%.100s", lines[0], lines[1])
	}
}
