package pipeline

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestEvalAuto: under format auto each file is read by the reader that
// claims it (a gzip file after decompression), a file none claims is one
// error at its line 1, and a target of a named format in the same
// collection still reads every file with its own reader (its own pass).
func TestEvalAuto(t *testing.T) {
	formats := filepath.Join("..", "..", "examples", "formats")
	p := evaltest.Program(t, filepath.Join(formats, "contract"))
	dir := t.TempDir()
	mcpFile := filepath.Join(dir, "session.jsonl")
	mcpData, err := os.ReadFile(filepath.Join(formats, "mcp", "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mcpFile, mcpData, 0o644); err != nil {
		t.Fatal(err)
	}
	tenetFile := filepath.Join(dir, "run.jsonl.gz")
	data, err := os.ReadFile(filepath.Join(formats, "tenet", "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(tenetFile)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(out)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	noneFile := filepath.Join(dir, "scores.jsonl")
	if err := os.WriteFile(noneFile, []byte(`{"task": "pay_rent", "score": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{tenetFile, noneFile, mcpFile}
	res, err := EvalTargets([]Target{
		{Program: p, Source: "tenet", Format: "auto"},
		{Program: p, Source: "tenet"},
	}, files, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	auto, named := res[0], res[1]
	// auto: the tenet run, the none error, then the mcp session's run (the
	// same conversation, so the same key: a duplicate, read as a run).
	if len(auto.Records) != 1 || auto.Records[0].OriginFile != tenetFile {
		t.Fatalf("auto records: %+v", auto.Records)
	}
	if len(auto.Errors) != 2 {
		t.Fatalf("auto errors: %v", auto.Errors)
	}
	wantNone := noneFile + ":1: format auto: the file's start looks like none of the formats tried ("
	if got := auto.Errors[0].Error(); !strings.HasPrefix(got, wantNone) {
		t.Errorf("auto error 0 = %s\nwant prefix %s", got, wantNone)
	}
	wantDup := mcpFile + ":1: duplicate run formats:demo-agent/pay_rent: the same key as " + tenetFile + ":1"
	if got := auto.Errors[1].Error(); got != wantDup {
		t.Errorf("auto error 1 = %s\nwant %s", got, wantDup)
	}
	// The named format reads the tenet file and refuses the other two,
	// record by record (the session's every line).
	lines := strings.Count(string(mcpData), "\n")
	if len(named.Records) != 1 || named.Records[0].OriginFile != tenetFile || len(named.Errors) != 1+lines {
		t.Fatalf("named: %d records, %d errors, want 1 and %d", len(named.Records), len(named.Errors), 1+lines)
	}
	for i, f := range []string{noneFile + ":1: tenet_run: missing", mcpFile + ":1: tenet_run: missing"} {
		if !strings.HasPrefix(named.Errors[i].Error(), f) {
			t.Errorf("named error %d = %v, want %s...", i, named.Errors[i], f)
		}
	}
}
