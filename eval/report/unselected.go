package report

import (
	"fmt"
	"io"
	"strings"
)

// Unselected is what tenet eval says of the records no contract selected
// (pipeline.AllUnselected): each contract counts such a record as "not
// selected by the source", and only this says that none judged it. It does
// not change the exit code (docs/cli.md, "Records no contract selects").
type Unselected struct {
	Records int            // records no contract's source selected
	First   []UnselectedAt // the first of them (at most 10) by file name, then line
}

// UnselectedAt is a record's origin.
type UnselectedAt struct {
	File string
	Line int
}

// UnselectedLine is the sentence every format but JSON prints for a
// collection (two or more contracts) with records no contract selected:
// "1 record selected by no contract (each counts it as not selected by
// the source): t.jsonl:3". It is "" when there is nothing to say: no
// such record, or one contract, whose own "not selected by the source"
// count says it already.
func UnselectedLine(d *Document) string {
	u := d.Unselected
	if u == nil || u.Records == 0 || len(d.Contracts) < 2 {
		return ""
	}
	var at []string
	for _, o := range u.First {
		at = append(at, ShownName(OriginText(o.File, o.Line)))
	}
	if more := u.Records - len(u.First); more > 0 {
		at = append(at, fmt.Sprintf("… and %d more", more))
	}
	verb := "counts it"
	if u.Records > 1 {
		verb = "counts them"
	}
	return fmt.Sprintf("%s selected by no contract (each %s as not selected by the source): %s",
		Count(u.Records, "record"), verb, strings.Join(at, ", "))
}

// writeUnselected writes UnselectedLine after the contracts' records, when
// there is one.
func writeUnselected(w io.Writer, d *Document) {
	if line := UnselectedLine(d); line != "" {
		fmt.Fprintln(w, line)
	}
}
