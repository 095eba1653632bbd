//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdoutFull runs each command that prints results with standard
// output on /dev/full (every write fails: no space left on device): each
// must exit 2 and say why on stderr (review finding 6: inspect, check,
// explain, test and version exited 0 having printed nothing).
func TestStdoutFull(t *testing.T) {
	tenet, err := exec.LookPath("tenet") // the test binary, installed by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	q := filepath.Join("..", "..", "examples", "quickstart")
	for _, name := range []string{"contract.tenet.hcl", "transcripts.jsonl"} {
		data, err := os.ReadFile(filepath.Join(q, name))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "q"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "q", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "contract.tenet.hcl" { // a file fmt changes, and prints the name of
			os.MkdirAll(filepath.Join(dir, "messy"), 0o755)
			messy := bytes.ReplaceAll(data, []byte("\n  "), []byte("\n      "))
			if err := os.WriteFile(filepath.Join(dir, "messy", name), messy, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	setup := exec.Command(tenet, "eval", "q", "q/transcripts.jsonl", "--out", "runs.jsonl", "--report-out", "report.txt")
	setup.Dir = dir
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("eval for the runs file: %v\n%s", err, out)
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"version"},
		{"--help"},
		{"check", "q"},
		{"inspect", "q"},
		{"test", "q"},
		{"explain", "q", "q/transcripts.jsonl", "--run", "q/transcripts.jsonl:3"},
		{"fmt", "messy"},
		{"keygen", "-o", "key"},
		{"build", "q", "-o", "q.tnb"},
		{"eval", "q", "q/transcripts.jsonl"},
		{"report", "runs.jsonl"},
		{"compare", "--reference", "baseline", "--defended", "guarded", "runs.jsonl"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(tenet, args...)
			cmd.Dir = dir
			cmd.Stdout = full
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitBad {
				t.Errorf("exit %v, want 2; stderr:\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("stderr does not say why:\n%s", stderr.String())
			}
		})
	}
}
