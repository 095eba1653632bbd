// Package agentdojo_test checks the shipped AgentDojo contracts against
// AgentDojo's own labels on the real transcripts in ../shared/agentdojo
// (read at test time, never copied into the repository).
package agentdojo_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/lang"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// program compiles a contract directory and plans it through the bundle
// encoding, exactly as `tenet eval DIR` does.
func program(t *testing.T, dir string) *eval.Program {
	t.Helper()
	mod, diags := lang.ParseDir(dir)
	if diags.HasErrors() {
		t.Fatalf("parse %s: %v", dir, diags)
	}
	b, diags := compiler.Compile(mod, compiler.Options{Formats: transcript.Formats()})
	if diags.HasErrors() {
		t.Fatalf("compile %s: %v", dir, diags)
	}
	data, _, err := bundle.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := eval.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func traces(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 12 {
		t.Fatalf("found %d trace files, want the 12 AgentDojo agents", len(files))
	}
	sort.Strings(files)
	return files
}

// TestBankingConformance pins agreement with AgentDojo's labels on every
// banking run of the 12 agents: 16 benign utility, 16 utility-under-attack
// and 16 attack-success labels per agent, 576 in all, every one equal.
func TestBankingConformance(t *testing.T) {
	p := program(t, "banking")
	res, err := p.EvalFiles(traces(t), eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("bad records: %v", res.Errors)
	}
	if got := len(res.Records); got != 384 {
		t.Errorf("judged %d banking runs, want 384 (12 agents × 32)", got)
	}
	if got := res.Skipped[eval.NotSelected]; got != 2328-384 {
		t.Errorf("%d records of other suites not selected, want %d", got, 2328-384)
	}
	if res.Headers != 12 {
		t.Errorf("%d header lines, want 12", res.Headers)
	}
	as := metrics.Agree(res.Records)
	if len(as) != 12 {
		t.Fatalf("agreement for %d conditions, want 12", len(as))
	}
	total := 0
	for _, a := range as {
		for _, row := range a.Rows() {
			if row.Agree != 16 || row.Disagree != 0 || row.OursUnknown != 0 || row.NotGiven != 0 {
				t.Errorf("%s %s: agree %d, disagree %d, unknown %d, not given %d; want 16/16",
					a.Name(), row.Label, row.Agree, row.Disagree, row.OursUnknown, row.NotGiven)
				for _, d := range row.Disagreements {
					t.Errorf("  %s: ours %v, AgentDojo %v (%s:%d)", d.Key, d.Ours, d.Given, d.OriginFile, d.OriginLine)
				}
			}
			total += row.Agree
		}
	}
	if total != 576 {
		t.Errorf("%d of 576 labels agree", total)
	}

	// The metrics themselves are pinned too, so a change in any label or
	// rate shows up as a diff of testdata/banking-metrics.golden.
	cs, err := metrics.Compute(res.Records, map[string]metrics.Declared{p.Bundle.Manifest.Contract: p.Declared()}, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteMetrics(&buf, cs); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/banking-metrics.golden", buf.Bytes())
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
