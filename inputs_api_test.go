package tenet_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/tenetlang/tenet"
)

// TestEvaluateInputs: the Go API expands its files as tenet eval does
// (internal/inputs): a gzip file, a zstd file named .jsonl and a directory
// walked through Include judge to the runs of the plain file, only the
// origin's file differing.
func TestEvaluateInputs(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile("examples/quickstart/transcripts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(plain)
	gw.Close()
	zw, err := zstd.NewWriter(&zs, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(plain)
	zw.Close()
	files := map[string][]byte{"t.jsonl.gz": gz.Bytes(), "z.jsonl": zs.Bytes(), "d/sub/t.jsonl": plain, "d/README": []byte("not read\n")}
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := b.Evaluate([]string{"examples/quickstart/transcripts.jsonl"}, tenet.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Runs) == 0 {
		t.Fatal("the quickstart has no runs")
	}
	for _, c := range []struct {
		files   []string
		include []string
		origin  string
	}{
		{[]string{filepath.Join(dir, "t.jsonl.gz")}, nil, filepath.Join(dir, "t.jsonl.gz")},
		{[]string{filepath.Join(dir, "z.jsonl")}, nil, filepath.Join(dir, "z.jsonl")},
		{[]string{filepath.Join(dir, "d")}, []string{"*.jsonl"}, filepath.Join(dir, "d", "sub", "t.jsonl")},
	} {
		got, err := b.Evaluate(c.files, tenet.EvalOptions{Include: c.include})
		if err != nil {
			t.Errorf("%q: %v", c.files, err)
			continue
		}
		if len(got.Runs) != len(want.Runs) {
			t.Errorf("%q: %d runs, want %d", c.files, len(got.Runs), len(want.Runs))
			continue
		}
		for i, r := range got.Runs {
			w := want.Runs[i]
			if r.OriginFile != c.origin {
				t.Errorf("%q: run %d from %s, want %s", c.files, i, r.OriginFile, c.origin)
			}
			r.OriginFile = w.OriginFile
			if !reflect.DeepEqual(r, w) {
				t.Errorf("%q: run %d = %+v, want %+v", c.files, i, r, w)
			}
		}
		// The report names the inputs as given (a directory, not the
		// thousands of files it may hold); the runs name the file.
		if !slices.Equal(got.Document.Inputs, c.files) {
			t.Errorf("%q: the document's inputs are %q, want them as given", c.files, got.Document.Inputs)
		}
	}
}
