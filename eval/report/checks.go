package report

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/tally"
)

// MaxNamedRuns bounds how many runs are named per invariant and condition;
// the runs file (--out) records every violation with its witness.
const MaxNamedRuns = 3

// WriteChecks writes the invariant and failure-class counts per condition,
// when the contract has any:
//
//	invariants
//	condition  invariant  violated  unknown  runs
//	gpt-4o     answered   1         0        32
//
//	violations of answered:
//	  gpt-4o/user_task_3
//
//	failure classes
//	condition  class    runs  unknown  of
//	gpt-4o     timeout  2     0        32
//
// At most 3 runs are named per invariant (then "… and N more"); unknown
// results are listed with their reasons. A list the Document's budget cut
// (Document.MaxListed) ends with files.CutNote ("… and N more violations:
// runs.jsonl names every run; tenet explain runs.jsonl KEY explains one"),
// N counting every run not named.
func WriteChecks(w io.Writer, cs []tally.Checks, files RunsFiles) error {
	bw := bufio.NewWriter(w)
	for _, part := range []struct {
		title, col, hit string
		get             func(tally.Checks) []tally.CheckCount
	}{
		{"invariants", "invariant", "violated", func(c tally.Checks) []tally.CheckCount { return c.Invariants }},
		{"failure classes", "class", "runs", func(c tally.Checks) []tally.CheckCount { return c.Failures }},
	} {
		any := false
		for _, c := range cs {
			any = any || len(part.get(c)) > 0
		}
		if !any {
			continue
		}
		fmt.Fprintf(bw, "\n%s\n", part.title)
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		row(tw, []string{"condition", part.col, part.hit, "unknown", "of"})
		for _, c := range cs {
			for _, n := range part.get(c) {
				row(tw, []string{c.Name(), n.Name, fmt.Sprint(n.Hits), fmt.Sprint(n.Unknown), fmt.Sprint(c.Runs)})
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, c := range cs {
			for _, n := range part.get(c) {
				var lines []string
				for i, k := range n.HitRuns {
					if i == MaxNamedRuns {
						break
					}
					lines = append(lines, "  "+k.String())
				}
				if note := files.MoreNote(len(n.HitRuns), len(lines), n.MoreHitRuns, "violations"); note != "" {
					lines = append(lines, "  "+note)
				}
				if len(lines) > 0 && part.title == "invariants" {
					section(bw, "violations of "+n.Name+" in "+c.Name(), lines)
				}
				lines = nil
				for _, u := range n.UnknownRuns {
					lines = append(lines, fmt.Sprintf("  %s: %s", u.Key, OneLine(u.Reason)))
				}
				if n.MoreUnknownRuns > 0 {
					lines = append(lines, "  "+files.CutNote(n.MoreUnknownRuns, "unknown results"))
				}
				if len(lines) > 0 {
					section(bw, "unknown results of "+n.Name+" in "+c.Name(), lines)
				}
			}
		}
	}
	return bw.Flush()
}
