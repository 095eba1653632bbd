package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tenetlang/tenet/internal/shared"
)

// TestAgentDojoBankingReports pins the JSON, Markdown and JUnit reports of
// the AgentDojo banking evaluation (every agent's real transcripts) to
// goldens in testdata/ (go test -run TestAgentDojoBankingReports -update).
// Each is also rendered from the files in reverse order, and must not
// change by a byte. The traces hold one injection task of the nine the
// contract declares, so the evaluation is over the observed cases
// (--cases observed). It exits 1: agents violate the common invariants,
// and every violation is named on stderr.
func TestAgentDojoBankingReports(t *testing.T) {
	traces := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	contract, err := filepath.Abs(filepath.Join("..", "..", "contracts", "agentdojo", "banking"))
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "docs", "report-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Run from the traces folder so that the report names the files as
	// given (relative), whatever the checkout's location.
	t.Chdir(traces)
	files, err := filepath.Glob("*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", traces, err)
	}
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	for _, f := range []struct{ format, golden string }{
		{"json", "agentdojo-banking.json"},
		{"markdown", "agentdojo-banking.md"},
		{"junit", "agentdojo-banking.xml"},
	} {
		t.Run(f.format, func(t *testing.T) {
			var outs [2]string
			for i, order := range [][]string{files, reversed} {
				var stdout, stderr bytes.Buffer
				args := append([]string{"eval", contract}, order...)
				code := Main(append(args, "--format", f.format, "--cases", "observed"), &stdout, &stderr)
				if code != exitFailure {
					t.Fatalf("exit %d, want 1 (invariant violations); stderr:\n%s", code, stderr.String())
				}
				for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
					if !strings.HasPrefix(line, "invariant common.") || !strings.Contains(line, " violated on ") {
						t.Errorf("stderr line %q is not an invariant violation", line)
					}
				}
				outs[i] = stdout.String()
			}
			if outs[0] != outs[1] {
				t.Errorf("the %s report depends on the order of the files", f.format)
			}
			if f.format == "json" {
				v, err := jsonschema.UnmarshalJSON(strings.NewReader(outs[0]))
				if err != nil {
					t.Fatal(err)
				}
				if err := schema.Validate(v); err != nil {
					t.Errorf("the JSON report does not follow docs/report-schema.json: %v", err)
				}
			}
			path := filepath.Join(goldens, f.golden)
			if *updateScripts {
				if err := os.WriteFile(path, []byte(outs[0]), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if outs[0] != string(want) {
				t.Errorf("the %s report differs from %s (go test ./cmd/tenet -run TestAgentDojoBankingReports -update, then review the diff):\n%s",
					f.format, f.golden, firstDiff(string(want), outs[0]))
			}
		})
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n want %s\n  got %s", i+1, wl, gl)
		}
	}
	return ""
}
