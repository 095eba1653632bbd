package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
)

// TestAgentDojoBankingSARIF pins the SARIF log of the AgentDojo banking
// evaluation (every agent's real transcripts, --cases observed, as
// TestAgentDojoBankingReports) to testdata/agentdojo-banking.sarif (-update
// rewrites it), which internal/sarif's TestGoldenSARIFValid validates
// against the SARIF 2.1.0 schema (not here: the validator's start-up work
// would be paid by every tenet process this package's tests start). It runs
// from the module root with the contract and the traces named relative to
// it, as a CI job would, so that the log's paths are those a code
// scanning upload resolves against the repository.
func TestAgentDojoBankingSARIF(t *testing.T) {
	traces := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs(filepath.Join("testdata", "agentdojo-banking.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, traces)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	files, err := filepath.Glob(filepath.Join(rel, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", traces, err)
	}
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	var outs [2]string
	for i, order := range [][]string{files, reversed} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"eval", filepath.Join("contracts", "agentdojo", "banking")}, order...)
		if code := Main(append(args, "--format", "sarif", "--cases", "observed"), &stdout, &stderr); code != exitFailure {
			t.Fatalf("exit %d, want 1 (invariant violations); stderr:\n%s", code, stderr.String())
		}
		outs[i] = stdout.String()
	}
	if outs[0] != outs[1] {
		t.Error("the SARIF log depends on the order of the files")
	}
	if *updateScripts {
		if err := os.WriteFile(golden, []byte(outs[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if outs[0] != string(want) {
		t.Errorf("the SARIF log differs from %s (go test ./cmd/tenet -run TestAgentDojoBankingSARIF -update, then review the diff):\n%s",
			golden, firstDiff(string(want), outs[0]))
	}
}
