//go:build unix

package history

import (
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestHashInputsPipe: a named pipe's bytes were read once and are gone:
// it is recorded unknown (NULL hash and size), not as 0 bytes.
func TestHashInputsPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got, err := HashInputs([]string{fifo}, nil)
	if want := []Input{{Path: fifo, Size: -1}}; err != nil || !reflect.DeepEqual(got, want) || got[0].Known() {
		t.Fatalf("HashInputs(fifo) = %+v %v, want %+v", got, err, want)
	}
	db, _ := openTemp(t)
	n := fixture("mail", bundleA, []string{"baseline"}, 1)
	n.Inputs = append(got, Input{Path: "a.jsonl", SHA256: strings.Repeat("1", 64), Size: 3})
	id, err := db.Record(n)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := db.Get(id)
	if !reflect.DeepEqual(e.Inputs, n.Inputs) {
		t.Fatalf("inputs read back %+v, want %+v", e.Inputs, n.Inputs)
	}
	var size sql.NullInt64
	var sum sql.NullString
	db.sql.QueryRow(`SELECT sha256, size FROM inputs WHERE evaluation_id = ? AND position = 0`, id).Scan(&sum, &size)
	if sum.Valid || size.Valid {
		t.Fatalf("the pipe's row: sha256 %v, size %v: want NULL", sum, size)
	}
}
