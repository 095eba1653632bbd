package agentdojo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/tester"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestTravelConformance: 20 benign utility, 20 utility-under-attack and 20
// attack-success labels per agent, 720 in all, every one equal. No travel
// transcript is empty.
func TestTravelConformance(t *testing.T) {
	checkSuite(t, suite{name: "travel", tasks: 20, unknown: 0})
}

// TestTravelInjectionGoalTests runs travel/injection_tests.tenet.hcl.pending,
// the contract tests of injection_task_0, 1, 2, 4, 5 and 6. A test may name
// only a declared security case, and the cases block declares
// injection_task_3 alone until the cross product is declared (issue 16), so
// `tenet test` cannot read that file yet: this test compiles the travel
// contract with its cases block listing every goal and the pending file
// added, and requires every test block to pass.
func TestTravelInjectionGoalTests(t *testing.T) {
	const dir = "travel"
	names, err := filepath.Glob(filepath.Join(dir, "*.tenet.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = data
	}
	declared := []byte("cases {\n  tasks = [\"*\"]\n  goals = [\"injection_task_3\"]\n}\n")
	if !bytes.Contains(files["goals.tenet.hcl"], declared) {
		t.Fatalf("travel/goals.tenet.hcl no longer declares the cases %q: if the cross product is declared now, rename injection_tests.tenet.hcl.pending to injection_tests.tenet.hcl and delete this test", declared)
	}
	files["goals.tenet.hcl"] = bytes.Replace(files["goals.tenet.hcl"], declared,
		[]byte("cases {\n  tasks = [\"*\"]\n  goals = [\"*\"]\n}\n"), 1)
	pending, err := os.ReadFile(filepath.Join(dir, "injection_tests.tenet.hcl.pending"))
	if err != nil {
		t.Fatal(err)
	}
	files["injection_tests.tenet.hcl"] = pending
	built := evaltest.BuildFrom(t, prefixed(dir, files))
	results := tester.Run(evaltest.Load(t, built), dir, compiler.Tests(built.Module))
	// 85 tests of tests.tenet.hcl and 35 of the pending file.
	if len(results) != 120 {
		t.Errorf("%d test results, want 120", len(results))
	}
	for _, r := range results {
		if !r.Passed {
			t.Errorf("test %q failed: %v", r.Name, r.Problems)
		}
	}
}

// prefixed names the files relative to the current directory, as
// evaltest.BuildFrom expects.
func prefixed(dir string, files map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for n, data := range files {
		out[filepath.Join(dir, n)] = data
	}
	return out
}
