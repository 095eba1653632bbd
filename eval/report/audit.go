package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// AnyMismatches reports whether any condition has a call whose result
// disagrees with its request: only then do reports show the mismatches
// column (the runs file holds each call's mismatch).
func AnyMismatches(as []tally.AuditCounts) bool {
	for _, a := range as {
		if a.Mismatches > 0 {
			return true
		}
	}
	return false
}

// WriteAudit writes the authorization audit per condition, when any run
// was audited:
//
//	authorization audit (grant default)
//	condition  calls  authorized  missing_resource_capability  schema_types  schema_fields  unregistered_tool  hazards
//	m          7      1           2                            2             1              1                  1
//
// (with a last column, mismatches, when any call's result disagrees with
// its request), then, per condition, the runs with a call that was not authorized (at
// most 3 named; the runs file holds every call's decision).
func WriteAudit(w io.Writer, as []tally.AuditCounts, files RunsFiles) error {
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
	head = append(head, "hazards")
	mismatches := AnyMismatches(as)
	if mismatches {
		head = append(head, "mismatches")
	}
	row(tw, head)
	for _, a := range as {
		cells := []string{a.Name(), fmt.Sprint(a.Calls)}
		for i := len(runs.Decisions) - 1; i >= 0; i-- {
			cells = append(cells, fmt.Sprint(a.Decisions[runs.Decisions[i]]))
		}
		cells = append(cells, fmt.Sprint(a.Hazards))
		if mismatches {
			cells = append(cells, fmt.Sprint(a.Mismatches))
		}
		row(tw, cells)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, a := range as {
		var lines []string
		for i, d := range a.Denied {
			if i == MaxNamedRuns {
				break
			}
			lines = append(lines, fmt.Sprintf("  %s: call:%d %s %s: %s", d.Key, d.Call, d.Tool, d.Decision, OneLine(d.Detail)))
		}
		if note := files.MoreNote(len(a.Denied), len(lines), a.MoreDenied, "runs with calls not authorized"); note != "" {
			lines = append(lines, "  "+note)
		}
		if len(lines) > 0 {
			section(bw, "runs with calls not authorized in "+a.Name(), lines)
		}
	}
	return bw.Flush()
}
