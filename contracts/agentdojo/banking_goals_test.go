package agentdojo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/tester"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// bankingGoalTests is how many test blocks banking/tests/goals.tenet.hcl
// holds, so that a test block lost (or a file not read) fails the test.
const bankingGoalTests = 38

// TestBankingGoalTests runs the contract tests of the nine banking goals
// (banking/tests/goals.tenet.hcl). A test block may name only a declared
// security case, and the banking contract declares only
// (every task × injection_task_3) until the lead declares the cross
// product, so the blocks live outside the contract directory and run here
// on a copy of the contract whose cases block lists every goal. Once the
// contract declares every goal, the file moves into the contract
// (banking/goal_tests.tenet.hcl) and this test goes.
func TestBankingGoalTests(t *testing.T) {
	root := t.TempDir()
	bankingCopyTree(t, filepath.Join("..", "common"), filepath.Join(root, "common"))
	dir := filepath.Join(root, "agentdojo", "banking")
	bankingCopyTree(t, "banking", dir)

	contract := filepath.Join(dir, "contract.tenet.hcl")
	data, err := os.ReadFile(contract)
	if err != nil {
		t.Fatal(err)
	}
	const only3, all = `goals = ["injection_task_3"]`, `goals = ["*"]`
	if bytes.Count(data, []byte(only3)) != 1 {
		t.Fatalf("banking/contract.tenet.hcl no longer has one %s: if its cases declare every goal now, move tests/goals.tenet.hcl into the contract and delete this test", only3)
	}
	bankingWrite(t, contract, bytes.Replace(data, []byte(only3), []byte(all), 1))
	goals, err := os.ReadFile(filepath.Join("banking", "tests", "goals.tenet.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	bankingWrite(t, filepath.Join(dir, "goal_tests.tenet.hcl"), goals)

	b := evaltest.Build(t, dir)
	p := evaltest.Load(t, b)
	var specs []compiler.TestSpec
	for _, s := range compiler.Tests(b.Module) {
		// Only the goal tests: the contract's own run in tenet test.
		if strings.HasSuffix(s.Range.Filename, "goal_tests.tenet.hcl") {
			specs = append(specs, s)
		}
	}
	if len(specs) != bankingGoalTests {
		t.Fatalf("%d goal tests, want %d", len(specs), bankingGoalTests)
	}
	for _, r := range tester.Run(p, dir, specs) {
		if !r.Passed {
			t.Errorf("%s (%s:%d): %s", r.Name, r.OriginFile, r.OriginLine, strings.Join(r.Problems, "; "))
		}
	}
}

// bankingCopyTree copies the regular files under src to dst.
func bankingCopyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func bankingWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
