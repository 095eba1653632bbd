package explain_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/explain"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// setup extracts a CLI golden (testdata/NAME.txtar at the repository root)
// into a temporary directory, makes it the working directory (transcript
// origins are then the names the golden shows) and returns the program of
// the contract in its directory contract/ and the golden's files.
func setup(t *testing.T, name string) (*eval.Program, map[string]string) {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	p := evaltest.Program(t, "contract")
	return p, files
}

// TestWrite finds a run by its key, with and without the contract prefix,
// and by FILE:LINE, and renders it exactly as the CLI golden shows it
// (predicates, labels, the witness of a trace pattern).
func TestWrite(t *testing.T) {
	p, files := setup(t, "pattern_guards_witness")
	src, err := p.Source("")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"a/t/leak", "guards:a/t/leak", "runs.jsonl:2"} {
		ex, err := explain.Find(p, src, []string{"runs.jsonl"}, nil, key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		var got bytes.Buffer
		explain.Write(&got, p.Bundle, ex)
		if got.String() != files["want.explain"] {
			t.Errorf("%s: got\n%s\nwant\n%s", key, got.String(), files["want.explain"])
		}
	}
	for key, want := range map[string]string{
		"a/t/other":    "no judged run a/t/other in runs.jsonl",
		"runs.jsonl:9": "no judged run runs.jsonl:9 in runs.jsonl",
	} {
		if ex, err := explain.Find(p, src, []string{"runs.jsonl"}, nil, key); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, %v; want the error %q", key, ex, err, want)
		}
	}
}

// TestFindRefusesDuplicates: a second run with the key of an earlier one,
// in the same file or another, after the run asked for, is refused as
// tenet eval refuses it.
func TestFindRefusesDuplicates(t *testing.T) {
	p, files := setup(t, "explain_duplicate_run")
	src, err := p.Source("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key   string
		files []string
		want  string
	}{
		{"a/answer", []string{"dup.jsonl"}, files["want.key.stderr"]},
		{"dup.jsonl:1", []string{"dup.jsonl"}, files["want.key.stderr"]},
		{"a/answer", []string{"one.jsonl", "other.jsonl"}, files["want.files.stderr"]},
	} {
		_, err := explain.Find(p, src, c.files, nil, c.key)
		want := strings.TrimSuffix(strings.TrimPrefix(c.want, "tenet explain: "), "\n")
		if err == nil || err.Error() != want {
			t.Errorf("%s in %v: got %v, want the error %q", c.key, c.files, err, want)
		}
	}
	ex, err := explain.Find(p, src, []string{"one.jsonl"}, nil, "a/answer")
	if err != nil || ex.Record.OriginFile != "one.jsonl" || ex.Record.OriginLine != 1 {
		t.Errorf("one.jsonl: got %+v, %v", ex, err)
	}
}
