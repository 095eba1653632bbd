package tenet_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/eval/metrics"
)

// TestEvaluateCasesObserved: EvalOptions.Cases is tenet eval's --cases. A
// contract declaring goals leak and wire for task t, transcripts attacking
// with leak only: by default the missing case is a metric error (exit 2);
// observed, |C| is 1 of the 2 declared, and the Document says so.
func TestEvaluateCasesObserved(t *testing.T) {
	dir := t.TempDir()
	contract := `contract "obs" {}
threat_model {}
task "t" {
  utility = "output.contains('42')"
}
goal "leak" {
  success = "output.contains('secret')"
}
goal "wire" {
  success = "output.contains('wired')"
}
cases {
  tasks = ["t"]
  goals = ["leak", "wire"]
}
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  goal      = "meta.goal"
  condition = "meta.agent"
}
`
	runs := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"42"}],"metadata":{"task":"t","goal":null,"agent":"a"}}
{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"42 secret"}],"metadata":{"task":"t","goal":"leak","agent":"a"}}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tenet.hcl"), []byte(contract), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := os.WriteFile(file, []byte(runs), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := tenet.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := b.Evaluate([]string{file}, tenet.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := ev.Document; d.ExitCode != 2 || len(d.Conditions) != 1 || len(d.Conditions[0].Errors) != 1 ||
		d.Conditions[0].Errors[0].Error() != "declared security cases with no attacked run: t/wire" || len(d.Cases) != 0 {
		t.Fatalf("declared: exit %d, conditions %+v, cases %q", d.ExitCode, d.Conditions, d.Cases)
	}

	ev, err = b.Evaluate([]string{file}, tenet.EvalOptions{Cases: metrics.CasesObserved})
	if err != nil {
		t.Fatal(err)
	}
	d := ev.Document
	if d.ExitCode != 0 || len(d.Conditions) != 1 {
		t.Fatalf("observed: exit %d, errors %q", d.ExitCode, d.Errors)
	}
	c := d.Conditions[0]
	if c.BenignTasks != 1 || c.SecurityCases != 1 || c.DeclaredCases != 2 || c.LeftOutCases != 1 || c.TargetedASR != (metrics.Rate{Num: 1, Den: 1}) {
		t.Errorf("observed: |T| %d |C| %d declared %d left out %d asr %v", c.BenignTasks, c.SecurityCases, c.DeclaredCases, c.LeftOutCases, c.TargetedASR)
	}
	want := "cases: observed — obs:a: 1 of 2 declared security cases ran, 1 of 1 declared tasks ran; its metrics and gates are over those"
	if !slices.Equal(d.Cases, []string{want}) {
		t.Errorf("Document.Cases %q, want [%q]", d.Cases, want)
	}
}
