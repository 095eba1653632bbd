package brief

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/termstyle"
)

// item is one line of the "needs attention" list: its word (coloured
// when it is a failure) and the rest of its sentence.
type item struct {
	before, word, after string // the sentence; word ("failed", "violated", …) coloured
	failure             bool   // word in Error style, else Warning
}

// writeAttention writes the "needs attention" list: errors (exit 2),
// failed gates and invariants (exit 1), then what fails nothing but asks
// for a look (disagreements, unknown labels, unauthorized calls,
// warnings). Invariants and gates are aggregated by name across
// conditions, each kind bounded by MaxAttention lines; a last line says
// where the details are. Nothing needing attention says so in one line.
func writeAttention(w io.Writer, d *report.Document, st termstyle.Style) {
	items := attentionItems(d)
	if len(items) == 0 && d.Shard != nil { // its gates were not evaluated
		fmt.Fprintln(w, "\nnothing needs attention in this shard: no invariant violated (--detail: every table)")
		return
	}
	if len(items) == 0 {
		fmt.Fprintln(w, "\nnothing needs attention: no gate failed, no invariant violated (--detail: every table)")
		return
	}
	fmt.Fprintln(w, "\nneeds attention")
	for _, it := range items {
		// The line is clipped before it is coloured: escape sequences
		// take no columns, and a cut must not split one.
		line := clipEnd("  "+it.before+it.word+it.after, Width)
		head := "  " + it.before
		if it.word != "" && strings.HasPrefix(line, head+it.word) {
			styled := st.Warning(it.word)
			if it.failure {
				styled = st.Error(it.word)
			}
			line = head + styled + line[len(head)+len(it.word):]
		}
		fmt.Fprintln(w, line)
	}
	detailsLine(w, d.RunsFiles.Explain())
}

// detailsLine ends the summary: --detail, then where the runs are and the
// tenet explain command that reads them. The command is one to copy, so
// it is never clipped: when both do not fit in Width, it takes a line of
// its own (as long as the runs files' names make it).
func detailsLine(w io.Writer, explain string) {
	const details = "details: --detail (every table)"
	if line := details + "; " + explain; DisplayWidth(line) <= Width {
		fmt.Fprintln(w, line)
		return
	}
	fmt.Fprintln(w, details)
	// "FILES names every run; tenet explain FILES KEY explains one": the
	// two halves on lines of their own when the whole does not fit.
	if before, after, ok := strings.Cut(explain, "; "); ok && DisplayWidth(explain) > Width {
		fmt.Fprintln(w, before)
		fmt.Fprintln(w, after)
		return
	}
	fmt.Fprintln(w, explain)
}

// attentionItems returns the list's lines in order.
func attentionItems(d *report.Document) []item {
	var items []item
	items = append(items, noMessagesItems(d)...)
	items = append(items, metricErrorItems(d)...)
	if n := len(d.Errors); n > 0 {
		items = append(items, item{thousands(n) + " ", plural(n, "error", "errors"), " (exit code 2), printed on standard error: " + firstLine(d.Errors[0]), true})
	}
	items = append(items, gateItems(d)...)
	items = append(items, invariantItems(d)...)
	if n := len(d.NotFailing); n > 0 {
		items = append(items, item{thousands(n) + " ", plural(n, "failure", "failures") + " not failing the run", ": " + firstLine(d.NotFailing[0]), false})
	}
	items = append(items, agreementItems(d)...)
	if u, in, parts := unknownLabels(d); u > 0 {
		items = append(items, item{thousands(u) + " ", plural(u, "label", "labels") + " unknown", " in " +
			count(in, "condition", "conditions") + " (rates low–high): " + parts, false})
	}
	if runs, in := deniedRuns(d); runs > 0 {
		items = append(items, item{count(runs, "run", "runs") + " with calls ", "not authorized", " (authorization audit) in " + count(in, "condition", "conditions"), false})
	}
	for i, line := range d.Warnings {
		if i == MaxAttention {
			items = append(items, item{"… and " + thousands(len(d.Warnings)-i) + " more ", "warnings", "", false})
			break
		}
		items = append(items, item{"", "warning", ": " + firstLine(line), false})
	}
	return items
}

// gateItems aggregates the failed requirements per gate: how many, in
// how many conditions, and, on a line of its own, the first one with its
// condition and reason.
func gateItems(d *report.Document) []item {
	type agg struct {
		reqs  int
		conds map[string]bool
		first report.GateResult
	}
	var order []string
	gates := map[string]*agg{}
	for _, g := range d.Gates {
		if g.Passed || g.NoRuns {
			continue
		}
		a := gates[g.Gate]
		if a == nil {
			a = &agg{conds: map[string]bool{}, first: g}
			gates[g.Gate] = a
			order = append(order, g.Gate)
		}
		a.reqs++
		a.conds[g.Condition] = true
	}
	var items []item
	for i, name := range order {
		if i == MaxAttention {
			items = append(items, item{"… and " + count(len(order)-i, "more gate", "more gates") + " ", "failed", "", true})
			break
		}
		a := gates[name]
		items = append(items, item{"gate " + nameShown(name) + " ", "failed", fmt.Sprintf(": %s in %s",
			count(a.reqs, "requirement", "requirements"), count(len(a.conds), "condition", "conditions")), true},
			item{"  first: ", "", fmt.Sprintf("%s: %s: %s", report.ShownName(a.first.Condition), firstLine(a.first.Requirement), firstLine(a.first.Reason)), false})
	}
	return items
}

// invariantItems aggregates each invariant over the conditions: the runs
// it was violated on (undecided on), in how many of the conditions that
// checked it.
func invariantItems(d *report.Document) []item {
	type agg struct{ hits, unknown, hitConds, unknownConds, conds int }
	var order []string
	invs := map[string]*agg{}
	for _, c := range d.Checks {
		for _, inv := range c.Invariants {
			a := invs[inv.Name]
			if a == nil {
				a = &agg{}
				invs[inv.Name] = a
				order = append(order, inv.Name)
			}
			a.conds++
			a.hits += inv.Hits
			a.unknown += inv.Unknown
			if inv.Hits > 0 {
				a.hitConds++
			}
			if inv.Unknown > 0 {
				a.unknownConds++
			}
		}
	}
	var items []item
	shown, more := 0, 0
	for _, name := range order {
		a := invs[name]
		for _, k := range []struct {
			word        string
			runs, conds int
		}{{"violated", a.hits, a.hitConds}, {"undecided", a.unknown, a.unknownConds}} {
			if k.runs == 0 {
				continue
			}
			if shown == MaxAttention {
				more++
				continue
			}
			shown++
			items = append(items, item{"invariant " + nameShown(name) + " ", k.word, fmt.Sprintf(" on %s in %s of %s",
				count(k.runs, "run", "runs"), thousands(k.conds), count(a.conds, "condition", "conditions")), true})
		}
	}
	if more > 0 {
		items = append(items, item{fmt.Sprintf("… and %s ", count(more, "more invariant", "more invariants")), "violated or undecided", "", true})
	}
	return items
}

// metricErrorItems names each condition whose metrics could not be
// computed, with its first error: the reason the full table gives.
func metricErrorItems(d *report.Document) []item {
	var items []item
	failed := 0
	for _, c := range d.Conditions {
		if c.OK() {
			continue
		}
		failed++
		if failed > MaxAttention {
			continue
		}
		unknown := 0
		for _, err := range c.Errors {
			if errors.As(err, new(metrics.UnknownLabelError)) {
				unknown++
			}
		}
		// A rate over an unknown label has a fix the error itself does
		// not name; any other reason is the first error's text.
		reason := ": " + firstLine(c.Errors[0].Error())
		if unknown > 0 {
			reason = ": rates over " + count(unknown, "unknown label", "unknown labels")
			if other := len(c.Errors) - unknown; other > 0 {
				reason += " and " + count(other, "other error", "other errors")
			}
		} else if len(c.Errors) > 1 {
			reason = " (and " + thousands(len(c.Errors)-1) + " more)" + reason
		}
		items = append(items, item{"metrics of " + nameShown(c.Name()) + " ", "not computed", reason, true})
	}
	if failed > MaxAttention {
		items = append(items, item{"… and metrics of " + count(failed-MaxAttention, "more condition", "more conditions") + " ", "not computed", "", true})
	}
	if n := metrics.UnknownLabelConditions(d.Conditions); n > 0 {
		items = append(items, item{count(n, "condition", "conditions") + " with a rate over an unknown label: ", "--unknown=bounds", " bounds each such rate (least–greatest)", false})
	}
	return items
}

// agreementItems counts the disagreements with given labels, per label.
func agreementItems(d *report.Document) []item {
	total := 0
	var labels []string
	perLabel := map[string]int{}
	for _, a := range d.Agreement {
		for _, r := range a.Rows() {
			if r.Disagree == 0 {
				continue
			}
			if perLabel[r.Label] == 0 {
				labels = append(labels, r.Label)
			}
			perLabel[r.Label] += r.Disagree
			total += r.Disagree
		}
	}
	if total == 0 {
		return nil
	}
	var parts []string
	for _, l := range labels {
		parts = append(parts, fmt.Sprintf("%s %s", l, thousands(perLabel[l])))
	}
	return []item{{thousands(total) + " ", plural(total, "disagreement", "disagreements"), " with given labels (" + strings.Join(parts, ", ") + ")", false}}
}

// unknownLabels counts the unknown labels of the conditions whose rates
// are bounded, those conditions, and the count per label ("utility 207,
// attack_success 218, …"): a run with no messages has each of its labels
// unknown, so the total is not runs, and the per-label counts are those
// --detail lists run by run.
func unknownLabels(d *report.Document) (labels, conds int, parts string) {
	perLabel := map[string]int{}
	for _, c := range d.Conditions {
		if c.Unknowns == 0 {
			continue
		}
		labels += c.Unknowns
		conds++
		for _, l := range c.UnknownsByLabel {
			perLabel[l.Label] += l.N
		}
	}
	var ps []string
	for _, l := range metrics.LabelOrder() {
		if n := perLabel[l]; n > 0 {
			ps = append(ps, l+" "+thousands(n))
		}
	}
	return labels, conds, strings.Join(ps, ", ")
}

// deniedRuns counts the runs with a call not authorized, and the
// conditions they are in.
func deniedRuns(d *report.Document) (n, conds int) {
	for _, a := range d.Audit {
		if k := len(a.Denied) + a.MoreDenied; k > 0 {
			n += k
			conds++
		}
	}
	return n, conds
}

// firstLine is a message's first line, for a one-line entry.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return report.OneLine(s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxName bounds a name at the start of a list entry, so that the words
// after it (violated, failed, the counts) always fit the line.
const maxName = 60

// nameShown is a name as reports show it, clipped in its middle to
// maxName columns.
func nameShown(s string) string { return clipMiddle(report.ShownName(s), maxName, maxName/3) }

// noMessagesItems explains an evaluation that judged nothing because no
// record had messages: every line a header, as in a runs file or a
// transcript format other than the one read, given as transcripts. The
// error it causes ("metrics: no runs") does not say why.
func noMessagesItems(d *report.Document) []item {
	if d.Command != report.CommandEval {
		return nil
	}
	judged, headers := 0, 0
	for _, c := range d.Contracts {
		judged += c.Judged
		headers += c.Headers
		if d.Shard != nil && len(c.Skipped) > 0 {
			return nil // records other than headers, in other shards
		}
	}
	if judged > 0 || headers == 0 {
		return nil
	}
	return []item{{"every record ", "lacked messages", " (" + count(headers, "header line", "header lines") +
		"): a runs file? tenet report; another format? --transcript-format", true}}
}
