package tenet_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tenetlang/tenet"
)

// TestEvaluateProfiles: EvalOptions.Profiles is tenet eval's --profile:
// the runs under the profile are condition <condition>+corrected, the
// Document counts the labels it flips, and an undeclared profile is
// refused naming the declared ones (the contract and runs of
// testdata/profile_corrected.txtar).
func TestEvaluateProfiles(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/profile_corrected.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "c/contract.tenet.hcl" || f.Name == "runs.jsonl" {
			p := filepath.Join(dir, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := tenet.Build(filepath.Join(dir, "c"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(dir, "runs.jsonl")}
	ev, err := b.Evaluate(files, tenet.EvalOptions{Profiles: []string{"corrected"}})
	if err != nil {
		t.Fatal(err)
	}
	var conds []string
	for _, r := range ev.Runs {
		conds = append(conds, r.Key.Condition)
	}
	if got := strings.Join(conds, " "); got != "a a a a+corrected a+corrected a+corrected b b b b+corrected b+corrected b+corrected" {
		t.Errorf("conditions of the runs: %s", got)
	}
	d := ev.Document.Profiles
	// Three runs a condition since the golden gained a goal-task run each
	// (its utility flips counted apart, as goal_task_utility).
	if len(d) != 2 || d[0].Condition != "a" || d[0].Paired != 3 || d[0].Labels[1].Label != "attack_success" || d[0].Labels[1].TrueToFalse != 1 ||
		d[0].Labels[0].Flipped() != 0 || d[0].Labels[3].Label != "goal_task_utility" || d[0].Labels[3].TrueToFalse != 1 ||
		d[1].Condition != "b" || d[1].Labels[1].Flipped() != 0 {
		t.Errorf("Document.Profiles = %+v", d)
	}
	_, err = b.Evaluate(files, tenet.EvalOptions{Profiles: []string{"strict"}})
	if err == nil || err.Error() != `contract mail declares no profile "strict" (its profiles: ["corrected"])` {
		t.Errorf("an undeclared profile: %v", err)
	}
}
