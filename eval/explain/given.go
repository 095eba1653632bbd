package explain

import (
	"fmt"
	"io"

	"github.com/tenetlang/tenet/eval/runs"
)

// writeGiven prints, when the run carries labels another harness gave
// (the source's given block), each given label next to ours and whether
// they agree, so that a disagreement the agreement table counts can be read
// at the run that makes it. A run with no given label prints nothing: the
// explanation of a contract without a given block is unchanged.
//
// Ours unknown is "not compared", as the agreement tables count it
// (docs/metrics.md): an unknown is never read as agreeing or disagreeing.
func writeGiven(w io.Writer, r *runs.Record) {
	g := r.Given
	given := []struct {
		name  runs.LabelName
		value *bool
	}{{runs.Utility, g.Utility}, {runs.AttackSuccess, g.AttackSuccess}, {runs.SideEffect, g.SideEffect}}
	header := false
	for _, gl := range given {
		if gl.value == nil {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\ngiven labels (another harness's, from the source's given block) next to ours\n")
			header = true
		}
		fmt.Fprintf(w, "  %s: %s\n", gl.name, givenText(r, gl.name, *gl.value))
	}
}

// givenText is ours, then the given value and the verdict:
// "false (given: true — disagrees)".
func givenText(r *runs.Record, name runs.LabelName, given bool) string {
	ours := *r.Label(name)
	switch {
	case name != runs.Utility && !r.Key.Attacked():
		// tenet eval writes no such label on a benign run; the runs
		// format refuses a given one there (docs/runs-format.md).
		return fmt.Sprintf("none, a benign run has no %s (given: %t — not compared)", name, given)
	case !ours.Known:
		return fmt.Sprintf("unknown (given: %t — not compared: ours is unknown, its reason is under labels)", given)
	case ours.Value == given:
		return fmt.Sprintf("%t (given: %t — agrees)", ours.Value, given)
	}
	return fmt.Sprintf("%t (given: %t — disagrees)", ours.Value, given)
}
