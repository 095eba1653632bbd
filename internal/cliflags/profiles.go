package cliflags

import (
	"fmt"

	"github.com/spf13/cobra"
)

// Profiles is tenet eval's --profile: the profile blocks (docs/language.md,
// "profile") under whose params every selected record is judged too, each
// as condition "<condition>+<profile>" (docs/cli.md).
type Profiles struct {
	names []string
}

// Add declares --profile, repeatable or comma-separated.
func (p *Profiles) Add(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&p.names, "profile", nil, "also judge every run under this profile of the contract (repeatable or comma-separated): its runs are condition <condition>+<profile>, and the report counts the labels each flips")
}

// Names checks the names given and returns them without duplicates, in
// the order given: none empty (whether each contract declares them is
// eval.Program.WithProfile's check, which names the declared ones).
func (p *Profiles) Names() ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range p.names {
		if n == "" {
			return nil, fmt.Errorf("--profile: an empty name (a stray comma?); give the name of a profile block of the contract")
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}
