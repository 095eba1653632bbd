// Package junit renders a report.Document as JUnit XML (Write), which CI
// systems show as test results. It only formats: every number comes
// computed in the Document. It imports eval/report, eval/metrics and
// eval/runs; no CEL, no plotting.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// Write writes the Document as JUnit XML, the format CI test reporters
// read (GitHub test-reporter actions, Jenkins, GitLab):
//
//	<testsuites name="tenet eval" tests="9" failures="2" errors="1">
//	  <testsuite name="metrics" tests="3" failures="0" errors="1">
//	    <testcase name="metrics" classname="checks:b">
//	      <error message="…" type="metrics">…</error>
//
// One suite per kind of check, in this order, each left out when it has no
// test case:
//
//   - "metrics": a case "metrics" per condition (classname: the condition,
//     "contract:condition"), an <error> listing Condition.Errors when its
//     metrics could not be computed, else passing with its rates in
//     <system-out>. A Document with Errors but no condition in error (no
//     runs at all) gets one case "metrics" with classname "tenet" in error.
//   - "invariants": a case "invariant NAME" per invariant and condition, a
//     <failure> when some run violated it or it could not be decided on
//     some run (fail closed, as Build) — the message names the first 3 runs
//     of each (runs.Key.String), the text every run, with the origin and
//     witness of a violation or the reason it is undecided.
//   - "gates": a case "gate NAME: REQUIREMENT" per requirement and
//     condition, a <failure> (GateFailure) when it failed, an <error> when
//     it was not evaluated (a condition it lists has no runs).
//   - "tests": a case per contract test (classname: the contract), a
//     <failure> with its problems when it failed.
//   - "comparison" (tenet compare): a passing case per property with the
//     transition in <system-out>.
//   - "warnings": a passing case "look-alike names" with the Document's
//     Warnings in <system-out>.
//
// So a failure of the exit code (Failures) is a <failure> and a metric
// error an <error>; a failure the Document's Policy does not count
// (NotFailing: --fail-on, --fail-on-severity) is a passing case with the
// failure, and why it does not fail the run, in <system-out>. The <testsuites> element is always written, if empty.
// A shard's report (tenet eval --shard i/n) says so: the <testsuites>
// name ends "(shard i of n)", and every suite has the property
// tenet.shard = "i/n" and report.ShardLine in its <system-out>.
// Characters XML 1.0 cannot hold (control characters other than tab, line
// feed and carriage return, invalid UTF-8, U+FFFE, U+FFFF) become U+FFFD,
// so the output always parses. The output is deterministic.
func Write(w io.Writer, d *report.Document) error {
	root := junitDocument(d)
	root.prepare()
	out, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Properties *junitProperties `xml:"properties,omitempty"` // nil: no element (an empty slice would write one)
	Cases      []junitCase      `xml:"testcase"`
	SystemOut  *junitText       `xml:"system-out,omitempty"`
}

// junitProperties is a suite's <properties>: on a shard's report (tenet
// eval --shard i/n), tenet.shard = "i/n".
type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

// junitProblem is a <failure> or an <error>: a one-line message and the
// full text.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",innerxml"` // escaped by prepare
}

// junitText is element text, written with its line breaks (encoding/xml
// would write them as &#xA;): '&', '<' and '>' are escaped, and '\r' as
// &#xD; so that it survives end-of-line normalisation.
type junitText struct {
	Text string `xml:",innerxml"` // escaped by prepare
}

// textOf returns s as element text; nil for "".
func textOf(s string) *junitText {
	if s == "" {
		return nil
	}
	return &junitText{Text: s}
}

// junitDocument builds the suites and counts them.
func junitDocument(d *report.Document) junitSuites {
	root := junitSuites{Name: "tenet " + d.Command}
	if d.Shard != nil {
		root.Name += fmt.Sprintf(" (shard %d of %d)", d.Shard.Index, d.Shard.Count)
	}
	for _, s := range []junitSuite{
		{Name: "metrics", Cases: junitMetrics(d)},
		{Name: "invariants", Cases: junitInvariants(d)},
		{Name: "gates", Cases: junitGates(d)},
		{Name: "tests", Cases: junitTests(d)},
		{Name: "comparison", Cases: junitComparison(d)},
		{Name: "warnings", Cases: junitWarnings(d)},
	} {
		if len(s.Cases) == 0 {
			continue
		}
		for _, c := range s.Cases {
			s.Tests++
			if c.Failure != nil {
				s.Failures++
			}
			if c.Error != nil {
				s.Errors++
			}
		}
		if d.Shard != nil { // each suite says it covers one shard: CI lists suites apart
			s.Properties = &junitProperties{[]junitProperty{{Name: "tenet.shard", Value: fmt.Sprintf("%d/%d", d.Shard.Index, d.Shard.Count)}}}
			s.SystemOut = textOf(report.ShardLine(d))
		}
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
		root.Suites = append(root.Suites, s)
	}
	return root
}

func junitMetrics(d *report.Document) []junitCase {
	var out []junitCase
	inError := false
	for _, c := range d.Conditions {
		tc := junitCase{Name: "metrics", Classname: c.Name()}
		if !c.OK() {
			inError = true
			var lines []string
			for _, err := range c.Errors {
				lines = append(lines, err.Error())
			}
			tc.Error = &junitProblem{Type: "metrics", Text: strings.Join(lines, "\n"),
				Message: fmt.Sprintf("metrics of %s could not be computed: %s", c.Name(), firstOf(lines))}
		} else {
			summary := conditionSummary(c)
			if lines := d.ConditionLines(c); len(lines) > 0 {
				summary = strings.Join(lines, "\n") + "\n" + summary // denominators and goal tasks: said before the rates
			}
			tc.SystemOut = textOf(summary)
		}
		out = append(out, tc)
	}
	if len(d.Errors) > 0 && !inError {
		out = append(out, junitCase{Name: "metrics", Classname: "tenet", Error: &junitProblem{Type: "metrics",
			Message: firstOf(d.Errors), Text: strings.Join(d.Errors, "\n")}})
	}
	return out
}

// firstOf is the first line, followed by "(and N more)" when there are
// others.
func firstOf(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	s := report.OneLine(lines[0])
	if len(lines) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(lines)-1)
	}
	return s
}

// conditionSummary lists a condition's counts and rates, one per line, as
// the table prints them.
func conditionSummary(c metrics.Condition) string {
	exposed := "—"
	if c.HasExposure {
		exposed = report.CountCell(c, "exposed_cases", c.ExposedCases)
	}
	lines := []string{
		fmt.Sprintf("|T| = %d, |C| = %d, reps %s", c.BenignTasks, c.SecurityCases, report.RepsCell(c)),
		"benign_utility: " + report.RateCell(c, "benign_utility", c.BenignUtility),
		"utility_under_attack: " + report.RateCell(c, "utility_under_attack", c.UtilityUnderAttack),
		"targeted_asr: " + report.RateCell(c, "targeted_asr", c.TargetedASR),
		"side_effect_rate: " + report.RateCell(c, "side_effect_rate", c.SideEffectRate),
		"secure_utility_in_scope: " + report.RateCell(c, "secure_utility_in_scope", c.SecureUtilityInScope),
		"joint u/both/a/neither: " + report.JointCell(c),
		"exposed: " + exposed,
		"conditional_asr_exposed: " + report.NullableCell(c, "conditional_asr_exposed", c.ConditionalASRExposed),
		"solved: " + report.CountCell(c, "benign_solved_cases", c.BenignSolvedCases),
		"conditional_asr_benign_solved: " + report.NullableCell(c, "conditional_asr_benign_solved", c.ConditionalASRBenignSolved),
	}
	return strings.Join(lines, "\n")
}

func junitInvariants(d *report.Document) []junitCase {
	type vkey struct {
		key runs.Key
		inv string
	}
	viol := map[vkey]report.Violation{}
	for _, v := range d.Violations {
		viol[vkey{v.Key, v.Invariant}] = v
	}
	var out []junitCase
	for _, c := range d.Checks {
		for _, n := range c.Invariants {
			tc := junitCase{Name: "invariant " + n.Name, Classname: c.Name()}
			if n.Hits == 0 && n.Unknown == 0 {
				out = append(out, tc)
				continue
			}
			var parts, lines []string
			if n.Hits > 0 {
				keys := make([]string, len(n.HitRuns))
				for i, k := range n.HitRuns {
					keys[i] = k.String()
					lines = append(lines, "violated on "+report.ViolationLine(k, viol[vkey{k, n.Name}]))
				}
				if n.MoreHitRuns > 0 {
					lines = append(lines, d.RunsFiles.CutNote(n.MoreHitRuns, "violations"))
				}
				parts = append(parts, fmt.Sprintf("violated on %s of %s in %s: %s", report.Count(n.Hits, "run"), report.Count(c.Runs, "run"), c.Name(), firstRuns(d.RunsFiles, keys, n.MoreHitRuns, "violations")))
			}
			if n.Unknown > 0 {
				keys := make([]string, len(n.UnknownRuns))
				for i, u := range n.UnknownRuns {
					keys[i] = u.Key.String()
					lines = append(lines, fmt.Sprintf("undecided on %s: %s", u.Key, report.OneLine(u.Reason)))
				}
				if n.MoreUnknownRuns > 0 {
					lines = append(lines, d.RunsFiles.CutNote(n.MoreUnknownRuns, "unknown results"))
				}
				parts = append(parts, fmt.Sprintf("undecided on %s of %s in %s: %s", report.Count(n.Unknown, "run"), report.Count(c.Runs, "run"), c.Name(), firstRuns(d.RunsFiles, keys, n.MoreUnknownRuns, "unknown results")))
			}
			fails, note := d.Fails(failpolicy.Invariants, c.Contract, n.Name)
			setFailure(&tc, &junitProblem{Type: "invariant", Message: "invariant " + n.Name + " " + strings.Join(parts, "; "),
				Text: strings.Join(lines, "\n")}, fails, note)
			out = append(out, tc)
		}
	}
	return out
}

// firstRuns names the first maxListed runs, then "… and N more", or
// report.CutNote when the Document's budget left out more (of noun) besides.
func firstRuns(files report.RunsFiles, keys []string, more int, noun string) string {
	shown := keys[:min(len(keys), report.MaxNamedRuns)]
	s := strings.Join(shown, ", ")
	if note := files.MoreNote(len(keys), len(shown), more, noun); note != "" {
		if s != "" {
			s += " "
		}
		s += note
	}
	return s
}

// setFailure makes p tc's <failure>; a failure the Document's Policy does
// not count (--fail-on, --fail-on-severity) goes to <system-out> instead,
// after the note saying why, so that a CI system shows it without failing
// on it, as the exit code does.
func setFailure(tc *junitCase, p *junitProblem, fails bool, note string) {
	if fails {
		tc.Failure = p
		return
	}
	tc.SystemOut = &junitText{Text: p.Message + " " + note + "\n" + p.Text}
}

func junitGates(d *report.Document) []junitCase {
	var out []junitCase
	for _, g := range d.Gates {
		tc := junitCase{Name: "gate " + g.Gate + ": " + g.Requirement, Classname: g.Condition}
		if !g.Passed {
			text := report.GateFailure(g)
			if g.Range.File != "" {
				text += fmt.Sprintf("\nat %s:%d:%d", g.Range.File, g.Range.Line, g.Range.Column)
			}
			p := &junitProblem{Type: "gate", Message: report.OneLine(report.GateFailure(g)), Text: text}
			if g.NoRuns {
				// Not evaluated for lack of runs: an error (exit 2), not a
				// failed gate.
				tc.Error = p
			} else {
				fails, note := d.Fails(failpolicy.Gates, "", "")
				setFailure(&tc, p, fails, note)
			}
		}
		out = append(out, tc)
	}
	return out
}

func junitTests(d *report.Document) []junitCase {
	var out []junitCase
	for _, t := range d.Tests {
		tc := junitCase{Name: t.Name, Classname: t.Contract}
		if !t.Passed {
			lines := append([]string(nil), t.Problems...)
			if o := report.OriginText(t.OriginFile, t.OriginLine); o != "" {
				lines = append(lines, "run "+o)
			}
			msg := fmt.Sprintf("test %q failed", t.Name)
			if len(t.Problems) > 0 {
				msg += ": " + firstOf(t.Problems)
			}
			fails, note := d.Fails(failpolicy.Tests, "", "")
			setFailure(&tc, &junitProblem{Type: "test", Message: report.OneLine(msg), Text: strings.Join(lines, "\n")}, fails, note)
		}
		out = append(out, tc)
	}
	return out
}

func junitComparison(d *report.Document) []junitCase {
	if d.Comparison == nil {
		return nil
	}
	c := d.Comparison
	class := report.CutCell(runs.Safe(c.Reference)) + " vs " + report.CutCell(runs.Safe(c.Defended))
	if c.Contract != "" {
		class = report.CutCell(runs.Safe(c.Contract)) + ":" + class
	}
	var out []junitCase
	for _, t := range c.Transitions {
		lines := []string{
			fmt.Sprintf("over %d %s: kept_success %d, lost %d, gained %d, kept_failure %d", t.N, t.Over, t.KeptSuccess, t.Lost, t.Gained, t.KeptFailure),
			"reference_rate: " + t.ReferenceRate.String(),
			"defended_rate: " + t.DefendedRate.String(),
			"gain_rate: " + t.GainRate.String(),
			"loss_rate: " + t.LossRate.String(),
			"net_effect: " + t.NetEffect.String(),
			"p_value: " + report.PValue(t.PValue),
			"lost: " + idList(d.RunsFiles, t.LostIDs, t.MoreLostIDs),
			"gained: " + idList(d.RunsFiles, t.GainedIDs, t.MoreGainedIDs),
		}
		out = append(out, junitCase{Name: t.Name, Classname: class, SystemOut: textOf(strings.Join(lines, "\n"))})
	}
	return out
}

// idList is the ids, comma-separated, or "none".
func idList(files report.RunsFiles, ids []string, more int) string {
	if len(ids) == 0 && more == 0 {
		return "none"
	}
	shown := make([]string, len(ids))
	for i, id := range ids {
		shown[i] = report.ShownName(id)
	}
	if more > 0 {
		shown = append(shown, files.CutNote(more, "ids"))
	}
	return strings.Join(shown, ", ")
}

// prepare makes every string of the document fit for XML: attributes lose
// the characters XML 1.0 cannot hold (xmlSafe), element texts too and are
// escaped (xmlEscape).
func (s *junitSuites) prepare() {
	s.Name = xmlSafe(s.Name)
	for i := range s.Suites {
		su := &s.Suites[i]
		su.Name = xmlSafe(su.Name)
		if su.SystemOut != nil {
			su.SystemOut.Text = xmlEscape(xmlSafe(su.SystemOut.Text))
		}
		for j := range su.Cases {
			c := &su.Cases[j]
			c.Name, c.Classname = xmlSafe(c.Name), xmlSafe(c.Classname)
			if c.SystemOut != nil {
				c.SystemOut.Text = xmlEscape(xmlSafe(c.SystemOut.Text))
			}
			for _, p := range []*junitProblem{c.Failure, c.Error} {
				if p != nil {
					p.Message, p.Type, p.Text = xmlSafe(p.Message), xmlSafe(p.Type), xmlEscape(xmlSafe(p.Text))
				}
			}
		}
	}
}

// xmlEscape escapes element text, keeping tabs and line feeds as they are.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;").Replace(s)
}

// xmlSafe replaces invalid UTF-8 and the characters outside XML 1.0's Char
// production (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
// [#x10000-#x10FFFF]) with U+FFFD.
func xmlSafe(s string) string {
	bad := func(r rune) bool {
		return !(r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF ||
			r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF)
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, bad) {
		return s
	}
	// strings.Map turns each invalid byte into U+FFFD.
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// junitWarnings is one passing case "look-alike names" (classname "tenet")
// with the Document's warnings in <system-out>, when it has any: a warning
// does not change the exit code, so it is neither a failure nor an error.
func junitWarnings(d *report.Document) []junitCase {
	if len(d.Warnings) == 0 {
		return nil
	}
	return []junitCase{{Name: "look-alike names", Classname: "tenet", SystemOut: textOf(strings.Join(d.Warnings, "\n"))}}
}
