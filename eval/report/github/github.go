// Package github renders a report's failures as GitHub Actions workflow
// commands (internal/ghactions), so that a job shows each at its contract
// line: a violated or undecided invariant at the invariant's line, once per
// condition; a failed gate requirement at the requirement's line. Each
// command is one line; a report without failures gives no output.
package github

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/ghactions"
)

// Write writes d's failures as workflow commands.
func Write(w io.Writer, d *report.Document) error {
	return ghactions.Write(w, Annotations(d))
}

// Annotations are d's failures, invariants first (in the order of
// d.Checks), then gates (in the order of d.Gates).
func Annotations(d *report.Document) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range d.Checks {
		src, _ := d.SourceOf(c.Contract)
		for _, n := range c.Invariants {
			if n.Hits == 0 && n.Unknown == 0 {
				continue
			}
			a := ghactions.Annotation{Level: Level(""), Title: "invariant " + n.Name, Message: InvariantMessage(n.Name, n.Hits, n.Unknown, c.Runs, c.Name())}
			if inv, ok := src.Invariant(n.Name); ok {
				a.Level, a.File, a.Line, a.Column = Level(inv.Severity), Join(src.Dir, inv.File), inv.Line, inv.Column
				a.Title += " (" + inv.Severity + ")"
			}
			out = append(out, a)
		}
	}
	for _, g := range d.Gates {
		if g.Passed || g.NoRuns {
			continue
		}
		a := ghactions.Annotation{Level: ghactions.Error, Title: "gate " + g.Gate, Message: report.GateFailure(g)}
		if src, ok := d.SourceOf(g.Contract); ok && g.Range.File != "" {
			a.File, a.Line, a.Column = Join(src.Dir, g.Range.File), g.Range.Line, g.Range.Column
		}
		out = append(out, a)
	}
	return out
}

// Level is the annotation level of an invariant's severity: critical and
// high (and none given) are errors, medium warnings, low notices.
func Level(severity string) ghactions.Level {
	switch severity {
	case "medium":
		return ghactions.Warning
	case "low":
		return ghactions.Notice
	}
	return ghactions.Error
}

// Join is a source file's path as given: file joined to the contract
// directory dir ("" for a bundle file: file as it is).
func Join(dir, file string) string {
	if dir == "" {
		return file
	}
	return filepath.Join(dir, file)
}

// InvariantMessage says how often an invariant failed in a condition:
// "invariant no_exfil violated on 3 of 32 runs in gpt-4o", with ", undecided
// on N" when some runs could not be decided.
func InvariantMessage(name string, hits, unknown, runs int, condition string) string {
	var s string
	switch {
	case hits > 0 && unknown > 0:
		s = fmt.Sprintf("invariant %s violated on %s and undecided on %s of %s", name, report.Count(hits, "run"), report.Count(unknown, "run"), report.Count(runs, "run"))
	case hits > 0:
		s = fmt.Sprintf("invariant %s violated on %s of %s", name, report.Count(hits, "run"), report.Count(runs, "run"))
	default:
		s = fmt.Sprintf("invariant %s undecided on %s of %s", name, report.Count(unknown, "run"), report.Count(runs, "run"))
	}
	return s + " in " + condition
}
