package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
)

// TestMissingShard holds docs/scale-out.md "Checking that no shard is
// missing" to the shared data. On the traces (one injection task per
// suite) --cases declared fails the merge of every shard, so it cannot
// see a missing one; the shard reports' counts can: each shard's judged
// plus "in another shard" is the whole evaluation's runs, and the
// shards' judged add up to it. On AgentDojo's run files, which cover
// every declared case, --cases declared passes the whole merge and fails
// one without shard 2, naming its tasks.
func TestMissingShard(t *testing.T) {
	banking, err := filepath.Abs(filepath.Join("..", "..", "contracts", "agentdojo", "banking"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tenet := func(want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != want {
			t.Fatalf("tenet %v: exit %d, want %d; stderr:\n%s", args, code, want, stderr.String())
		}
		return stdout.String()
	}
	shardFiles := func(name string, inputs []string, flags ...string) (runsFiles []string) {
		for _, k := range []string{"1", "2", "3"} {
			out := filepath.Join(dir, name+"-"+k)
			args := append(append([]string{"eval", banking}, inputs...), flags...)
			tenet(exitFailure, append(args, "--shard", k+"/3", "-o", out+".jsonl", "--format", "json", "--report-out", out+".json", "-q")...)
			runsFiles = append(runsFiles, out+".jsonl")
		}
		return runsFiles
	}

	traces, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil || len(traces) == 0 {
		t.Fatalf("no traces: %v", err)
	}
	rs := shardFiles("traces", traces, "--cases", "observed")
	var judged, other []int
	for k := 1; k <= 3; k++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("traces-%d.json", k)))
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Shard     struct{ Index, Count int }
			Contracts []struct {
				Judged  int
				Skipped []struct {
					Reason string
					Count  int
				}
			}
		}
		if err := json.Unmarshal(b, &d); err != nil || len(d.Contracts) != 1 || d.Shard.Count != 3 || d.Shard.Index != k {
			t.Fatalf("shard %d report: %+v, %v", k, d, err)
		}
		judged = append(judged, d.Contracts[0].Judged)
		n := 0
		for _, s := range d.Contracts[0].Skipped {
			if s.Reason == "in another shard" {
				n += s.Count
			}
		}
		other = append(other, n)
	}
	if !slices.Equal(judged, []int{128, 126, 130}) || !slices.Equal(other, []int{256, 258, 254}) {
		t.Errorf("shards judged %v, in another shard %v; docs/scale-out.md says 128, 126, 130 and 256, 258, 254", judged, other)
	}
	out := tenet(exitFailure, append([]string{"report", "--contract", banking, "--cases", "observed"}, rs...)...)
	if first, _, _ := strings.Cut(out, "\n"); first != "384 runs from 3 files" {
		t.Errorf("merge: first line %q, want 384 runs from 3 files", first)
	}
	// --cases declared fails the whole merge of the traces as it fails
	// the unsharded evaluation: no use for a missing shard.
	tenet(exitBad, append([]string{"report", "--contract", banking, "-q"}, rs...)...)

	// AgentDojo's run files cover every declared case.
	runFiles := shardFiles("runs", []string{filepath.Join(shared.Dir(t), "agentdojo", "runs", "command-r")})
	tenet(exitFailure, append([]string{"report", "--contract", banking, "-q"}, runFiles...)...)
	report := filepath.Join(dir, "missing.json")
	tenet(exitBad, "report", "--contract", banking, runFiles[0], runFiles[2], "-q", "--format", "json", "--report-out", report)
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if want := "declared tasks with no benign run: user_task_1, user_task_10, user_task_11, user_task_13, user_task_3, user_task_4, user_task_9"; !bytes.Contains(b, []byte(want)) {
		t.Errorf("the merge without shard 2 does not say %q", want)
	}
}
