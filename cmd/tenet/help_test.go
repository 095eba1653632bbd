package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpTexts: every help/NAME.txt is the long help of exactly one
// command, and every command that asks for a help text gets one (a
// misspelt name in help("…") would leave its --help without the prose).
func TestHelpTexts(t *testing.T) {
	cmds := map[string]*cobra.Command{
		"check": checkCmd(), "compare": compareCmd(), "dev-synth": devSynthCmd(), "eval": evalCmd(),
		"explain": explainCmd(), "fmt": fmtCmd(), "inspect": inspectCmd(), "keygen": keygenCmd(),
		"report": reportCmd(), "test": testCmd(),
	}
	entries, err := helpTexts.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(cmds) {
		t.Errorf("%d help files, want %d (one per command in this test)", len(entries), len(cmds))
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txt")
		c, ok := cmds[name]
		if !ok {
			t.Errorf("help/%s: no such command", e.Name())
			continue
		}
		if c.Long == "" || c.Long != help(name) {
			t.Errorf("%s: Long is %q, want help/%s", name, c.Long, e.Name())
		}
	}
}
