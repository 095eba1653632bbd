// Package markdown renders a report.Document as GitHub-flavoured Markdown
// (Write), for a pull-request comment or a CI step summary. It only
// formats: every number comes computed in the Document. It imports
// eval/report, eval/metrics and eval/runs; no CEL, no plotting.
package markdown

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// mdMaxListed bounds the items of one Markdown list (runs of one
// invariant, disagreements of one label, denied calls of one condition,
// ids of one comparison property): then "… and N more". Failures and
// errors are never capped.
const mdMaxListed = 10

// Write writes the Document as GitHub-flavoured Markdown, made for
// a GitHub Actions step summary ($GITHUB_STEP_SUMMARY) or a pull-request
// comment (docs/report-formats.md):
//
//	## tenet eval
//
//	**❌ 2 failures** (exit code 1) · 8 runs from 1 file · tenet 0.4.0
//
//	### Failures
//
//	- invariant answered violated on 1 run of 4 runs in checks:b
//	…
//
// then one section per part that has something to show, in the order of
// the table format: contracts (eval), metrics with a 95% intervals table,
// agreement, invariants, failure classes, authorization audit, gates,
// leaderboard, comparison, tests. The status is "✅ passed" for exit code
// 0, else "❌" with the counts of failures and errors; every failure and
// error is listed. Numbers read as in the table format (metrics.Rate.String,
// runs.Key.String, metrics.Interval.String). Lists of runs or ids stop
// after 10 items per group with "… and N more"; passing tests are folded in
// a <details> block.
//
// Every text that comes from a transcript, a runs file or a contract
// (names, reasons, ids) is escaped (mdText): it cannot break a table,
// start a block, or inject a link, emphasis, code or HTML. The output is
// deterministic.
func Write(w io.Writer, d *report.Document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## tenet %s\n\n", mdText(d.Command))
	status := []string{"**" + mdStatus(d) + "**" + fmt.Sprintf(" (exit code %d)", d.ExitCode)}
	if d.Command != report.CommandTest {
		status = append(status, mdText(report.InputsLine(d)))
	}
	if d.Version != "" {
		status = append(status, "tenet "+mdText(d.Version))
	}
	fmt.Fprintf(bw, "%s\n", strings.Join(status, " · "))
	mdList(bw, "Failures", d.Failures)
	mdList(bw, "Not failing", d.NotFailing)
	mdList(bw, "Errors", d.Errors)
	mdList(bw, "Warnings", d.Warnings)
	mdList(bw, "Cases", d.Cases)
	if d.Command != report.CommandTest {
		mdContracts(bw, d.Contracts)
		if line := report.UnselectedLine(d); line != "" {
			fmt.Fprintf(bw, "\n%s\n", mdItem(line))
		}
		if line := report.ShardLine(d); line != "" {
			fmt.Fprintf(bw, "\n%s\n", mdItem(line))
		}
	}
	mdMetrics(bw, d.Conditions)
	if len(d.Agreement) > 0 {
		mdAgreement(bw, d.Agreement, d.RunsFiles)
	}
	mdChecks(bw, d)
	mdAudit(bw, d.Audit, d.RunsFiles)
	mdGates(bw, d.Gates)
	mdLeaderboard(bw, d.Leaderboard)
	mdProfiles(bw, d)
	if d.Comparison != nil {
		mdComparison(bw, *d.Comparison, d.RunsFiles)
	}
	if d.Command == report.CommandTest {
		mdTests(bw, d.Tests)
	}
	return bw.Flush()
}

// mdStatus is "✅ passed", "❌ 2 failures", "❌ 1 error, 2 failures".
func mdStatus(d *report.Document) string {
	if d.ExitCode == 0 {
		return "✅ passed"
	}
	var parts []string
	if len(d.Errors) > 0 {
		parts = append(parts, report.Pluralize(len(d.Errors), "error", "errors"))
	}
	if len(d.Failures) > 0 {
		parts = append(parts, report.Pluralize(len(d.Failures), "failure", "failures"))
	}
	if len(parts) == 0 {
		return "❌ failed"
	}
	return "❌ " + strings.Join(parts, ", ")
}

// mdList writes a "### title" section listing every item; nothing when
// items is empty.
func mdList(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### %s\n\n", title)
	for _, it := range items {
		fmt.Fprintf(w, "- %s\n", mdItem(it))
	}
}

// mdCapped writes a "**title**" paragraph and a list of at most
// mdMaxListed items, then "… and N more"; title and items are escaped.
func mdCapped(w io.Writer, title string, items []string) { mdCut(nil, w, title, items, 0, "") }

// mdCut is mdCapped for a list the Document's budget cut, leaving out
// more entries (of what noun names, plural): the list ends with report.CutNote.
func mdCut(files report.RunsFiles, w io.Writer, title string, items []string, more int, noun string) {
	if len(items) == 0 && more == 0 {
		return
	}
	fmt.Fprintf(w, "\n**%s**\n\n", mdText(title))
	shown := 0
	for _, it := range items {
		if shown == mdMaxListed {
			break
		}
		fmt.Fprintf(w, "- %s\n", mdItem(it))
		shown++
	}
	if note := files.MoreNote(len(items), shown, more, noun); note != "" {
		fmt.Fprintf(w, "- %s\n", mdText(note))
	}
}

// mdTable writes a table, every cell escaped (mdText); right lists the
// columns aligned right.
func mdTable(w io.Writer, header []string, right map[int]bool, rows [][]string) {
	hs := make([]string, len(header))
	for i, h := range header {
		hs[i] = mdText(h)
	}
	fmt.Fprintf(w, "\n| %s |\n|", strings.Join(hs, " | "))
	for i := range header {
		if right[i] {
			fmt.Fprint(w, " ---: |")
		} else {
			fmt.Fprint(w, " --- |")
		}
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = mdText(report.CutCell(c))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

// mdText escapes text for a Markdown table cell or inline in a line:
// line breaks and tabs become spaces, unprintable characters and invalid
// UTF-8 become U+FFFD, '<', '>' and '&' become entities (no HTML), and the
// characters of inline Markdown and of GFM tables (\ ` * _ [ ] | ~ $) are
// backslash-escaped (an underscore inside a word is left alone), so that
// the text reads as itself.
func mdText(s string) string {
	var b strings.Builder
	prev := ' '
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				b.WriteRune('\uFFFD')
				prev = r
				continue
			}
		}
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		switch {
		case r == '_' && isAlnum(prev) && isAlnum(next):
			// An intraword underscore neither opens nor closes emphasis
			// (CommonMark): user_task_0 stays as is.
			b.WriteRune(r)
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]|~$", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case !unicode.IsPrint(r) && r != ' ':
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// mdItem escapes text that starts a line (a list item) as mdText does,
// and also a leading block marker (# + - = or "1." "1)"), which would
// start a heading, a nested list or a rule.
func mdItem(s string) string {
	out := strings.TrimLeft(mdText(s), " ")
	if out != "" && strings.ContainsRune("#+-=", rune(out[0])) {
		return "\\" + out
	}
	if n := len(out) - len(strings.TrimLeft(out, "0123456789")); n > 0 && n < len(out) && (out[n] == '.' || out[n] == ')') {
		return out[:n] + "\\" + out[n:]
	}
	return out
}

// mdContracts writes the contracts of tenet eval and what happened to
// their records.
func mdContracts(w io.Writer, cs []report.Contract) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprint(w, "\n### Contracts\n")
	var rows [][]string
	var skipped []string
	for _, c := range cs {
		n := 0
		for _, s := range c.Skipped {
			n += s.Count
			line := fmt.Sprintf("%s: %d %s", c.Name, s.Count, s.Reason)
			if len(s.IDs) > 0 {
				var parts []string
				for i, id := range s.IDs {
					if i == mdMaxListed {
						parts = append(parts, fmt.Sprintf("… and %d more", len(s.IDs)-mdMaxListed+s.MoreIDs))
						break
					}
					parts = append(parts, fmt.Sprintf("%s ×%d", report.ShownName(id.ID), id.Count))
				}
				if len(s.IDs) <= mdMaxListed && s.MoreIDs > 0 {
					parts = append(parts, fmt.Sprintf("… and %d more", s.MoreIDs))
				}
				line += ": " + strings.Join(parts, ", ")
			}
			skipped = append(skipped, line)
		}
		rows = append(rows, []string{orDash(c.Name), orDash(c.Version), c.Bundle, fmt.Sprint(c.Judged), fmt.Sprint(n), fmt.Sprint(c.Headers)})
	}
	mdTable(w, []string{"contract", "version", "bundle", "runs judged", "records skipped", "header lines"},
		map[int]bool{3: true, 4: true, 5: true}, rows)
	if len(skipped) > 0 {
		fmt.Fprintln(w)
		for _, s := range skipped {
			fmt.Fprintf(w, "- %s\n", mdItem(s))
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// mdMetrics writes the metrics and intervals tables of WriteMetrics and
// each broken condition's errors.
func mdMetrics(w io.Writer, cs []metrics.Condition) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprint(w, "\n### Metrics\n\ndocs/metrics.md; rates as value (numerator/denominator).\n")
	withContract := slices.ContainsFunc(cs, func(c metrics.Condition) bool { return c.Contract != "" })
	var ok []metrics.Condition
	for _, c := range cs {
		if c.OK() {
			ok = append(ok, c)
		}
	}
	lead := func(c metrics.Condition) []string {
		if withContract {
			return []string{report.ContractCell(c.Contract), report.ShownName(c.Condition)}
		}
		return []string{report.ShownName(c.Condition)}
	}
	if len(ok) > 0 {
		header := []string{"condition", "|T|", "|C|", "reps", "benign_utility", "utility_under_attack", "targeted_asr",
			"side_effect_rate", "secure_utility_in_scope", "joint u/both/a/neither", runs.Exposed.String(), "conditional_asr_exposed",
			"solved", "conditional_asr_benign_solved"}
		right := map[int]bool{1: true, 2: true, 3: true}
		if withContract {
			header = append([]string{"contract"}, header...)
			right = map[int]bool{2: true, 3: true, 4: true}
		}
		var rows [][]string
		bounded := false
		for _, c := range ok {
			exposed := "—"
			if c.HasExposure {
				exposed = report.CountCell(c, "exposed_cases", c.ExposedCases)
			}
			rows = append(rows, append(lead(c),
				fmt.Sprint(c.BenignTasks), fmt.Sprint(c.SecurityCases), report.RepsCell(c),
				report.RateCell(c, "benign_utility", c.BenignUtility),
				report.RateCell(c, "utility_under_attack", c.UtilityUnderAttack),
				report.RateCell(c, "targeted_asr", c.TargetedASR),
				report.RateCell(c, "side_effect_rate", c.SideEffectRate),
				report.RateCell(c, "secure_utility_in_scope", c.SecureUtilityInScope),
				report.JointCell(c), exposed,
				report.NullableCell(c, "conditional_asr_exposed", c.ConditionalASRExposed),
				report.CountCell(c, "benign_solved_cases", c.BenignSolvedCases),
				report.NullableCell(c, "conditional_asr_benign_solved", c.ConditionalASRBenignSolved)))
			for _, s := range c.Rates {
				bounded = bounded || !s.Exact()
			}
		}
		mdTable(w, header, right, rows)
		if bounded {
			fmt.Fprint(w, "\nBounds \\[low, high\\]: the least and greatest value over all assignments of the unknown labels (low..high as fractions; unknown labels the rate reads).\n")
		}
		mdIntervals(w, ok, withContract, lead)
	}
	for _, c := range cs {
		if c.OK() {
			continue
		}
		items := make([]string, len(c.Errors))
		for i, err := range c.Errors {
			items[i] = err.Error()
		}
		mdCapped(w, "errors in "+c.Name(), items)
	}
}

// mdIntervals writes the 95% intervals table (wilson rows, and bootstrap
// rows for conditions that have one).
func mdIntervals(w io.Writer, cs []metrics.Condition, withContract bool, lead func(metrics.Condition) []string) {
	var rows [][]string
	resamples, seed := 0, int64(0)
	for _, c := range cs {
		if len(c.Rates) == 0 {
			continue
		}
		kinds := []string{"wilson"}
		if c.BootstrapResamples > 0 {
			kinds = append(kinds, "bootstrap")
			if resamples == 0 {
				resamples, seed = c.BootstrapResamples, c.BootstrapSeed
			}
		}
		for _, kind := range kinds {
			cells := append(lead(c), kind)
			for _, name := range metrics.RateNames {
				s, _ := c.Rate(name)
				iv := s.Wilson
				if kind == "bootstrap" {
					iv = s.Bootstrap
				}
				cells = append(cells, iv.String())
			}
			rows = append(rows, cells)
		}
	}
	if len(rows) == 0 {
		return
	}
	title := "95% intervals (wilson: Wilson score"
	if resamples > 0 {
		title += fmt.Sprintf("; bootstrap: cluster bootstrap by task, %d resamples, seed %d", resamples, seed)
	}
	fmt.Fprintf(w, "\n%s).\n", title)
	header := append([]string{"condition", "interval"}, metrics.RateNames...)
	if withContract {
		header = append([]string{"contract"}, header...)
	}
	mdTable(w, header, nil, rows)
}

// mdAgreement writes the agreement table, then the disagreements and our
// unknown labels per label kind.
func mdAgreement(w io.Writer, as []tally.Agreement, files report.RunsFiles) {
	fmt.Fprint(w, "\n### Agreement with given labels\n")
	var rows [][]string
	cols := tally.Columns(as)
	for _, a := range as {
		cells := []string{a.Name()}
		for i := range cols {
			cells = append(cells, report.AgreementCell(a.Row(i)))
		}
		rows = append(rows, cells)
	}
	mdTable(w, append([]string{"condition"}, cols...), nil, rows)
	for i := range cols {
		var items []string
		for _, a := range as {
			for _, d := range a.Row(i).Disagreements {
				items = append(items, fmt.Sprintf("%s: ours=%t given=%t%s", d.Key, d.Ours, d.Given, report.OriginSuffix(d.OriginFile, d.OriginLine)))
			}
		}
		more := 0
		for _, a := range as {
			more += a.Row(i).MoreDisagreements
		}
		mdCut(files, w, "disagreements in "+cols[i], items, more, "disagreements")
	}
	for i := range cols {
		var items []string
		for _, a := range as {
			for _, u := range a.Row(i).Unknowns {
				items = append(items, fmt.Sprintf("%s: %s", u.Key, u.Reason))
			}
		}
		more := 0
		for _, a := range as {
			more += a.Row(i).MoreUnknowns
		}
		mdCut(files, w, "unknown labels in "+cols[i], items, more, "unknown labels")
	}
}

// mdChecks writes the invariants and failure classes, with the violating
// runs (their origin and witness from Document.Violations) and the unknown
// results.
func mdChecks(w io.Writer, d *report.Document) {
	files := d.RunsFiles
	type vkey struct {
		key runs.Key
		inv string
	}
	viol := map[vkey]report.Violation{}
	for _, v := range d.Violations {
		viol[vkey{v.Key, v.Invariant}] = v
	}
	for _, part := range []struct {
		title, col, hit string
		get             func(tally.Checks) []tally.CheckCount
	}{
		{"Invariants", "invariant", "violated", func(c tally.Checks) []tally.CheckCount { return c.Invariants }},
		{"Failure classes", "class", "runs", func(c tally.Checks) []tally.CheckCount { return c.Failures }},
	} {
		var rows [][]string
		for _, c := range d.Checks {
			for _, n := range part.get(c) {
				rows = append(rows, []string{c.Name(), n.Name, fmt.Sprint(n.Hits), fmt.Sprint(n.Unknown), fmt.Sprint(c.Runs)})
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n### %s\n", part.title)
		mdTable(w, []string{"condition", part.col, part.hit, "unknown", "of"}, map[int]bool{2: true, 3: true, 4: true}, rows)
		for _, c := range d.Checks {
			for _, n := range part.get(c) {
				if part.col == "invariant" {
					items := make([]string, len(n.HitRuns))
					for i, k := range n.HitRuns {
						items[i] = report.ViolationLine(k, viol[vkey{k, n.Name}])
					}
					mdCut(files, w, "violations of "+n.Name+" in "+c.Name(), items, n.MoreHitRuns, "violations")
				}
				items := make([]string, len(n.UnknownRuns))
				for i, u := range n.UnknownRuns {
					items[i] = fmt.Sprintf("%s: %s", u.Key, u.Reason)
				}
				mdCut(files, w, "unknown results of "+n.Name+" in "+c.Name(), items, n.MoreUnknownRuns, "unknown results")
			}
		}
	}
}

// mdAudit writes the authorization audit table and, per condition, the
// runs with a call that was not authorized.
func mdAudit(w io.Writer, as []tally.AuditCounts, files report.RunsFiles) {
	if len(as) == 0 {
		return
	}
	var gs []string
	for _, a := range as {
		for _, g := range a.Grants {
			if !slices.Contains(gs, g) {
				gs = append(gs, g)
			}
		}
	}
	slices.Sort(gs)
	fmt.Fprintf(w, "\n### Authorization audit (grant %s)\n", mdText(strings.Join(gs, ", ")))
	header := []string{"condition", "calls"}
	right := map[int]bool{}
	for i := len(runs.Decisions) - 1; i >= 0; i-- {
		header = append(header, runs.Decisions[i])
	}
	header = append(header, "hazards")
	mismatches := report.AnyMismatches(as)
	if mismatches {
		header = append(header, "mismatches")
	}
	for i := 1; i < len(header); i++ {
		right[i] = true
	}
	var rows [][]string
	for _, a := range as {
		cells := []string{a.Name(), fmt.Sprint(a.Calls)}
		for i := len(runs.Decisions) - 1; i >= 0; i-- {
			cells = append(cells, fmt.Sprint(a.Decisions[runs.Decisions[i]]))
		}
		cells = append(cells, fmt.Sprint(a.Hazards))
		if mismatches {
			cells = append(cells, fmt.Sprint(a.Mismatches))
		}
		rows = append(rows, cells)
	}
	mdTable(w, header, right, rows)
	for _, a := range as {
		items := make([]string, len(a.Denied))
		for i, d := range a.Denied {
			items[i] = fmt.Sprintf("%s: call:%d %s %s: %s", d.Key, d.Call, d.Tool, d.Decision, d.Detail)
		}
		mdCut(files, w, "runs with calls not authorized in "+a.Name(), items, a.MoreDenied, "runs with calls not authorized")
	}
}

// mdGates writes one row per gate requirement and condition.
func mdGates(w io.Writer, gs []report.GateResult) {
	if len(gs) == 0 {
		return
	}
	fmt.Fprint(w, "\n### Gates\n")
	var rows [][]string
	for _, g := range gs {
		result := "✅ ok"
		switch {
		case g.NoRuns:
			result = "⚠️ not run"
		case !g.Passed:
			result = "❌ failed"
		}
		rows = append(rows, []string{g.Gate, g.Condition, result, g.Requirement, g.Reason})
	}
	mdTable(w, []string{"gate", "condition", "result", "requirement", "reason"}, nil, rows)
}

// mdLeaderboard writes the leaderboard of several contracts.
func mdLeaderboard(w io.Writer, rows []leaderboard.Row) {
	if len(rows) == 0 {
		return
	}
	var cs []string
	for _, r := range rows {
		for _, c := range r.Contracts {
			if !slices.Contains(cs, c) {
				cs = append(cs, c)
			}
		}
	}
	slices.Sort(cs)
	fmt.Fprintf(w, "\n### Leaderboard\n\n%d contracts: %s; rates pooled over their tasks and cases.\n", len(cs), mdText(strings.Join(cs, ", ")))
	var body [][]string
	var errs []string
	for _, r := range rows {
		if r.Err != nil {
			body = append(body, []string{report.ShownName(r.Condition), "—", "—", "—", "—", "—", "—"})
			errs = append(errs, fmt.Sprintf("%s: %s", report.ShownName(r.Condition), r.Err))
			continue
		}
		cells := []string{report.ShownName(r.Condition), fmt.Sprint(r.Tasks), fmt.Sprint(r.Cases)}
		for i := range leaderboard.Rates {
			if r.Low[i] == r.High[i] {
				cells = append(cells, r.Low[i].String())
			} else {
				cells = append(cells, fmt.Sprintf("[%.4f, %.4f]", r.Low[i].Value(), r.High[i].Value()))
			}
		}
		body = append(body, cells)
	}
	mdTable(w, []string{"condition", "|T|", "|C|", "benign_utility", "utility_under_attack", "targeted_asr", "secure_utility_in_scope"},
		map[int]bool{1: true, 2: true}, body)
	mdCapped(w, "leaderboard rows without rates", errs)
}

// mdComparison writes a paired comparison as WriteComparison does.
func mdComparison(w io.Writer, c metrics.Comparison, files report.RunsFiles) {
	title := "Paired comparison"
	if c.Contract != "" {
		title += " (contract " + mdText(report.ShownName(c.Contract)) + ")"
	}
	bundle, budget := c.Bundle, "none"
	if bundle == "" {
		bundle = "none"
	}
	if c.AttemptBudget > 0 {
		budget = fmt.Sprint(c.AttemptBudget)
	}
	fmt.Fprintf(w, "\n### %s\n\nreference %s, defended %s; bundle %s, attempt budget %s.\n", title,
		mdText(report.ShownName(c.Reference)), mdText(report.ShownName(c.Defended)), mdText(bundle), budget)
	var rows [][]string
	for _, t := range c.Transitions {
		rows = append(rows, []string{t.Name, t.Over, fmt.Sprint(t.N), fmt.Sprint(t.KeptSuccess), fmt.Sprint(t.Lost), fmt.Sprint(t.Gained),
			fmt.Sprint(t.KeptFailure), t.ReferenceRate.String(), t.DefendedRate.String(), t.GainRate.String(), t.LossRate.String(),
			t.NetEffect.String(), report.PValue(t.PValue)})
	}
	header := []string{"property", "over", "N", "kept_success", "lost", "gained", "kept_failure",
		"reference_rate", "defended_rate", "gain_rate", "loss_rate", "net_effect", "p_value"}
	mdTable(w, header, map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true, 12: true}, rows)
	for _, part := range []struct {
		title string
		ids   func(metrics.Transition) ([]string, int)
	}{
		{"lost (true in the reference, false in the defended condition)", func(t metrics.Transition) ([]string, int) { return t.LostIDs, t.MoreLostIDs }},
		{"gained (false in the reference, true in the defended condition)", func(t metrics.Transition) ([]string, int) { return t.GainedIDs, t.MoreGainedIDs }},
	} {
		var items []string
		for _, t := range c.Transitions {
			ids, more := part.ids(t)
			if len(ids) == 0 && more == 0 {
				continue
			}
			var shown []string
			for i, id := range ids {
				if i == mdMaxListed {
					break
				}
				shown = append(shown, report.ShownName(id))
			}
			if note := files.MoreNote(len(ids), len(shown), more, "ids"); note != "" {
				shown = append(shown, note)
			}
			items = append(items, t.Name+": "+strings.Join(shown, ", "))
		}
		if len(items) == 0 {
			items = []string{"none"}
		}
		mdCapped(w, part.title, items)
	}
	fmt.Fprint(w, "\ntargeted_asr and side_effect_rate count attack outcomes: lost = stopped by the defended condition, gained = let through; a negative net_effect is an improvement. p_value: exact two-sided McNemar test on lost vs gained (binomial, p = 1 when both are 0).\n")
}

// mdTests writes "N tests: P passed, F failed", a table of the failed
// tests with their problems, and the passed tests folded in <details>.
func mdTests(w io.Writer, ts []report.TestResult) {
	var failed [][]string
	var passed []string
	for _, t := range ts {
		if t.Passed {
			passed = append(passed, mdText(t.Name))
			continue
		}
		failed = append(failed, []string{t.Name, report.OriginText(t.OriginFile, t.OriginLine), strings.Join(t.Problems, "; ")})
	}
	fmt.Fprintf(w, "\n### Tests\n\n%s: %d passed, %d failed.\n", report.Count(len(ts), "test"), len(passed), len(failed))
	if len(failed) > 0 {
		mdTable(w, []string{"failed test", "run", "problems"}, nil, failed)
	}
	if len(passed) > 0 {
		fmt.Fprintf(w, "\n<details><summary>%d passed</summary>\n\n", len(passed))
		for _, p := range passed {
			fmt.Fprintf(w, "- ✅ %s\n", p)
		}
		fmt.Fprint(w, "\n</details>\n")
	}
}

// mdProfiles writes the labels each profile flips (tenet eval --profile),
// one row per contract, condition, profile and label; nothing without
// profiles.
func mdProfiles(w io.Writer, d *report.Document) {
	if len(d.Profiles) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Profiles\n\nRuns of condition+profile paired with the condition's own (task, goal, attempt, repetition): the labels the profile changes.\n\n")
	fmt.Fprintf(w, "| contract | condition | profile | paired | label | true→false | false→true | known→unknown | unknown→known |\n| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: |\n")
	for _, f := range d.Profiles {
		for _, l := range f.Labels {
			fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %d | %d | %d | %d |\n", mdText(f.Contract), mdText(f.Condition), mdText(f.Profile), f.Paired,
				l.Label, l.TrueToFalse, l.FalseToTrue, l.KnownToUnknown, l.UnknownToKnown)
		}
	}
}
