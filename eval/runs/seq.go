package runs

import (
	"cmp"
	"fmt"
)

// Seq is a record's position in the input: the order among records with
// the same key, so that the first one read wins and the others are
// duplicates. File is the index of the input file (from 0, in the order the
// files were named) and Line the record's line in it (from 1). Records with
// the same key must have different Seqs.
type Seq struct {
	File int
	Line int
}

// Compare orders Seqs by file, then line. It returns -1, 0 or +1.
func (s Seq) Compare(o Seq) int {
	return cmp.Or(cmp.Compare(s.File, o.File), cmp.Compare(s.Line, o.Line))
}

// Duplicate is a record whose key a record earlier in the input (smaller
// Seq) already has: Sorted yields the first and reports every later one.
type Duplicate struct {
	Key Key
	// Seq, OriginFile and OriginLine are the duplicate's; First, FirstFile
	// and FirstLine those of the record Sorted yields for the key.
	Seq        Seq
	OriginFile string
	OriginLine int
	First      Seq
	FirstFile  string
	FirstLine  int
}

// Error reads "FILE:LINE: duplicate run KEY: the same key as FILE:LINE"
// (the origins of the duplicate and of the first record), as tenet eval
// reports it; "duplicate run KEY" when the duplicate has no origin.
func (d Duplicate) Error() string {
	if d.OriginFile == "" {
		return fmt.Sprintf("duplicate run %s", d.Key)
	}
	return fmt.Sprintf("%s:%d: duplicate run %s: the same key as %s:%d", d.OriginFile, d.OriginLine, d.Key, d.FirstFile, d.FirstLine)
}
