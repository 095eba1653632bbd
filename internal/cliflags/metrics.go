package cliflags

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/metrics"
)

// Metrics is how tenet eval and tenet report compute the metrics: --unknown
// (what an unknown label does) and --cases (where the denominators of a
// contract's metrics come from, docs/metrics.md "Observed cases").
type Metrics struct {
	Unknown string
	Cases   string
}

// Add declares --unknown, with the command's own usage text, and --cases
// on cmd.
func (m *Metrics) Add(cmd *cobra.Command, unknownUsage string) {
	cmd.Flags().StringVar(&m.Unknown, "unknown", metrics.UnknownRefuse, unknownUsage)
	cmd.Flags().StringVar(&m.Cases, "cases", metrics.CasesDeclared, "denominators: declared (every declared task and case; one with no run is an error) or observed (per condition, the declared tasks and cases that ran; the report says how many it left out)")
}

// Check refuses a value of --unknown or --cases the metrics do not know,
// before anything is read.
func (m Metrics) Check() error {
	if m.Unknown != metrics.UnknownRefuse && m.Unknown != metrics.UnknownBounds {
		return fmt.Errorf("unknown --unknown %q: want %s or %s", m.Unknown, metrics.UnknownRefuse, metrics.UnknownBounds)
	}
	if m.Cases != metrics.CasesDeclared && m.Cases != metrics.CasesObserved {
		return fmt.Errorf("unknown --cases %q: want %s or %s", m.Cases, metrics.CasesDeclared, metrics.CasesObserved)
	}
	return nil
}

// Options are the metrics.Options the flags give.
func (m Metrics) Options() metrics.Options {
	return metrics.Options{Unknown: m.Unknown, Cases: m.Cases}
}
