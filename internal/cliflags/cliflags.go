// Package cliflags declares and checks the flags several tenet commands
// share, once: the judging limits (--max-pattern-threads, --run-timeout),
// the transcript inputs (--include, with the expansion of the arguments)
// and how their records are read (--source, --transcript-format), how
// the metrics are computed (--unknown, --cases), which bundles are
// trusted (--verify-key, TENET_VERIFY_KEY, --expect-bundle-id), and which
// failures fail the run (--fail-on, --fail-on-severity), and where the
// results history is (--record, --db). It takes a
// *cobra.Command to add flags to and the command's arguments; it gives
// checked values, eval.Program limits, an inputs.List, a source plan with
// the format override applied, metrics.Options, a bundle.Policy and a
// failpolicy.Policy. It decides no exit code. It imports compiler/bundle,
// compiler/bundle/trust, eval, eval/failpolicy, eval/history, eval/metrics and
// internal/inputs; only cmd/tenet imports it.
package cliflags

import (
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/internal/inputs"
)

// Inputs is --include, the globs selecting the files read in a directory
// argument (docs/transcripts.md, "Inputs").
type Inputs struct {
	Include []string
}

// Add declares --include on cmd (repeatable).
func (f *Inputs) Add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.Include, "include", nil, "in a directory argument, read only the files whose name (or, with a /, path under it) matches this glob; repeatable (default: every file not hidden)")
}

// Expand expands the transcript arguments (files, directories, - for
// standard input) that follow contract with inputs.Expand; Close the List
// when done.
func (f *Inputs) Expand(contract string, args []string) (*inputs.List, error) {
	return inputs.Expand(args, inputs.Options{Include: f.Include, Contract: contract})
}
