package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/synth"
)

// TestDevSynth: tenet dev synth writes exactly what synth.Write writes,
// leaves no temporary file, summarises on stdout, and is hidden from help.
func TestDevSynth(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "corpus.jsonl")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"dev", "synth", "--runs", "70", "--seed", "3", "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	st, _ := synth.Write(&want, 70, 3)
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatal("the file differs from synth.Write's output")
	}
	if s := stdout.String(); !strings.HasPrefix(s, out+": 70 runs (35 attacked;") || !strings.Contains(s, " bytes, seed 3\n") {
		t.Errorf("stdout %q", s)
	}
	if !strings.Contains(stderr.String(), " MB/s") {
		t.Errorf("stderr %q", stderr.String())
	}
	if st.Runs != 70 {
		t.Fatalf("stats %+v", st)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}

	// Usage errors exit 2 and leave the file as it was.
	for _, args := range [][]string{
		{"dev", "synth", "-o", out},
		{"dev", "synth", "--runs", "5"},
		{"dev", "synth", "--runs", "-1", "-o", out},
		{"dev", "synth", "--runs", "5", "-o", dir},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := Main(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(after, got) {
		t.Error("a failed run changed the file")
	}

	stdout.Reset()
	Main([]string{"--help"}, &stdout, &stderr)
	if strings.Contains(stdout.String(), "dev") {
		t.Errorf("dev is listed in help:\n%s", stdout.String())
	}
}
