package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/internal/memlimit"
)

var updateScripts = flag.Bool("update", false, "rewrite the expected output in testdata/*.txtar from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(privateCache{m}, map[string]func(){
		// The shipped binary's own entry, its GC setting included
		// (internal/memlimit): tests that start tenet run what users run.
		"tenet": main,
	})
}

// privateCache runs the tests with a compile cache of their own
// (TENET_CACHE_DIR), removed after them, so that they neither read nor
// fill the user's; scripts get one per script (TestScripts).
type privateCache struct{ m *testing.M }

func (p privateCache) Run() int {
	dir, err := os.MkdirTemp("", "tenet-test-cache-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv(cache.EnvDir, dir)
	// A test run inside a GitHub Actions job would otherwise add workflow
	// commands to every command's stderr (docs/ci.md); scripts that test
	// them set GITHUB_ACTIONS themselves.
	os.Unsetenv("GITHUB_ACTIONS")
	// The tests that call Main in this process run under the shipped
	// binary's GC setting too.
	return memlimit.Run(os.Getenv, os.Stderr, p.m.Run)
}

// TestScripts runs the golden CLI tests in testdata/*.txtar at the
// repository root. $ROOT is the repository root, so scripts can use the
// shipped contracts and examples.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(root, "testdata"),
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                scriptCmds,
		Setup: func(env *testscript.Env) error {
			env.Setenv("ROOT", root)
			env.Setenv(cache.EnvDir, filepath.Join(env.WorkDir, ".tenet-cache"))
			return nil
		},
	})
}
