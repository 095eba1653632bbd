package report

import (
	"fmt"
	"strings"
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

// CutCell cuts s to MaxCellWidth characters, marking the cut (runs.Cut).
// A cell of up to cellSlack more characters is left whole: a name that
// runs.Printable already cut to runs.MaxNameWidth, with its quotes and
// its cut mark, is not cut again.
func CutCell(s string) string {
	if len(s) <= MaxCellWidth+cellSlack || utf8.RuneCountInString(s) <= MaxCellWidth+cellSlack {
		return s
	}
	return runs.Cut(s, MaxCellWidth)
}

// cellSlack is room for quotes and a cut mark ("…(+6291256 bytes)…").
const cellSlack = 32

// ShownName is a name (condition, contract, task id) as the formats but
// JSON show it: quoted when it could be misread (runs.Printable), then cut
// (CutCell).
func ShownName(s string) string { return CutCell(runs.Printable(s)) }

// OriginText is "file:line", "file" or "".
func OriginText(file string, line int) string {
	if line > 0 && file != "" {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// OriginSuffix is " (file:line)", " (file)" or "".
func OriginSuffix(file string, line int) string {
	if file == "" {
		return ""
	}
	return " (" + OriginText(file, line) + ")"
}

// ViolationLine names a violating run with its origin and its witness:
// "checks:b/T1 (runs.jsonl:3): read=call:0 (read_file), send=call:1".
func ViolationLine(k runs.Key, v Violation) string {
	s := k.String() + OriginSuffix(v.OriginFile, v.OriginLine)
	var steps []string
	for _, st := range v.Witness {
		step := st.Step + "=" + st.Item
		if st.Tool != "" {
			step += " (" + st.Tool + ")"
		}
		steps = append(steps, step)
	}
	if len(steps) > 0 {
		s += ": " + strings.Join(steps, ", ")
	}
	return s
}
