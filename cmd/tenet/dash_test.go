package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
)

// dashArgs are, per command with an output flag (flagcheck.Outputs), the
// arguments a run of it with that flag set to "-" needs: real inputs for
// the commands that take "-" as standard output and run, any that pass
// argument checks for the others, which refuse "-" before they run. In
// the test's directory, q is the quickstart contract, t.jsonl its
// transcripts, runs.jsonl their runs and h.db a history recording them.
var dashArgs = map[string][]string{
	"authorize":      {"q"},
	"build":          {"q"},
	"compare":        {"--reference", "baseline", "--defended", "guarded", "runs.jsonl"},
	"dev synth":      {"--runs", "1"},
	"eval":           {"q", "t.jsonl"},
	"export":         {"runs.jsonl"},
	"gateway":        {"q", "--", "true"},
	"history diff":   {"1", "2"},
	"history export": {"1", "--db", "h.db", "--format", "jsonl"}, // - for JSONL only (testdata/history.txtar: Parquet refused)
	"history trend":  {"--contract", "c", "--metric", "targeted_asr"},
	"import":         {"openai", "tools.json"},
	"keygen":         nil,
	"report":         {"runs.jsonl"},
	"serve":          {"q.tnb"},
	"test":           {"q"},
}

// TestNoFileNamedDash: no command writes a file named "-". Each output
// flag of every command (found by walking the command tree, so that a new
// one is covered) is given "-": the commands that declare it
// (flagcheck.AcceptDash) write to standard output and succeed, the others
// refuse it, exit 2, in one sentence naming the flag.
func TestNoFileNamedDash(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	setup := [][]string{{"eval", "q", "t.jsonl", "--out", "runs.jsonl", "--record", "--db", "h.db"}, {"build", "q", "-o", "q.tnb"}}
	copyFile(t, filepath.Join(repo, "examples/quickstart/contract.tenet.hcl"), "q/contract.tenet.hcl")
	copyFile(t, filepath.Join(repo, "examples/quickstart/transcripts.jsonl"), "t.jsonl")
	if err := os.WriteFile("tools.json", []byte(`[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range setup {
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != 0 {
			t.Fatalf("tenet %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
	}
	tested := 0
	walkCommands(t, func(cmd *cobra.Command) {
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !flagcheck.Outputs[f.Name] {
				return
			}
			path := strings.TrimPrefix(cmd.CommandPath(), "tenet ")
			base, ok := dashArgs[path]
			if !ok {
				t.Errorf("tenet %s has output flag --%s: add the command to dashArgs", path, f.Name)
				return
			}
			tested++
			args := append(append(strings.Fields(path), slices.Clip(base)...), "--"+f.Name, "-")
			if i := slices.Index(args, "--"); i >= 0 && path == "gateway" { // flags before the command it runs
				args = append(append(slices.Clip(args[:i]), "--"+f.Name, "-"), args[i:len(args)-2]...)
			}
			if (path == "eval" || path == "report") && f.Name == "out" {
				args = append(args, "--report-out", "report.txt")
			}
			var out, errb bytes.Buffer
			code := Main(args, &out, &errb)
			if _, err := os.Lstat("-"); err == nil {
				t.Errorf("tenet %s wrote a file named -", strings.Join(args, " "))
				os.Remove("-")
			}
			switch {
			case flagcheck.AcceptsDash(f) && (code != 0 || out.Len() == 0):
				t.Errorf("tenet %s: exit %d, %d bytes on stdout, want 0 and output there (stderr: %s)", strings.Join(args, " "), code, out.Len(), errb.String())
			case !flagcheck.AcceptsDash(f) && (code != exitBad || !strings.Contains(errb.String(), "--"+f.Name+" -: tenet "+path+" cannot write this to standard output; name a file")):
				t.Errorf("tenet %s: exit %d, stderr %q; want it refused", strings.Join(args, " "), code, errb.String())
			}
		})
	})
	if tested < 13 { // as of writing: build, keygen, dev synth, import, eval ×2, report ×2, compare, test, authorize, serve, gateway
		t.Errorf("only %d output flags tried", tested)
	}
}

// walkCommands calls f with every command of tenet's tree.
func walkCommands(t *testing.T, f func(*cobra.Command)) {
	t.Helper()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		f(c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(&bytes.Buffer{}, &bytes.Buffer{}))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
