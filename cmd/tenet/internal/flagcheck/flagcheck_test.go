package flagcheck

import (
	"testing"

	"github.com/spf13/cobra"
)

// tree is a root with one command "run" holding a flag of each kind.
func tree() *cobra.Command {
	root := &cobra.Command{Use: "tenet", PersistentPreRunE: Check, SilenceErrors: true, SilenceUsage: true}
	run := &cobra.Command{Use: "run", RunE: func(*cobra.Command, []string) error { return nil }}
	run.Flags().String("format", "table", "")
	run.Flags().String("source", "", "")
	run.Flags().StringP("out", "o", "", "")
	run.Flags().String("report-out", "", "")
	run.Flags().Int("workers", 0, "")
	run.Flags().Bool("strict", false, "")
	run.Flags().StringArray("include", nil, "")
	run.Flags().StringSlice("profile", nil, "")
	run.Flags().CountP("verbose", "v", "")
	AcceptDash(run, "report-out")
	root.AddCommand(run)
	Install(root)
	return root
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" accepted
	}{
		{[]string{"--format", "json"}, ""},
		{[]string{"--format", "table", "--format", "json"}, "--format given twice: table, then json; give it once"},
		{[]string{"-o", "a", "--out", "b", "-o", "c"}, "--out given 3 times: a, then b, then c; give it once"},
		{[]string{"--workers", "1", "--workers=2"}, "--workers given twice: 1, then 2; give it once"},
		{[]string{"--strict", "--strict"}, "--strict given twice: true, then true; give it once"},
		{[]string{"--include", "a", "--include", "b", "--profile", "x", "--profile", "y", "-vv"}, ""},
		{[]string{"--format="}, `--format "": want a value; without the flag it is table (the flag is given, but empty: an unset variable?)`},
		{[]string{"--out", ""}, `--out "": want a path (the flag is given, but empty: an unset variable?)`},
		{[]string{"--source", ""}, ""}, // its empty value is its default
		{[]string{"--out", "-"}, "--out -: tenet run cannot write this to standard output; name a file"},
		{[]string{"--report-out", "-"}, ""},
	} {
		root := tree()
		root.SetArgs(append([]string{"run"}, c.args...))
		err := root.Execute()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}

// TestInstallTwice: a second Install wraps nothing twice (a value given
// once is still once).
func TestInstallTwice(t *testing.T) {
	root := tree()
	Install(root)
	root.SetArgs([]string{"run", "--format", "json"})
	if err := root.Execute(); err != nil {
		t.Error(err)
	}
}

func TestConflicts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--out", "-"}, "--out - writes the runs to standard output, where the report goes too: send the report to a file with --report-out FILE"},
		{[]string{"eval", "--out", "-", "--report-out", "-"}, "--out - writes the runs to standard output, where the report goes too: send the report to a file with --report-out FILE"},
		{[]string{"eval", "--out", "-", "--report-out", "r.txt"}, ""},
		{[]string{"eval", "--out", "runs.jsonl"}, ""},
	} {
		root := &cobra.Command{Use: "tenet", PersistentPreRunE: Check, SilenceErrors: true, SilenceUsage: true}
		for _, name := range []string{"eval", "compare"} {
			sub := &cobra.Command{Use: name, RunE: func(*cobra.Command, []string) error { return nil }}
			for _, f := range []string{"out", "report-out", "reference", "defended"} {
				sub.Flags().String(f, "", "")
			}
			AcceptDash(sub, "out")
			AcceptDash(sub, "report-out")
			root.AddCommand(sub)
		}
		Install(root)
		root.SetArgs(c.args)
		got := ""
		if err := root.Execute(); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}
