package report

import (
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/runs"
)

// MaxCellWidth bounds what a report shows of one cell or name, in
// characters (code points): a longer one keeps its first and last
// MaxCellWidth/2 characters, and "…(+N bytes)…" between them says how much
// was cut (names are cut so by runs.Printable; a cell is at most MaxCellWidth+cellSlack characters). Tables pad every
// row to the widest cell of its column, so one condition name of 6 MiB
// made the table report print gigabytes; cells are cut before layout, in
// the table, Markdown, HTML and JUnit formats (the JSON report keeps names
// whole: its size grows with the name, not with the rows times the name).
const MaxCellWidth = 200

// MaxSkippedIDs bounds the task (or task/goal) ids a contract's report
// lists per skip reason (Skipped.IDs, in id order); the others are counted
// in Skipped.MoreIDs, so 200,000 distinct unknown ids do not make a report
// of 200,000 entries in any format. Each id is cut to MaxCellWidth.
const MaxSkippedIDs = 100

// cutCell cuts s to MaxCellWidth characters, marking the cut (runs.Cut).
// A cell of up to cellSlack more characters is left whole: a name that
// runs.Printable already cut to runs.MaxNameWidth, with its quotes and
// its cut mark, is not cut again.
func cutCell(s string) string {
	if len(s) <= MaxCellWidth+cellSlack || utf8.RuneCountInString(s) <= MaxCellWidth+cellSlack {
		return s
	}
	return runs.Cut(s, MaxCellWidth)
}

// cellSlack is room for quotes and a cut mark ("…(+6291256 bytes)…").
const cellSlack = 32

// shownName is a name (condition, contract, task id) as the formats but
// JSON show it: quoted when it could be misread (runs.Printable), then cut
// (cutCell).
func shownName(s string) string { return cutCell(runs.Printable(s)) }
