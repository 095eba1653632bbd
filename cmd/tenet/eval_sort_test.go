package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// outDir lists dir, to check that no temporary file is left.
func outDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestEvalSortMemoryAgentDojo: the AgentDojo contracts (banking; the four in
// the heavy tier) with the judged
// runs sorted in temporary files (budgets that spill every run or few, the
// default that spills nothing here) give the runs file, JSON report, stdout,
// stderr and exit code of the evaluation that keeps every run in memory
// (--sort-memory 0), and leave no temporary file next to --out.
func TestEvalSortMemoryAgentDojo(t *testing.T) {
	traces := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	// The default tier judges with the banking contract; the heavy tier
	// with the four (a collection: one pass, four contracts' runs).
	suite := filepath.Join("..", "..", "contracts", "agentdojo", "banking")
	if testtier.HeavyOn() {
		suite = filepath.Dir(suite)
	}
	contracts, err := filepath.Abs(suite)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(traces)
	files, err := filepath.Glob("*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", traces, err)
	}
	args := append([]string{contracts}, files...)
	base := runEval(t, t.TempDir(), "json", append(args, "--sort-memory", "0")...)
	if base.runsErr != nil || base.reportErr != nil || base.code != exitBad {
		t.Fatalf("in memory: exit %d, %v, %v; stderr:\n%s", base.code, base.runsErr, base.reportErr, base.stderr)
	}
	budgets := []string{"1", "65536", fmt.Sprint(defaultSortBytes)}
	if testing.Short() || !testtier.HeavyOn() { // one run per spill: the heavy tier's
		budgets = budgets[1:]
	}
	for _, budget := range budgets {
		out := t.TempDir()
		got := runEval(t, out, "json", append(args, "--sort-memory", budget)...)
		switch {
		case got.code != base.code:
			t.Errorf("--sort-memory %s: exit %d, in memory %d", budget, got.code, base.code)
		case !bytes.Equal(got.runsFile, base.runsFile):
			t.Errorf("--sort-memory %s: the runs file differs", budget)
		case !bytes.Equal(got.reportBytes, base.reportBytes):
			t.Errorf("--sort-memory %s: the JSON report differs", budget)
		case got.stdout != base.stdout || got.stderr != base.stderr:
			t.Errorf("--sort-memory %s: stdout or stderr differs:\n%s\n%s", budget, got.stdout, got.stderr)
		}
		if names := outDir(t, out); !slices.Equal(names, []string{"report.json", "runs.jsonl"}) {
			t.Errorf("--sort-memory %s: %s holds %q", budget, out, names)
		}
	}
}

// TestEvalSortDuplicates: duplicate keys across files, found when the runs
// are sorted, are reported as before — each on the later record in input
// order, naming the first, in input order among the other bad records —
// and nothing is written; with other bad records too.
func TestEvalSortDuplicates(t *testing.T) {
	in := t.TempDir()
	contract := filepath.Join(in, "tiny")
	if err := os.Mkdir(contract, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(contract, "main.tenet.hcl"), tinyContract)
	rec := func(agent string) string {
		return fmt.Sprintf(`{"messages":[{"role":"assistant","content":"42"}],"metadata":{"task":"answer","agent":%q}}`+"\n", agent)
	}
	a, b := filepath.Join(in, "a.jsonl"), filepath.Join(in, "b.jsonl")
	write(a, rec("x")+rec("y")+rec("x")+rec("z"))
	for _, bad := range []string{"", "{not json\n"} {
		write(b, rec("z")+bad+rec("y")+rec("w"))
		var want evalOutputs
		for i, budget := range []string{"0", "1", "1000000"} {
			out := t.TempDir()
			got := runEval(t, out, "json", contract, a, b, "--sort-memory", budget)
			if i == 0 {
				want = got
				if got.code != exitBad || !strings.Contains(got.stderr, a+":3: duplicate run tiny:x/answer: the same key as "+a+":1\n") ||
					!strings.HasSuffix(got.stderr, "bad records; nothing written\n") {
					t.Fatalf("in memory: exit %d, stderr:\n%s", got.code, got.stderr)
				}
				continue
			}
			if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
				t.Errorf("--sort-memory %s: exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", budget, got.code, got.stderr, want.code, want.stderr)
			}
			if names := outDir(t, out); len(names) > 0 {
				t.Errorf("--sort-memory %s: %s holds %q, want nothing", budget, out, names)
			}
		}
	}
}
