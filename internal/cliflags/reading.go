package cliflags

import (
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
)

// AddReading declares the flags that say how transcript records are read
// into runs, into source and format: --source, the source block that maps
// the records (default: the contract's only source), and
// --transcript-format, a format that overrides the source's ("auto":
// recognise each file's). tenet eval and tenet explain declare them here,
// so that a run evaluated with some flags is explained with the same ones,
// with the same meaning. An unknown format is not refused here: the
// readers refuse it with the list of known formats, as they refuse one
// named in a source.
func AddReading(cmd *cobra.Command, source, format *string) {
	cmd.Flags().StringVar(source, "source", "", "source block to map records with (default: the contract's only source)")
	cmd.Flags().StringVar(format, "transcript-format", "", "transcript format, or auto to recognise each file's (default: the source's format)")
}

// SourcePlan is the plan of p's source named source ("": its only one)
// with format, when not "", in place of the source's own: what tenet eval
// reads with under the same flags (pipeline.Target resolves them alike).
// The bundle's plan is shared by every user of p, so the override is made
// on a copy.
func SourcePlan(p *eval.Program, source, format string) (*bundle.SourcePlan, error) {
	src, err := p.Source(source)
	if err != nil || format == "" {
		return src, err
	}
	s := *src
	s.Format = format
	return &s, nil
}
