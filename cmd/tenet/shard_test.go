package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestShardMergeAgentDojo is the acceptance of tenet eval --shard
// (docs/scale-out.md, "Sharding") on the shared AgentDojo traces, with the
// banking contract and with the whole collection of four contracts: the
// runs file of one unsharded evaluation equals, byte for byte, tenet
// report --out over the runs files of n shards (n = 1, 3, 7), in any
// order; the shards are disjoint, each holds only runs its hash gives it,
// and together they hold every run; the JSON report of the merged runs is
// the unsharded runs' own; and a shard's bytes do not depend on --workers.
func TestShardMergeAgentDojo(t *testing.T) {
	traces := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	files, err := filepath.Glob(filepath.Join(traces, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", traces, err)
	}
	runDir := filepath.Join(shared.Dir(t), "agentdojo", "runs")
	for _, c := range []struct {
		name, contract string
		flags          []string
		counts         []int    // the shard counts tried
		inputs         []string // the traces when nil
		profile        string   // tenet eval --profile's ("": none)
	}{
		{"banking", filepath.Join("..", "..", "contracts", "agentdojo", "banking"), []string{"--cases", "observed"}, []int{1, 3, 7}, nil, ""},
		// AgentDojo's run files judged also under the corrected profile: a
		// profile's run is in its base run's shard (eval/shard.Base).
		{"runs-profile", filepath.Join("..", "..", "contracts", "agentdojo", "banking"), nil, []int{3}, []string{runDir}, "corrected"},
		// The collection's workspace contract has a rate over an unknown
		// label: bounded, so that its metrics are computed too. Its
		// evaluation takes six times banking's: one count.
		{"collection", filepath.Join("..", "..", "contracts", "agentdojo"), []string{"--cases", "observed", "--unknown", "bounds"}, []int{3}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			switch c.name {
			case "runs-profile":
				testtier.Heavy(t, "judges AgentDojo's run files twice (a profile) for the unsharded runs and three shards")
			case "collection":
				testtier.Heavy(t, "judges the traces with four contracts for the unsharded runs and three shards (banking covers the default tier)")
			}
			contract, err := filepath.Abs(c.contract)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			run := func(want int, args ...string) {
				t.Helper()
				var stdout, stderr bytes.Buffer
				if code := Main(args, &stdout, &stderr); code != want {
					t.Fatalf("tenet %v: exit %d, want %d; stderr:\n%s", args, code, want, stderr.String())
				}
			}
			inputs := files
			if c.inputs != nil {
				inputs = c.inputs
			}
			eval := func(out string, extra ...string) {
				t.Helper()
				args := append(append([]string{"eval", contract}, inputs...), c.flags...)
				if c.profile != "" {
					args = append(args, "--profile", c.profile)
				}
				run(exitFailure, append(append(args, "-q", "-o", out), extra...)...) // agents violate invariants: exit 1
			}
			all := filepath.Join(dir, "all.jsonl")
			eval(all)
			want := read(t, all)
			wantRecs, err := runs.ReadFiles(all)
			if err != nil || len(wantRecs) < 300 {
				t.Fatalf("the unsharded runs: %d, %v", len(wantRecs), err)
			}
			for _, n := range c.counts {
				var shards []string
				owner := map[runs.Key]int{}
				for k := 1; k <= n; k++ {
					s := filepath.Join(dir, fmt.Sprintf("s%d-%d.jsonl", k, n))
					// Alternate the workers, and the memory the sorted runs
					// may take before they spill to temporary files: a
					// shard's runs depend on neither.
					eval(s, "--shard", fmt.Sprintf("%d/%d", k, n), "--workers", []string{"1", "8"}[k%2], "--sort-memory", []string{"33554432", "4096"}[k%2])
					shards = append(shards, s)
					recs, err := runs.ReadFiles(s)
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range recs {
						if prev, dup := owner[r.Key]; dup {
							t.Fatalf("run %s in shards %d and %d of %d", r.Key, prev, k, n)
						}
						owner[r.Key] = k
						if got := shard.Of(shard.Base(r.Key, c.profile), n); got != k {
							t.Fatalf("run %s in shard %d of %d, its hash gives %d", r.Key, k, n, got)
						}
					}
				}
				if len(owner) != len(wantRecs) {
					t.Fatalf("%d shards hold %d runs, the unsharded evaluation %d", n, len(owner), len(wantRecs))
				}
				for _, r := range wantRecs {
					if _, ok := owner[r.Key]; !ok {
						t.Fatalf("run %s is in no shard of %d", r.Key, n)
					}
				}
				reversed := slices.Clone(shards)
				slices.Reverse(reversed)
				rotated := append(slices.Clone(shards[n/2:]), shards[:n/2]...)
				for i, order := range [][]string{shards, reversed, rotated} {
					merged := filepath.Join(dir, fmt.Sprintf("merged-%d-%d.jsonl", n, i))
					run(exitFailure, append(append([]string{"report", "-q", "--out", merged}, c.flags...), order...)...)
					if got := read(t, merged); !bytes.Equal(got, want) {
						t.Fatalf("n=%d, order %d: the merged runs differ from the unsharded runs file (%d and %d bytes)", n, i, len(got), len(want))
					}
				}
			}
			// The JSON report of the merged runs is the unsharded runs'
			// own: each read as runs.jsonl from a folder of its own, so
			// that the inputs the report names are alike.
			reportOf := func(runsFile string) []byte {
				t.Helper()
				sub := filepath.Join(dir, "report-"+filepath.Base(runsFile))
				if err := os.Mkdir(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(sub, "runs.jsonl"), read(t, runsFile), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Chdir(sub)
				out := filepath.Join(sub, "report.json")
				run(exitFailure, append([]string{"report", "--contract", contract, "--format", "json", "--report-out", out, "runs.jsonl"}, c.flags...)...)
				return read(t, out)
			}
			if a, b := reportOf(all), reportOf(filepath.Join(dir, "merged-3-1.jsonl")); !bytes.Equal(a, b) {
				t.Errorf("the JSON report of the merged shards differs from the unsharded runs' (%d and %d bytes)", len(b), len(a))
			}
			// A shard's runs file and JSON report, with 1 worker and with 8.
			var outs [2][2][]byte
			for i, w := range []string{"1", "8"} {
				s, rep := filepath.Join(dir, "w"+w+".jsonl"), filepath.Join(dir, "w"+w+".json")
				eval(s, "--shard", "2/3", "--workers", w, "--format", "json", "--report-out", rep)
				outs[i] = [2][]byte{read(t, s), read(t, rep)}
			}
			if !bytes.Equal(outs[0][0], outs[1][0]) || !bytes.Equal(outs[0][1], outs[1][1]) {
				t.Error("shard 2/3 with 1 worker and with 8 differ")
			}
			if !bytes.Contains(outs[0][1], []byte(`"shard": {`)) {
				t.Error(`the shard's JSON report has no "shard" member`)
			}
		})
	}
}

// read returns a file's bytes, or fails the test.
func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
