package explain

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// WriteRecord renders what a runs file records of one run, without a
// contract: its labels (unknown ones with their reasons), the given labels
// next to them, its invariants with their witnesses, its failure classes,
// its authorization audit (the calls not authorized first) and its origin.
// It is all a runs file holds: how each label came about needs the
// contract and the transcript (Rejudge, Write).
func WriteRecord(w io.Writer, l Located) {
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	r := l.Record
	pf("run %s  (%s)\n", r.Key, l.At)
	var about []string
	if r.OriginFile != "" {
		about = append(about, "origin "+originText(r))
	}
	if r.Bundle != "" {
		about = append(about, "bundle "+r.Bundle)
	} else {
		about = append(about, "no bundle id (labels from another harness, or the field removed)")
	}
	if r.AttemptBudget > 0 {
		about = append(about, fmt.Sprintf("attempt budget %d", r.AttemptBudget))
	}
	if r.GoalTask {
		about = append(about, "a goal-task run")
	}
	pf("%s\n", strings.Join(about, " · "))
	writeSummary(w, &r)
	writeGiven(w, &r)
	writeChecks(w, "invariants", r.Invariants, r.Witnesses, "held", "violated")
	writeChecks(w, "failure classes", r.Failures, nil, "in it", "not in it")
	writeAudit(w, &r)
}

// writeSummary is the line of labels Write prints too: utility, the
// attacked run's labels, exposed, the violated invariants.
func writeSummary(w io.Writer, r *runs.Record) {
	fmt.Fprintf(w, "utility %s", labelText(r.Utility))
	if r.Key.Attacked() {
		fmt.Fprintf(w, " · attack_success %s · side_effect %s", labelText(r.AttackSuccess), labelText(r.SideEffect))
	}
	if r.HasExposed {
		fmt.Fprintf(w, " · exposed %s", labelText(r.Exposed))
	}
	if v := r.Violated(); len(v) > 0 {
		fmt.Fprintf(w, " · violated %s", strings.Join(v, ", "))
	}
	fmt.Fprintf(w, "\n")
}

// writeChecks lists invariants or failure classes by name: yes (true) or
// no, or unknown with its reason, and under a violated invariant the item
// its pattern bound to each step, as the runs file records it ("call:1").
func writeChecks(w io.Writer, title string, m map[string]runs.Label, witnesses map[string]map[string]string, yes, no string) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", title)
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		l := m[n]
		text := no
		switch {
		case !l.Known:
			text = "unknown: " + l.Reason
		case l.Value:
			text = yes
		}
		fmt.Fprintf(w, "  %s = %s\n", runs.Printable(n), text)
		wit := witnesses["invariants."+n]
		steps := make([]string, 0, len(wit))
		for s := range wit {
			steps = append(steps, s)
		}
		slices.Sort(steps)
		for _, s := range steps {
			fmt.Fprintf(w, "      %-10s %s\n", runs.Printable(s), wit[s])
		}
	}
}

// writeAudit lists the run's authorization decisions, the calls not
// authorized first (in call order), then the authorized ones.
func writeAudit(w io.Writer, r *runs.Record) {
	if r.Grant == "" {
		return
	}
	denied := 0
	for _, a := range r.Audit {
		if a.Decision != runs.Authorized {
			denied++
		}
	}
	fmt.Fprintf(w, "\nauthorization audit (grant %s): %s, %d not authorized\n", runs.Printable(r.Grant), fmt.Sprintf("%d %s", len(r.Audit), runs.Plural(len(r.Audit), "call", "calls")), denied)
	entries := slices.Clone(r.Audit)
	slices.SortStableFunc(entries, func(a, b runs.AuditEntry) int {
		ad, bd := a.Decision != runs.Authorized, b.Decision != runs.Authorized
		switch {
		case ad && !bd:
			return -1
		case bd && !ad:
			return 1
		}
		return a.Call - b.Call
	})
	for _, a := range entries {
		line := fmt.Sprintf("  call:%d  %s  %s", a.Call, runs.Printable(a.Tool), a.Decision)
		if a.Detail != "" {
			line += ": " + a.Detail
		}
		var notes []string
		if a.Parent >= 0 {
			notes = append(notes, fmt.Sprintf("nested in call:%d", a.Parent))
		}
		if a.Hazard {
			notes = append(notes, "may run before its outer call is validated")
		}
		if a.Mismatch != "" {
			notes = append(notes, a.Mismatch)
		}
		if len(notes) > 0 {
			line += "  (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintln(w, line)
	}
}

func originText(r runs.Record) string {
	if r.OriginLine > 0 {
		return fmt.Sprintf("%s:%d", r.OriginFile, r.OriginLine)
	}
	return r.OriginFile
}

// RecordOnlyNote is the line under WriteRecord's output without a
// contract: how to see how the labels came about, or, when the record names
// no transcript, that nothing can show it.
func RecordOnlyNote(l Located) string {
	r := l.Record
	if r.OriginFile == "" || r.OriginLine < 1 {
		return "the record names no transcript record (no origin file:line): how its labels came about cannot be shown"
	}
	return fmt.Sprintf("a runs file records labels, not how they came about: tenet explain --contract CONTRACT %s %s judges the run again from its transcript (%s) and shows every criterion and pattern match", l.At.File, quoteArg(r.Key.String()), originText(r))
}

// quoteArg quotes a shell argument that holds more than letters, digits
// and . _ - / : @ +.
func quoteArg(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/:@+", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
