package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/history"
)

// TestHistoryNewerSchema: a database written by a newer tenet (a higher
// schema version) is refused by every command that opens it, unchanged.
func TestHistoryNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	sdb, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	future := history.SchemaVersion() + 1
	if _, err := sdb.Exec(fmt.Sprintf("PRAGMA user_version = %d", future)); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	before, _ := os.ReadFile(path)
	want := fmt.Sprintf("has schema version %d, newer than this tenet's (%d): use a newer tenet, or another --db", future, history.SchemaVersion())
	for _, args := range [][]string{
		{"history", "list", "--db", path},
		{"history", "show", "1", "--db", path},
		{"eval", "../../examples/quickstart", "../../examples/quickstart/transcripts.jsonl", "--record", "--db", path, "-q"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("tenet %s: exit %d, stderr %q; want 2 and %q", strings.Join(args, " "), code, stderr.String(), want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a newer database was changed")
	}
	// --record and --no-case-lost find it out before judging: the exact
	// message, exit 2, nothing on stdout, no --out or --report-out file.
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "runs.jsonl"), filepath.Join(dir, "r.json")
	for _, args := range [][]string{
		{"eval", "../../examples/quickstart", "../../examples/quickstart/transcripts.jsonl", "--record", "--db", path, "-o", out, "--report-out", rep},
		{"eval", "../../examples/quickstart", "../../examples/quickstart/transcripts.jsonl", "--no-case-lost", "--db", path, "-o", out, "--report-out", rep},
		{"report", "../../eval/runs/testdata/worked.jsonl", "--record", "--db", path, "--report-out", rep},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(args, &stdout, &stderr)
		msg := fmt.Sprintf("tenet %s: history database %s has schema version %d, newer than this tenet's (%d): use a newer tenet, or another --db\n", args[0], path, future, history.SchemaVersion())
		if code != 2 || stdout.Len() != 0 || stderr.String() != msg {
			t.Errorf("tenet %s: exit %d, stdout %q, stderr %q; want 2, nothing, %q", strings.Join(args, " "), code, stdout.String(), stderr.String(), msg)
		}
		for _, f := range []string{out, rep} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("tenet %s wrote %s", strings.Join(args, " "), f)
			}
		}
	}
}

// TestHistoryEnvDB: without --db, TENET_HISTORY_DB names the database.
func TestHistoryEnvDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "env.db")
	t.Setenv(history.EnvDB, path)
	t.Setenv("TENET_HISTORY_TIME", "2026-12-02T10:00:00Z")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"eval", "../../examples/quickstart", "../../examples/quickstart/transcripts.jsonl", "--record", "-q"}, &stdout, &stderr); code != 0 {
		t.Fatalf("eval --record: exit %d: %s", code, stderr.String())
	}
	if want := "recorded evaluation 1 in " + path + "\n"; stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
	stdout.Reset()
	if code := Main([]string{"history", "list", "--format", "json"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `"database": "`+path+`"`) {
		t.Fatalf("history list: exit %d: %s", code, stdout.String())
	}
}

// TestHistoryEmpty: a database with nothing recorded is said so, not
// shown as an empty table.
func TestHistoryEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"history", "list", "--db", path}, &stdout, &stderr); code != 0 || stdout.Len() != 0 || stderr.String() != "no evaluations recorded in "+path+"\n" {
		t.Fatalf("history list on an empty database: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main([]string{"history", "list", "--db", path, "--format", "json"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `"evaluations": []`) {
		t.Fatalf("history list --format json on an empty database: exit %d, stdout %q", code, stdout.String())
	}
}
