package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// WriteAudit writes the authorization audit per condition, when any run
// was audited:
//
//	authorization audit (grant default)
//	condition  calls  authorized  missing_resource_capability  schema_types  schema_fields  unregistered_tool  hazards
//	m          7      1           2                            2             1              1                  1
//
// then, per condition, the runs with a call that was not authorized (at
// most 3 named; the runs file holds every call's decision).
func WriteAudit(w io.Writer, as []metrics.AuditCounts) error {
	if len(as) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	grants := map[string]bool{}
	for _, a := range as {
		for _, g := range a.Grants {
			grants[g] = true
		}
	}
	var gs []string
	for g := range grants {
		gs = append(gs, g)
	}
	slices.Sort(gs)
	fmt.Fprintf(bw, "\nauthorization audit (grant %s)\n", strings.Join(gs, ", "))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	head := []string{"condition", "calls"}
	for i := len(runs.Decisions) - 1; i >= 0; i-- {
		head = append(head, runs.Decisions[i])
	}
	row(tw, append(head, "hazards"))
	for _, a := range as {
		cells := []string{a.Name(), fmt.Sprint(a.Calls)}
		for i := len(runs.Decisions) - 1; i >= 0; i-- {
			cells = append(cells, fmt.Sprint(a.Decisions[runs.Decisions[i]]))
		}
		row(tw, append(cells, fmt.Sprint(a.Hazards)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, a := range as {
		var lines []string
		for i, d := range a.Denied {
			if i == maxListed {
				break
			}
			lines = append(lines, fmt.Sprintf("  %s: call:%d %s %s: %s", d.Key, d.Call, d.Tool, d.Decision, oneLine(d.Detail)))
		}
		if note := moreNote(len(a.Denied), len(lines), a.MoreDenied, "runs with calls not authorized"); note != "" {
			lines = append(lines, "  "+note)
		}
		if len(lines) > 0 {
			section(bw, "runs with calls not authorized in "+a.Name(), lines)
		}
	}
	return bw.Flush()
}
