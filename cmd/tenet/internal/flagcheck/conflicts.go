package flagcheck

import (
	"fmt"

	"github.com/spf13/cobra"
)

// A conflict is flags of one command that contradict each other: refuse
// returns the sentence that refuses them, or "" when they agree.
type conflict struct {
	command string // path below tenet, as "eval"
	refuse  func(get func(name string) (string, bool)) string
}

// conflicts are the combinations tenet refuses (docs/cli.md lists them).
// Two outputs on standard output would interleave; two names for one
// condition compare nothing.
var conflicts = []conflict{
	{"eval", func(get func(string) (string, bool)) string {
		out, _ := get("out")
		rep, given := get("report-out")
		if out == "-" && (!given || rep == "-") {
			return "--out - writes the runs to standard output, where the report goes too: send the report to a file with --report-out FILE"
		}
		return ""
	}},
	{"compare", func(get func(string) (string, bool)) string {
		ref, _ := get("reference")
		def, _ := get("defended")
		if ref != "" && ref == def {
			return fmt.Sprintf("--reference and --defended both name condition %q: compare two different conditions", ref)
		}
		return ""
	}},
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
			return fmt.Errorf("%s", msg)
		}
	}
	return nil
}
