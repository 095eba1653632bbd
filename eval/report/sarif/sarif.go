// Package sarif renders a report as a SARIF 2.1.0 log (internal/sarif),
// for GitHub code scanning and other SARIF viewers: one result per
// invariant and condition that failed (violated or undecided), at the
// invariant's line, its level by the invariant's severity, with the
// witness of the first violating run listed as a code flow (the run's
// origin, then each step the forbid pattern matched); one result per
// failed gate requirement, at the requirement's line. Rules are
// "invariant/NAME" and "gate/NAME". Paths are as the contract directory
// was named, so that a log made at the repository root points into it; a
// contract given as a bundle file has no directory, and its results point
// at no contract file (github.Place). Each result has a partial
// fingerprint of its rule, contract and condition, so that GitHub keeps
// one alert per invariant and condition; a failure the fail policy leaves
// out is a note. A shard's log (tenet eval --shard i/n) has the run
// property tenet.shard {"index": i, "count": n} and report.ShardLine as a
// note among the invocation's notifications.
package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/github"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/sarif"
)

// Write writes d as a SARIF log within GitHub's limits (sarif.GitHub).
func Write(w io.Writer, d *report.Document) error {
	return sarif.Write(w, sarif.NewLog(Run(d)), sarif.GitHub)
}

// Run is d's SARIF run. Its invocation is successful unless d's exit code
// is 2 (errors: metrics that could not be computed, gates that could not
// be evaluated), each error then a notification.
func Run(d *report.Document) sarif.Run {
	inv := sarif.Invocation{ExecutionSuccessful: d.ExitCode != 2}
	for _, e := range d.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarif.Notification{Level: sarif.Error, Message: sarif.Message{Text: e}})
	}
	if d.Shard != nil { // the run's results are one shard's: said in its properties and to a reader
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarif.Notification{Level: sarif.Note, Message: sarif.Message{Text: report.ShardLine(d)}})
	}
	run := sarif.Run{
		Tool:        sarif.Tool{Driver: sarif.Driver{Name: "tenet", Version: d.Version, InformationURI: "https://github.com/tenetlang/tenet"}},
		Invocations: []sarif.Invocation{inv},
		Results:     []sarif.Result{},
	}
	if d.Shard != nil {
		run.Properties = &sarif.RunProperties{Shard: &sarif.Shard{Index: d.Shard.Index, Count: d.Shard.Count}}
	}
	rules := map[string]bool{}
	addRule := func(r sarif.Rule) {
		if !rules[r.ID] {
			rules[r.ID] = true
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
		}
	}
	for _, c := range d.Checks {
		src, _ := d.SourceOf(c.Contract)
		for _, n := range c.Invariants {
			if n.Hits == 0 && n.Unknown == 0 {
				continue
			}
			inv, known := src.Invariant(n.Name)
			addRule(invariantRule(n.Name, inv))
			res := sarif.Result{
				RuleID:              "invariant/" + n.Name,
				Level:               level(inv.Severity),
				Message:             sarif.Message{Text: github.InvariantMessage(n.Name, n.Hits, n.Unknown, c.Runs, c.Name())},
				PartialFingerprints: fingerprint("invariant/"+n.Name, c.Contract, c.Condition),
			}
			v, witnessed := firstViolation(d, c, n)
			if witnessed {
				res.Message.Text += "; first: " + v.Key.String()
				res.CodeFlows = codeFlow(v)
			}
			var file, where string
			var line, col int
			if known && inv.File != "" {
				file, line, col, where = github.Place(src, inv.File, inv.Line, inv.Column)
				res.Message.Text += where
			}
			switch {
			case file != "":
				res.Locations = []sarif.Location{sarif.At(file, line, col)}
			case witnessed && v.OriginFile != "":
				// No contract given (tenet report), or a bundle file's,
				// whose paths are not the repository's: the run's
				// transcript.
				res.Locations = []sarif.Location{sarif.At(v.OriginFile, v.OriginLine, 0)}
			case where != "":
				res.Locations = []sarif.Location{logical(c.Contract, "invariant", n.Name)}
			}
			if fails, note := d.Fails(failpolicy.Invariants, c.Contract, n.Name); !fails {
				res.Level, res.Message.Text = sarif.Note, res.Message.Text+" "+note
			}
			run.Results = append(run.Results, res)
		}
	}
	for _, g := range d.Gates {
		if g.Passed || g.NoRuns {
			continue
		}
		addRule(sarif.Rule{ID: "gate/" + g.Gate, ShortDescription: sarif.Text("gate " + report.CutCell(g.Gate)),
			DefaultConfiguration: &sarif.Configuration{Level: sarif.Error}})
		res := sarif.Result{RuleID: "gate/" + g.Gate, Level: sarif.Error, Message: sarif.Message{Text: github.GateMessage(g)},
			PartialFingerprints: fingerprint("gate/"+g.Gate, g.Contract, g.Condition, g.Requirement)}
		if src, ok := d.SourceOf(g.Contract); ok && g.Range.File != "" {
			file, line, col, where := github.Place(src, g.Range.File, g.Range.Line, g.Range.Column)
			if file != "" {
				res.Locations = []sarif.Location{sarif.At(file, line, col)}
			} else {
				res.Message.Text += where
				res.Locations = []sarif.Location{logical(g.Contract, "gate", g.Gate)}
			}
		}
		if fails, note := d.Fails(failpolicy.Gates, g.Contract, ""); !fails {
			res.Level, res.Message.Text = sarif.Note, res.Message.Text+" "+note
		}
		run.Results = append(run.Results, res)
	}
	return run
}

// FingerprintKey is the key of the partial fingerprint of every result.
// A new way of computing it takes a new key (v2), so that GitHub does not
// match old alerts to new ones wrongly.
const FingerprintKey = "tenetResult/v1"

// fingerprint is a result's partial fingerprints: the hex SHA-256 of its
// rule, contract and condition (and a gate's requirement), NUL-separated.
// Without it GitHub fingerprints a result by its line's text, and the
// results of one invariant in several conditions, all at its line, become
// one alert.
func fingerprint(parts ...string) map[string]string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return map[string]string{FingerprintKey: hex.EncodeToString(h.Sum(nil))}
}

// logical is the logical location of a contract's invariant or gate, for a
// contract given as a bundle file (no path of the repository to point at):
// "quickstart-mail/invariant/no_exfil".
func logical(contract, kind, name string) sarif.Location {
	name = report.CutCell(name)
	return sarif.Location{LogicalLocations: []sarif.LogicalLocation{{Name: name,
		FullyQualifiedName: report.CutCell(contract) + "/" + kind + "/" + name}}}
}

// invariantRule describes an invariant; GitHub ranks alerts by
// "security-severity" (critical above 9.0, high from 7.0, medium from
// 4.0, low below).
func invariantRule(name string, inv report.InvariantSource) sarif.Rule {
	r := sarif.Rule{ID: "invariant/" + name, ShortDescription: sarif.Text("invariant " + report.CutCell(name)),
		DefaultConfiguration: &sarif.Configuration{Level: level(inv.Severity)}}
	if inv.Description != "" {
		r.FullDescription, r.Help = sarif.Text(inv.Description), sarif.Text(inv.Description)
	}
	score := map[string]string{"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "2.0"}[inv.Severity]
	if score != "" {
		r.Properties = &sarif.Properties{Tags: []string{"security"}, SecuritySeverity: score}
	}
	return r
}

// level is the SARIF level of an invariant's severity (as the github
// format's).
func level(severity string) sarif.Level {
	switch severity {
	case "medium":
		return sarif.Warning
	case "low":
		return sarif.Note
	}
	return sarif.Error
}

// firstViolation is the violation of the first run listed as violating
// n in c, when the Document holds it (not the table format's, which
// leaves violations out).
func firstViolation(d *report.Document, c tally.Checks, n tally.CheckCount) (report.Violation, bool) {
	if len(n.HitRuns) == 0 {
		return report.Violation{}, false
	}
	first := n.HitRuns[0]
	for _, v := range d.Violations {
		if v.Invariant == n.Name && v.Key == first {
			return v, true
		}
	}
	return report.Violation{}, false
}

// codeFlow is a violation's witness: the run's origin (its transcript
// record), then each step matched, each at the origin (the witness names
// the run's event or call, not a line of its own).
func codeFlow(v report.Violation) []sarif.CodeFlow {
	if v.OriginFile == "" {
		return nil
	}
	at := func(msg string) sarif.ThreadFlowLocation {
		l := sarif.At(v.OriginFile, v.OriginLine, 0)
		l.Message = sarif.Text(msg)
		return sarif.ThreadFlowLocation{Location: l}
	}
	locs := []sarif.ThreadFlowLocation{at("run " + v.Key.String())}
	for _, s := range v.Witness {
		msg := fmt.Sprintf("step %s matched %s", s.Step, s.Item)
		if s.Tool != "" {
			msg += " (" + s.Tool + ")"
		}
		locs = append(locs, at(msg))
	}
	return []sarif.CodeFlow{{Message: sarif.Text("witness of invariant " + report.CutCell(v.Invariant) + " on " + v.Key.String()),
		ThreadFlows: []sarif.ThreadFlow{{Locations: locs}}}}
}
