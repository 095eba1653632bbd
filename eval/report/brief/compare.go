package brief

import (
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
)

// writeCompare writes tenet compare's summary: what was compared, then
// one row per property — its reference and defended rates, the runs lost
// and gained, the net effect and the McNemar p-value. The ids and the
// transition counts are in the full table (--detail).
func writeCompare(w io.Writer, d *report.Document) {
	fmt.Fprintln(w, clipEnd(report.InputsLine(d), Width))
	c := d.Comparison
	if c == nil {
		return
	}
	title := "paired comparison"
	if c.Contract != "" {
		title += " (contract " + report.ShownName(c.Contract) + ")"
	}
	fmt.Fprintln(w, clipEnd(fmt.Sprintf("%s: reference %s, defended %s", title, report.ShownName(c.Reference), report.ShownName(c.Defended)), Width))
	head := []string{"property", "over", "N", "reference", "defended", "lost", "gained", "net effect", "p-value"}
	table := [][]string{head}
	for _, t := range c.Transitions {
		table = append(table, []string{t.Name, t.Over, thousands(t.N), value(t.ReferenceRate), value(t.DefendedRate),
			thousands(t.Lost), thousands(t.Gained), value(t.NetEffect), report.PValue(t.PValue)})
	}
	widths := make([]int, len(head))
	for _, r := range table {
		for i, cell := range r {
			widths[i] = max(widths[i], DisplayWidth(cell))
		}
	}
	fmt.Fprintln(w)
	for _, r := range table {
		cells := []string{padRight(r[0], widths[0]), padRight(r[1], widths[1])}
		for i := 2; i < len(r)-1; i++ {
			cells = append(cells, padLeft(r[i], widths[i]))
		}
		fmt.Fprintln(w, strings.Join(append(cells, r[len(r)-1]), gap))
	}
	fmt.Fprintln(w, "lost: true in the reference, false in the defended condition; gained: the reverse; for targeted_asr and")
	fmt.Fprintln(w, "side_effect_rate a negative net effect is an improvement. p-value: exact two-sided McNemar test on lost vs gained.")
	fmt.Fprintln(w, "details: --detail (every transition count, the ids lost and gained)")
}

// value is a rate's value with four decimals, "—" without a denominator.
func value(r metrics.Rate) string {
	if r.Den == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", r.Value())
}
