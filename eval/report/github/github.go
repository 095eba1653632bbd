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

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/ghactions"
)

// Write writes d's failures as workflow commands.
func Write(w io.Writer, d *report.Document) error {
	return ghactions.Write(w, Annotations(d))
}

// Annotations are d's failures, invariants first (in the order of
// d.Checks), then gates (in the order of d.Gates). A failure the Document's
// policy leaves out (--fail-on, --fail-on-severity) is a notice whose
// message ends with why it does not fail the run, as on stderr.
func Annotations(d *report.Document) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range d.Checks {
		src, _ := d.SourceOf(c.Contract)
		for _, n := range c.Invariants {
			if n.Hits == 0 && n.Unknown == 0 {
				continue
			}
			name := report.CutCell(n.Name)
			a := ghactions.Annotation{Level: Level(""), Title: "invariant " + name, Message: InvariantMessage(n.Name, n.Hits, n.Unknown, c.Runs, c.Name())}
			if inv, ok := src.Invariant(n.Name); ok {
				var where string
				a.Level, a.Title = Level(inv.Severity), a.Title+" ("+inv.Severity+")"
				a.File, a.Line, a.Column, where = Place(src, inv.File, inv.Line, inv.Column)
				a.Message += where
			}
			if fails, note := d.Fails(failpolicy.Invariants, c.Contract, n.Name); !fails {
				a.Level, a.Message = ghactions.Notice, a.Message+" "+note
			}
			out = append(out, a)
		}
	}
	for _, g := range d.Gates {
		if g.Passed || g.NoRuns {
			continue
		}
		a := ghactions.Annotation{Level: ghactions.Error, Title: "gate " + report.CutCell(g.Gate), Message: GateMessage(g)}
		if src, ok := d.SourceOf(g.Contract); ok && g.Range.File != "" {
			var where string
			a.File, a.Line, a.Column, where = Place(src, g.Range.File, g.Range.Line, g.Range.Column)
			a.Message += where
		}
		if fails, note := d.Fails(failpolicy.Gates, g.Contract, ""); !fails {
			a.Level, a.Message = ghactions.Notice, a.Message+" "+note
		}
		out = append(out, a)
	}
	return out
}

// Place is where a failure written at file, line and column of the
// contract src is shown: the file joined to the contract directory. A
// contract given as a bundle file has no directory (src.Dir ""): its file
// names are relative to the directory it was compiled from, which need not
// be the repository's root, so a path would point at a file that does not
// exist there; then Place gives no file, and where, to add to the message,
// names the file, line and contract (" at contract.tenet.hcl:70 of contract
// quickstart-mail"). where is "" when path is set.
func Place(src report.Source, file string, line, column int) (path string, l, col int, where string) {
	if src.Dir != "" {
		return Join(src.Dir, file), line, column, ""
	}
	at := file
	if line > 0 {
		at = fmt.Sprintf("%s:%d", file, line)
	}
	return "", 0, 0, " at " + report.CutCell(at) + " of contract " + report.CutCell(src.Contract)
}

// GateMessage is report.GateFailure with the gate's name cut as names are
// (report.CutCell).
func GateMessage(g report.GateResult) string {
	g.Gate = report.CutCell(g.Gate)
	return report.GateFailure(g)
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
// directory dir ("" for a bundle file: file as it is; Place gives no path
// then).
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
	// An invariant's name is the contract's, of any length: cut as the
	// other formats cut names.
	name = report.CutCell(name)
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
