package flagcheck

import (
	"errors"

	"github.com/spf13/cobra"
)

// A conflict is flags of one command that contradict each other: refuse
// returns the sentence that refuses them, or "" when they agree.
type conflict struct {
	command string // path below tenet, as "eval"
	refuse  func(get func(name string) (string, bool)) string
}

// conflicts are the combinations of flags tenet refuses before a command
// runs (docs/cli.md lists them with those the commands refuse themselves,
// which need their inputs: eval's --out and --report-out naming one file,
// compare's one condition twice). Two outputs on standard output would
// interleave.
var conflicts = []conflict{{"eval", runsAndReport}, {"report", runsAndReport}}

// runsAndReport refuses eval's and report's runs file (--out -) and report
// both on standard output.
func runsAndReport(get func(string) (string, bool)) string {
	out, _ := get("out")
	rep, given := get("report-out")
	if out == "-" && (!given || rep == "-") {
		return "--out - writes the runs to standard output, where the report goes too: send the report to a file with --report-out FILE"
	}
	return ""
}

// checkConflicts refuses cmd's flags when they contradict each other.
func checkConflicts(cmd *cobra.Command) error {
	get := func(name string) (string, bool) {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			return "", false
		}
		return f.Value.String(), f.Changed
	}
	path := cmd.CommandPath()
	for _, c := range conflicts {
		if path != cmd.Root().Name()+" "+c.command {
			continue
		}
		if msg := c.refuse(get); msg != "" {
			return errors.New(msg)
		}
	}
	return nil
}
