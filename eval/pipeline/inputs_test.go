package pipeline

import (
	"compress/gzip"
	"os"
	"reflect"
	"testing"
)

// TestEvalCompressed: a gzip copy of each file judges to the same records
// (origins aside) and errors, and the progress counts the compressed bytes
// read, ending at the files' sizes on disk.
func TestEvalCompressed(t *testing.T) {
	math := compileSource(t, mathContract)
	files := synthCorpus(t, 2, 30, 3)
	var gzFiles []string
	var size int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(f + ".gz")
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(out)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		st, err := out.Stat()
		if err != nil {
			t.Fatal(err)
		}
		out.Close()
		size += st.Size()
		gzFiles = append(gzFiles, f+".gz")
	}
	plain, err := EvalFiles(math, files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lastBytes int64
	got, err := EvalFiles(math, gzFiles, Options{Progress: func(_ int, bytes int64) { lastBytes = bytes }})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Records) == 0 || len(got.Records) != len(plain.Records) {
		t.Fatalf("%d records from gzip, %d plain", len(got.Records), len(plain.Records))
	}
	for i, r := range got.Records {
		want := plain.Records[i]
		if r.OriginFile != want.OriginFile+".gz" {
			t.Errorf("record %d from %s, want %s.gz", i, r.OriginFile, want.OriginFile)
		}
		r.OriginFile = want.OriginFile
		if !reflect.DeepEqual(r, want) {
			t.Errorf("record %d = %+v, want %+v", i, r, want)
		}
	}
	if len(got.Errors) != len(plain.Errors) {
		t.Errorf("%d errors from gzip, %d plain", len(got.Errors), len(plain.Errors))
	}
	if lastBytes != size {
		t.Errorf("progress ended at %d bytes; want the %d compressed bytes on disk", lastBytes, size)
	}
}
