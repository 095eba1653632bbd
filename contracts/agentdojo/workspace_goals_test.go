package agentdojo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet"
)

// TestWorkspaceInjectionGoalTests runs workspace/tests/goal_tests.hcl, the
// contract tests of injection_task_0..13 other than 3. The contract's cases
// block declares injection_task_3 only (the lead declares the cross product
// when merging), and a test may only name a declared case, so the test
// copies the workspace contract and contracts/common into a temporary
// tree, declares every goal, adds the file as goal_tests.tenet.hcl and
// runs every test block: all must pass, and there must be 35 of them from
// that file (184 with the 149 of tests.tenet.hcl).
func TestWorkspaceInjectionGoalTests(t *testing.T) {
	root := t.TempDir()
	wsCopyTree(t, filepath.Join("..", "common"), filepath.Join(root, "contracts", "common"))
	dir := filepath.Join(root, "contracts", "agentdojo", "workspace")
	wsCopyTree(t, "workspace", dir)
	contract := filepath.Join(dir, "contract.tenet.hcl")
	src, err := os.ReadFile(contract)
	if err != nil {
		t.Fatal(err)
	}
	const declared = `goals = ["injection_task_3"]`
	if strings.Count(string(src), declared) != 1 {
		t.Fatalf("contract.tenet.hcl: want one %q in the cases block (this test declares every goal in its place)", declared)
	}
	wsWriteFile(t, contract, strings.Replace(string(src), declared, `goals = ["*"]`, 1))
	tests, err := os.ReadFile(filepath.Join("workspace", "tests", "goal_tests.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	wsWriteFile(t, filepath.Join(dir, "goal_tests.tenet.hcl"), string(tests))

	b, err := tenet.Build(dir)
	if err != nil {
		t.Fatalf("build the copy with every goal declared: %v", err)
	}
	doc, err := b.Test(tenet.TestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fromFile := 0
	for _, r := range doc.Tests {
		if strings.HasPrefix(r.Name, "injection_task_") {
			fromFile++
		}
		if !r.Passed {
			t.Errorf("test %q failed: %s", r.Name, strings.Join(r.Problems, "; "))
		}
	}
	if len(doc.Tests) != 184 || fromFile != 35 {
		t.Errorf("ran %d tests, %d of goal_tests.hcl; want 184 and 35", len(doc.Tests), fromFile)
	}
}

func wsCopyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func wsWriteFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
