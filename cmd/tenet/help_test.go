package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// noHelp are the commands without a help/NAME.txt: their Short line and
// flags say all there is (build, version), or they only group others (dev,
// dev-precommit).
var noHelp = []string{"build", "dev", "dev-precommit", "version"}

// hiddenCommands are the hidden commands, as paths below tenet. Cobra's
// completion leaves hidden commands out, so they are named here; their
// subcommands are found by completion like any others.
var hiddenCommands = [][]string{{"dev"}}

// argsCompleted are the commands whose completion offers arguments (the
// shells of tenet completion), not subcommands: the walk stops there.
var argsCompleted = []string{"completion"}

// TestHelpTexts: every command of tenet's root command, found by asking
// cobra for each command's subcommands (tenet __complete), either has its
// long help in help/NAME.txt — NAME is its path below tenet joined by "-",
// as dev-synth — which --help prints first, or is listed in noHelp; and
// every help file and noHelp entry belongs to a command. So a new command
// without prose, a misspelt name in help("…") (its --help would show only
// the Short line) and a help file of a removed command all fail here.
func TestHelpTexts(t *testing.T) {
	var all [][]string
	var walk func(path []string)
	walk = func(path []string) {
		all = append(all, path)
		if slices.Contains(argsCompleted, strings.Join(path, " ")) {
			return
		}
		for _, name := range subcommands(t, path) {
			walk(append(slices.Clip(path), name))
		}
	}
	for _, name := range subcommands(t, nil) {
		walk([]string{name})
	}
	for _, h := range hiddenCommands {
		if slices.ContainsFunc(all, func(p []string) bool { return slices.Equal(p, h) }) {
			t.Errorf("%s is listed as hidden but completion offers it", strings.Join(h, " "))
			continue
		}
		walk(h)
	}
	if len(all) < 10 {
		t.Fatalf("only %d commands found: %v", len(all), all)
	}

	seen := map[string]bool{}
	for _, path := range all {
		name := strings.Join(path, "-")
		seen[name] = true
		var stdout, stderr bytes.Buffer
		if code := Main(append(slices.Clip(path), "--help"), &stdout, &stderr); code != 0 {
			t.Errorf("tenet %s --help: exit %d (%s)", strings.Join(path, " "), code, stderr.String())
			continue
		}
		text := help(name)
		switch {
		case text != "" && slices.Contains(noHelp, name):
			t.Errorf("%s has help/%s.txt but is listed in noHelp", name, name)
		case text == "" && !slices.Contains(noHelp, name):
			t.Errorf("%s: no help/%s.txt (write one, or list the command in noHelp)", name, name)
		case text != "" && !strings.HasPrefix(stdout.String(), text+"\n\n"):
			t.Errorf("tenet %s --help does not start with help/%s.txt; it prints:\n%s", strings.Join(path, " "), name, stdout.String())
		}
	}

	entries, err := helpTexts.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".txt"); !seen[name] {
			t.Errorf("help/%s: no such command", e.Name())
		}
	}
	for _, name := range noHelp {
		if !seen[name] {
			t.Errorf("noHelp lists %s: no such command", name)
		}
	}
}

// subcommands are the names of the visible subcommands of the command at
// path, as cobra's shell completion lists them (without its own help
// command and without flags).
func subcommands(t *testing.T, path []string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append(append([]string{"__complete"}, path...), "")
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("tenet %s: exit %d (%s)", strings.Join(args, " "), code, stderr.String())
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		if strings.HasPrefix(line, ":") { // the completion directive closes the list
			break
		}
		name, _, _ := strings.Cut(line, "\t")
		// Completion also offers a command's required flags.
		if name != "" && name != "help" && !strings.HasPrefix(name, "-") {
			names = append(names, name)
		}
	}
	return names
}
