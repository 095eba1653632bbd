package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/tenetlang/tenet/internal/shared"
)

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// setFlags sets the command's flags for one test, back to unset after.
func setFlags(t *testing.T, kv map[string]string) {
	t.Helper()
	t.Cleanup(func() {
		bundles = nil
		for _, name := range []string{"input", "out", "report", "cases"} {
			flag.Set(name, "")
		}
	})
	for k, v := range kv {
		if err := flag.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRun runs the command on Prism over the AgentDojo traces with the
// banking contract given as its directory: the exit status is the
// report's (1: the banking gates fail on these agents, as with tenet
// eval), and the report is the one written.
func TestRun(t *testing.T) {
	if os.Getenv("TENET_SHARED") == "" {
		abs, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "..", "shared"))
		t.Setenv("TENET_SHARED", abs)
	}
	glob := filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl")
	dir := t.TempDir()
	contract := filepath.Join("..", "..", "..", "..", "contracts", "agentdojo", "banking")
	setFlags(t, map[string]string{"bundle": contract, "input": glob, "out": filepath.Join(dir, "runs"),
		"report": filepath.Join(dir, "report.json"), "cases": "observed"})
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (the banking gates fail):\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ExitCode int `json:"exit_code"`
		Runs     int
	}
	if err := json.Unmarshal(data, &d); err != nil || d.ExitCode != 1 || d.Runs != 384 {
		t.Errorf("report: exit_code %d, runs %d (%v), want 1 and 384", d.ExitCode, d.Runs, err)
	}
}

// TestUsage: missing flags and a missing bundle are exit status 2 with
// the flag named.
func TestUsage(t *testing.T) {
	setFlags(t, map[string]string{"input": "x", "out": "y", "report": "z"})
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 2 || !strings.Contains(stderr.String(), "--bundle is required") {
		t.Errorf("without --bundle: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	setFlags(t, map[string]string{"bundle": filepath.Join(t.TempDir(), "missing.tnb")})
	if code := run(context.Background(), &stderr); code != 2 || !strings.Contains(stderr.String(), "missing.tnb") {
		t.Errorf("a missing bundle: exit %d, %q", code, stderr.String())
	}
}

func TestCause(t *testing.T) {
	msg := "job failed:\nplan...\n\tcaused by:\nDoFn[UID:8, Name: x] failed:\n2 bad records:\na:1: x\nb:2: y"
	if got, want := cause(msg), "2 bad records:\na:1: x\nb:2: y"; got != want {
		t.Errorf("cause = %q, want %q", got, want)
	}
	if got := cause("plain"); got != "plain" {
		t.Errorf("cause(plain) = %q", got)
	}
}
