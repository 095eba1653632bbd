package beampipe

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/tenetlang/tenet/eval/metrics"
)

// bankingLine is one banking record of the first AgentDojo trace file.
func bankingLine(t *testing.T) []byte {
	t.Helper()
	_, files := agentdojoTraces(t)
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"suite_name": "banking"`)) || bytes.Contains(l, []byte(`"suite_name":"banking"`)) {
			return append(l, '\n')
		}
	}
	t.Fatalf("no banking record in %s", files[0])
	return nil
}

// snapshot is every file under dir and its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		m[strings.TrimPrefix(p, dir+"/")] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAllOrNothing: a run that fails on a bad record changes nothing at
// the prefix or the report (its temporary shards removed); a run that
// succeeds publishes its shard, removes the shard an earlier run left at
// the prefix (and only a name ShardPath could give), and lists its shards
// in the manifest.
func TestAllOrNothing(t *testing.T) {
	line := bankingLine(t)
	in, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "a.jsonl"), line, 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Contracts: banking(t), Input: filepath.Join(in, "*.jsonl"), Out: filepath.Join(out, "runs"),
		Report: filepath.Join(out, "report.json"), Cases: metrics.CasesObserved}
	stale := filepath.Join(out, "runs-0000000000000000.jsonl")
	other := filepath.Join(out, "runs-notours.jsonl")
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(o.Report, []byte("earlier report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)

	// A file that is not JSON: the pipeline fails, nothing changes.
	if err := os.WriteFile(filepath.Join(in, "b.jsonl"), []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runBeam(t, o); err == nil || !strings.Contains(err.Error(), "1 bad record") {
		t.Fatalf("the pipeline: %v, want 1 bad record", err)
	}
	if after := snapshot(t, out); !maps.Equal(after, before) {
		t.Errorf("a failed run changed %s:\nbefore %v\nafter  %v", out, slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
	}

	// Without it: the run's shard published, the earlier run's removed.
	if err := os.Remove(filepath.Join(in, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	o.RunID = NewRunID()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := prism.Execute(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, out)["report.json"]; got != "earlier report\n" {
		t.Errorf("the report changed before Commit: %.80q", got)
	}
	c, err := Commit(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	shard := ShardPath(o.Out, "banking", "") // the one condition: checked below
	if len(c.Shards) == 1 {
		shard = c.Shards[0]
	}
	files := slices.Sorted(maps.Keys(snapshot(t, out)))
	want := []string{"report.json", filepath.Base(shard), "runs-notours.jsonl", "runs.shards"}
	slices.Sort(want)
	if !slices.Equal(files, want) || len(c.Shards) != 1 || !shardName(o.Out).MatchString(shard) {
		t.Errorf("after a run that succeeded: %v (shards %v), want %v", files, c.Shards, want)
	}
	if !slices.Equal(c.Removed, []string{stale}) {
		t.Errorf("removed %v, want the earlier run's shard %s", c.Removed, stale)
	}
	if m, _ := os.ReadFile(c.Manifest); string(m) != shard+"\n" {
		t.Errorf("manifest %s = %q, want %q", c.Manifest, m, shard+"\n")
	}
	if r, _ := os.ReadFile(o.Report); !bytes.Contains(r, []byte(`"command": "eval"`)) {
		t.Errorf("the report is not this run's: %.80q", r)
	}
}

// TestBundleID: a worker refuses bytes that are not the bundle the driver
// accepted.
func TestBundleID(t *testing.T) {
	c := banking(t)[0]
	want := c.ID
	c.ID = "sha256:" + strings.Repeat("0", 64)
	o := Options{Contracts: []Contract{c}}
	_, err := o.targets()
	if err == nil || err.Error() != "bundle "+want+` is not the bundle the trust policy accepted ("sha256:`+strings.Repeat("0", 64)+`"): refusing to judge with it` {
		t.Errorf("targets: %v", err)
	}
}
