package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/report/brief"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestAgentDojoBankingReports pins the summary, full table, JSON, Markdown
// and JUnit reports of the AgentDojo banking evaluation (every agent's real transcripts) to
// goldens in testdata/ (go test -run TestAgentDojoBankingReports -update).
// Each is also rendered from the files in reverse order, and must not
// change by a byte. The traces hold one injection task of the nine the
// contract declares, so the evaluation is over the observed cases
// (--cases observed). It exits 1: agents violate the common invariants;
// the tables show every violation, the other formats name each on stderr.
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
		{"table", "agentdojo-banking.txt"},
		{"table-full", "agentdojo-banking-full.txt"},
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
				if strings.HasPrefix(f.format, "table") {
					if stderr.Len() > 0 {
						t.Errorf("stderr repeats what the table shows:\n%s", stderr.String())
					}
				} else {
					for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
						if !strings.HasPrefix(line, "invariant common.") || !strings.Contains(line, " violated on ") {
							t.Errorf("stderr line %q is not an invariant violation", line)
						}
					}
				}
				outs[i] = stdout.String()
			}
			if outs[0] != outs[1] {
				t.Errorf("the %s report depends on the order of the files", f.format)
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

// TestAgentDojoSummary pins the summary of AgentDojo's banking run files
// (testdata/agentdojo-banking-runs.txt), and checks that the summaries of
// all four suites' 9,036 run files, with unknown labels bounded (tenet
// eval) and refused (tenet report of the runs file), keep every line
// within 120 columns — AgentDojo's condition names are up to 70 — and
// name every one of the 48 conditions once, nothing on stderr but an exit
// 2's error. The four suites are in the heavy tier.
func TestAgentDojoSummary(t *testing.T) {
	data := filepath.Join(shared.Dir(t), "agentdojo")
	contracts, err := filepath.Abs(filepath.Join("..", "..", "contracts", "agentdojo"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs(filepath.Join("testdata", "agentdojo-banking-runs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	runsFile := filepath.Join(t.TempDir(), "runs.jsonl")
	t.Chdir(data) // the inputs named relative to the data, whatever its place
	run := func(want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != want {
			t.Fatalf("%s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), code, want, stderr.String())
		}
		// Only an exit 2's error: the failures are in the summary.
		if e := stderr.String(); e != "" && (want != exitBad || strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "tenet report: metrics: ")) {
			t.Errorf("%s: stderr repeats what the summary shows:\n%s", strings.Join(args, " "), e)
		}
		return stdout.String()
	}
	t.Run("banking", func(t *testing.T) {
		got := run(exitFailure, "eval", filepath.Join(contracts, "banking"), "runs")
		if *updateScripts {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("the summary differs from %s (-update, then review the diff):\n%s", golden, firstDiff(string(want), got))
		}
	})
	t.Run("all-suites", func(t *testing.T) {
		testtier.Heavy(t, "judges AgentDojo's 9,036 run files with the four contracts")
		for _, out := range []string{
			run(exitFailure, "eval", contracts, "runs", "--unknown=bounds", "--out", runsFile),
			run(exitBad, "report", runsFile),
		} {
			rows := 0
			for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if w := brief.DisplayWidth(line); w > brief.Width {
					t.Errorf("line %d is %d columns: %s", i+1, w, line)
				}
				if strings.HasSuffix(line, "invariants") || strings.HasSuffix(line, "metrics error") {
					rows++
				}
			}
			if rows != 48 || !strings.Contains(out, "\nneeds attention\n") {
				t.Errorf("%d condition rows, want 48, and a needs attention list:\n%s", rows, out)
			}
		}
	})
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
