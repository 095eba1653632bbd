package explain_test

import (
	"bytes"
	"fmt"
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
		"a/t/other":    "no judged run a/t/other in runs.jsonl; the judged runs there (--run takes a key or FILE:LINE): guards:a/t (runs.jsonl:1), guards:a/t/leak (runs.jsonl:2), guards:a/greet (runs.jsonl:3)",
		"runs.jsonl:9": "no judged run runs.jsonl:9 in runs.jsonl; the judged runs there (--run takes a key or FILE:LINE): guards:a/t (runs.jsonl:1), guards:a/t/leak (runs.jsonl:2), guards:a/greet (runs.jsonl:3)",
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

// TestFindListsRuns: a key that names no judged run gets the runs the
// files hold, in file order, at most ten and a count of the rest (review
// 15: --run F:1 on an Inspect or tau-bench file, whose runs start at other
// lines, said only "no judged run F:1").
func TestFindListsRuns(t *testing.T) {
	p, _ := setup(t, "pattern_guards_witness")
	src, err := p.Source("")
	if err != nil {
		t.Fatal(err)
	}
	var many strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&many, `{"messages":[{"role":"user","content":"hi"}],"metadata":{"task":"greet","goal":null,"agent":"a%d"}}`+"\n", i)
	}
	if err := os.WriteFile("many.jsonl", []byte(many.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("none.jsonl", []byte(`{"metadata":{"task":"greet"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"many.jsonl"}, "no judged run many.jsonl:13 in many.jsonl; the judged runs there (--run takes a key or FILE:LINE): " +
			"guards:a1/greet (many.jsonl:1), guards:a2/greet (many.jsonl:2), guards:a3/greet (many.jsonl:3), guards:a4/greet (many.jsonl:4), guards:a5/greet (many.jsonl:5), " +
			"guards:a6/greet (many.jsonl:6), guards:a7/greet (many.jsonl:7), guards:a8/greet (many.jsonl:8), guards:a9/greet (many.jsonl:9), guards:a10/greet (many.jsonl:10), and 2 more"},
		{[]string{"none.jsonl"}, "no judged run many.jsonl:13 in none.jsonl; there is none"},
	} {
		if ex, err := explain.Find(p, src, c.files, nil, "many.jsonl:13"); err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, %v\nwant the error %q", c.files, ex, err, c.want)
		}
	}
}
