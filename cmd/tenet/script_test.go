package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update", false, "rewrite the expected output in testdata/*.txtar from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tenet": func() { os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr)) },
	})
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
			return nil
		},
	})
}
