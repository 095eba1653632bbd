// Package brief is the default plain-text report (--format table): a
// summary that fits a terminal. For tenet eval and report it is a short
// header (the contracts and the runs judged), one headline row per
// condition — utility, utility under attack, targeted ASR, secure
// utility, n and what failed — and a bounded list of what needs
// attention (failed gates, violated invariants aggregated per invariant,
// disagreements with given labels, unknown labels, unauthorized calls,
// errors, warnings), each with its count. tenet compare gets one row per
// property, tenet test its per-test lines. Every line of an eval or
// report summary is at most Width columns, whatever the names; the full
// tables are report.WriteTable (--format table-full, --detail).
//
// Like every renderer it computes nothing: the counts come from the
// Document. Colour, for a terminal, comes from a termstyle.Style; the
// plain Write never colours (goldens, pipes, files).
package brief

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/termstyle"
)

// Width is the most columns a line of an eval or report summary takes.
const Width = 120

// MaxAttention bounds the entries of one kind in the "needs attention"
// list (invariants, gates, warnings); the others are counted in one
// "… and N more" line, so that the list stays short whatever the corpus.
const MaxAttention = 5

// Write writes the summary of d without colour: the renderer of
// --format table (eval/report/formats).
func Write(w io.Writer, d *report.Document) error { return WriteStyled(w, d, termstyle.Style{}) }

// WriteStyled writes the summary of d, its failure words coloured by st
// (termstyle.For the output; the zero Style colours nothing).
func WriteStyled(w io.Writer, d *report.Document, st termstyle.Style) error {
	switch d.Command {
	case report.CommandTest:
		return report.WriteTable(w, d) // one line per test already
	}
	bw := bufio.NewWriter(w)
	if d.Command == report.CommandCompare {
		writeCompare(bw, d)
	} else {
		writeHeader(bw, d)
		writeConditions(bw, d, st)
		writeNotes(bw, d)
		writeAttention(bw, d, st)
	}
	return bw.Flush()
}

// writeHeader writes what was judged: per contract (tenet eval) "contract
// NAME VERSION: N runs judged, M records skipped, K header lines without
// messages" (the last two when not zero), or "N runs from M
// files" (tenet report).
func writeHeader(w io.Writer, d *report.Document) {
	if d.Command != report.CommandEval {
		fmt.Fprintln(w, clipEnd(report.InputsLine(d), Width))
		return
	}
	for _, c := range d.Contracts {
		skipped := 0
		for _, s := range c.Skipped {
			skipped += s.Count
		}
		line := "contract " + report.ShownName(strings.TrimSpace(c.Name+" "+c.Version))
		if c.Bundle != "" {
			line += " (" + shortID(c.Bundle) + ")"
		}
		line += ": " + count(c.Judged, "run", "runs") + " judged"
		var rest []string
		if skipped > 0 {
			rest = append(rest, count(skipped, "record", "records")+" skipped")
		}
		if c.Headers > 0 {
			rest = append(rest, count(c.Headers, "header line", "header lines")+" without messages")
		}
		more := strings.Join(rest, ", ")
		if more != "" && DisplayWidth(line+", "+more) <= Width {
			line, more = line+", "+more, ""
		}
		fmt.Fprintln(w, clipEnd(line, Width))
		if more != "" {
			// Counts that do not fit after the contract get a line of
			// their own rather than being cut.
			fmt.Fprintln(w, clipEnd("  "+more, Width))
		}
	}
	if line := report.UnselectedLine(d); line != "" {
		// The full line's tail says what the header already implies;
		// without it a line fits for names of usual length.
		fmt.Fprintln(w, clipEnd(trimCasesTail(line), Width))
	}
	if d.Shard != nil {
		fmt.Fprintln(w, clipEnd(fmt.Sprintf("shard %d of %d: metrics over its runs only, gates not evaluated; tenet report merges the shards", d.Shard.Index, d.Shard.Count), Width))
	}
}

// shortID is a bundle id cut to its first 12 hex digits, as a short
// commit id is: enough to tell bundles apart in a header; --detail and
// every machine format give it whole.
func shortID(id string) string {
	if hex, ok := strings.CutPrefix(id, "sha256:"); ok && len(hex) > 12 {
		return "sha256:" + hex[:12]
	}
	return report.ShownName(id)
}

// row is one condition's headline.
type row struct {
	contract string
	name     string    // the condition, without its contract
	rates    [4]string // utility, under attack, targeted ASR, secure utility
	n        string
	failed   string // "" when nothing failed
}

var headers = [...]string{"condition", "benign utility", "under attack", "targeted ASR", "secure utility", "n", "failed"}

// gap is the space between two columns.
const gap = "  "

// writeConditions writes the headline table: one row per condition, its
// condition column clipped to what the others leave of Width
// (distinctClips). Conditions of several contracts are grouped under a
// line naming their contract, their rows indented.
func writeConditions(w io.Writer, d *report.Document, st termstyle.Style) {
	rows := conditionRows(d)
	if len(rows) == 0 {
		fmt.Fprintln(w, "\nno condition to report")
		return
	}
	grouped := false
	for _, r := range rows {
		grouped = grouped || r.contract != rows[0].contract
	}
	indent := ""
	if grouped {
		indent = "  "
	}
	// The widths of the columns right of the condition: their widest cell.
	var widths [len(headers)]int
	for i, h := range headers {
		widths[i] = DisplayWidth(h)
	}
	bounded := false
	for _, r := range rows {
		for i, c := range r.rates {
			widths[1+i] = max(widths[1+i], DisplayWidth(c))
			bounded = bounded || strings.Contains(c, "–")
		}
		widths[5] = max(widths[5], DisplayWidth(r.n))
		widths[6] = max(widths[6], DisplayWidth(orDash(r.failed)))
	}
	right := 0
	for _, wd := range widths[1:] {
		right += len(gap) + wd
	}
	nameWidth := max(Width-right-len(indent), minNameWidth)
	all := make([]string, len(rows))
	for i, r := range rows {
		all[i] = report.ShownName(r.name)
	}
	// A start or an end every name shares ("… @ important_instructions")
	// tells no row apart: when names must be clipped it is said once
	// above the table and left out of the rows, so that the columns go to
	// where the names differ.
	prefix, suffix := sharedAffixes(all, nameWidth)
	longest := DisplayWidth(headers[0])
	for i := range all {
		all[i] = strings.TrimSuffix(strings.TrimPrefix(all[i], prefix), suffix)
		longest = max(longest, DisplayWidth(all[i]))
	}
	widths[0] = min(longest, nameWidth)

	// Names are clipped per contract: a group's line tells groups apart.
	shown := make([]string, len(rows))
	numbered := false
	for start := 0; start < len(rows); {
		end := start
		for end < len(rows) && rows[end].contract == rows[start].contract {
			end++
		}
		clips, num := distinctClips(all[start:end], widths[0])
		numbered = numbered || num
		copy(shown[start:end], clips)
		start = end
	}

	fmt.Fprintln(w)
	if prefix != "" {
		fmt.Fprintln(w, clipEnd(fmt.Sprintf("every condition starts with %q", prefix), Width))
	}
	if suffix != "" {
		fmt.Fprintln(w, clipEnd(fmt.Sprintf("every condition ends with %q", suffix), Width))
	}
	cells := []string{padRight(headers[0], widths[0]+len(indent))}
	for i := 1; i < 6; i++ {
		cells = append(cells, padLeft(headers[i], widths[i]))
	}
	fmt.Fprintln(w, strings.Join(append(cells, headers[6]), gap))
	for i, r := range rows {
		if grouped && (i == 0 || r.contract != rows[i-1].contract) {
			fmt.Fprintln(w, clipEnd(contractShown(r.contract)+":", Width))
		}
		cells := []string{indent + padRight(shown[i], widths[0])}
		for j, c := range r.rates {
			cells = append(cells, padLeft(c, widths[1+j]))
		}
		cells = append(cells, padLeft(r.n, widths[5]))
		failed := orDash(r.failed)
		if r.failed != "" {
			failed = st.Error(failed)
		}
		fmt.Fprintln(w, strings.Join(append(cells, failed), gap))
	}
	fmt.Fprintln(w, "columns: benign_utility, utility_under_attack, targeted_asr, secure_utility_in_scope (docs/metrics.md); n: runs")
	if numbered {
		fmt.Fprintln(w, "#N: rows numbered in order, their names too alike to clip apart; the full names: --detail")
	}
	if bounded {
		fmt.Fprintln(w, "low–high: the least and greatest value over the unknown labels (--unknown=bounds)")
	}
	// Under --cases observed the denominators are the cases that ran: the
	// rows above read differently, so the summary says it, bounded.
	for i, line := range d.Cases {
		if i == MaxAttention {
			fmt.Fprintln(w, moreCasesLine(d, len(d.Cases)-i))
			break
		}
		// The full line's tail says what the header already implies;
		// without it a line fits for names of usual length.
		fmt.Fprintln(w, clipEnd(trimCasesTail(line), Width))
	}
}

// writeNotes writes the Document's notes (a passing no_case_lost gate's
// baseline), each cut to Width, at most MaxAttention, then a count.
func writeNotes(w io.Writer, d *report.Document) {
	for i, line := range d.Notes {
		if i == MaxAttention {
			fmt.Fprintln(w, "… and "+count(len(d.Notes)-i, "more note", "more notes")+" (--detail: every gate)")
			break
		}
		fmt.Fprintln(w, clipEnd(line, Width))
	}
}

// moreCasesLine counts the lines about cases and goal tasks left out of
// the summary (more of them) and the conditions they are about: a
// condition may have several (observed cases, sets not run, goal tasks),
// so lines are not conditions.
func moreCasesLine(d *report.Document, more int) string {
	conds, lines, shown := 0, 0, len(d.Cases)-more
	for _, c := range d.Conditions {
		n := len(report.ConditionLines(c))
		lines += n
		if n > 0 && lines > shown { // some of its lines are left out
			conds++
		}
	}
	s := "… and " + count(more, "more line", "more lines") + " on cases and goal tasks"
	if lines == len(d.Cases) { // the lines are the conditions' own, in order
		s += " of " + count(conds, "condition", "conditions")
	}
	return s + " (--detail)"
}

// minNameWidth is the narrowest the condition column gets: the other
// columns are bounded (a rate cell by its bounds, failed by maxFailed), so
// that Width always leaves this much.
const minNameWidth = 16

// maxFailed bounds the failed cell; a longer list of gates is counted.
const maxFailed = 28

// conditionRows returns a row per condition with metrics, then per
// condition with checks only, in the Document's order.
func conditionRows(d *report.Document) []row {
	runsOf := map[string]int{}
	invariants := map[string]int{}
	for _, c := range d.Checks {
		runsOf[c.Name()] = c.Runs
		for _, inv := range c.Invariants {
			if inv.Hits > 0 || inv.Unknown > 0 {
				invariants[c.Name()]++
			}
		}
	}
	gates := map[string][]string{}
	for _, g := range d.Gates {
		if g.Passed || g.NoRuns {
			continue
		}
		if gs := gates[g.Condition]; len(gs) == 0 || gs[len(gs)-1] != g.Gate {
			gates[g.Condition] = append(gs, g.Gate)
		}
	}
	var rows []row
	seen := map[string]bool{}
	add := func(name, contract, condition string, c *metrics.Condition) {
		seen[name] = true
		r := row{contract: contract, name: condition, rates: [4]string{"—", "—", "—", "—"}, n: "—"}
		if n, ok := runsOf[name]; ok {
			r.n = thousands(n)
		}
		var failed []string
		if c != nil && c.OK() {
			for i, rate := range []struct {
				name string
				r    metrics.Rate
			}{
				{"benign_utility", c.BenignUtility},
				{"utility_under_attack", c.UtilityUnderAttack},
				{"targeted_asr", c.TargetedASR},
				{"secure_utility_in_scope", c.SecureUtilityInScope},
			} {
				r.rates[i] = rateCell(*c, rate.name, rate.r)
			}
		} else if c != nil {
			failed = append(failed, "metrics error")
		}
		if k := invariants[name]; k > 0 {
			failed = append(failed, count(k, "invariant", "invariants"))
		}
		if gs := gates[name]; len(gs) > 0 {
			names := "gate " + strings.Join(gs, ", ")
			if len(gs) > 1 {
				names = "gates " + strings.Join(gs, ", ")
			}
			if DisplayWidth(strings.Join(append(failed, names), ", ")) > maxFailed {
				names = count(len(gs), "gate", "gates")
			}
			failed = append(failed, names)
		}
		r.failed = clipEnd(strings.Join(failed, ", "), maxFailed)
		rows = append(rows, r)
	}
	for i := range d.Conditions {
		c := &d.Conditions[i]
		add(c.Name(), c.Contract, c.Condition, c)
	}
	for _, c := range d.Checks {
		if !seen[c.Name()] {
			add(c.Name(), c.Contract, c.Condition, nil)
		}
	}
	return rows
}

// rateCell is a rate with four decimals, "—" when it has no value, or
// "low–high" when the unknown labels change it (the fractions and the
// count of unknowns are in the full table).
func rateCell(c metrics.Condition, name string, r metrics.Rate) string {
	if s, ok := c.Rate(name); ok && !s.Exact() {
		if !s.Low.Valid || !s.High.Valid {
			return "—"
		}
		return fmt.Sprintf("%.4f–%.4f", s.Low.Rate.Value(), s.High.Rate.Value())
	}
	if r.Den == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", r.Value())
}

func contractShown(c string) string {
	if c == "" {
		return "(no contract)"
	}
	return report.ShownName(c)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// count renders "1 run", "2 runs" with thousands separators.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// thousands renders n with commas between groups of three digits.
func thousands(n int) string {
	s := itoa(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func itoa(n int) string { return fmt.Sprint(n) }

// trimCasesTail is a cases line without its tail (report.CasesTail, or a
// shard's), which the summary's header already implies.
func trimCasesTail(line string) string {
	return strings.TrimSuffix(strings.TrimSuffix(line, report.CasesTail), report.ShardCasesTail)
}
