package pipeline

import (
	"cmp"
	"slices"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
)

// MaxUnselectedListed bounds the records Unselected names (First); the
// others are counted.
const MaxUnselectedListed = 10

// Unselected is what became of the records no contract judged at all: in
// a collection each contract counts a record its source does not select
// as "not selected by the source", and only together do those counts say
// that no contract selected the record (docs/cli.md, "Records no contract
// selects").
type Unselected struct {
	// Records counts the records (header lines and bad records excluded)
	// that the source of every contract left unselected.
	Records int
	// First names MaxUnselectedListed of them, the first by file name then
	// line (not input order: the report must not depend on the order the
	// files were given in).
	First []run.Origin
}

// unselected is one pass's records that every target of the pass left
// unselected (eval.NotSelected), shared by the pass's results.
type unselected struct {
	n     int
	first []run.Origin // the first MaxUnselectedListed by originOrder
	// all holds every one, in input order, when the files are read in
	// several passes (keepAll: contracts of different transcript formats),
	// for AllUnselected to keep only the records every pass left
	// unselected. One pass (the usual case) keeps only the count and first.
	keepAll bool
	all     []unselectedAt
}

// unselectedAt is a record's place: the index of its file in the files
// read, and its origin.
type unselectedAt struct {
	file   int
	origin run.Origin
}

// noteUnselected counts the record of j when every target of the pass
// judged it and the source of each left it unselected. It runs on the
// collector, in input order.
func (ps *pass) noteUnselected(o outcome, j *job) {
	if o.err != nil || o.header || len(o.verdict) == 0 {
		return
	}
	for _, v := range o.verdict {
		if v.err != nil || v.j.Skip != eval.NotSelected {
			return
		}
	}
	u := ps.unselected
	u.n++
	u.first = keepFirst(u.first, j.origin)
	if u.keepAll {
		u.all = append(u.all, unselectedAt{j.file, j.origin})
	}
}

// AllUnselected returns the records of results from one EvalTargets or
// EvalCollection call that no target selected. With one pass over the
// files that is the pass's count. With several (targets of different
// transcript formats, each format reading the files once) a record is
// counted when every pass read a record at its FILE:LINE and the targets
// of every pass left it unselected: a record one format's contracts skip
// may be another's run.
func AllUnselected(results []*Result) Unselected {
	var us []*unselected
	for _, r := range results {
		if r.unselected != nil && !slices.Contains(us, r.unselected) {
			us = append(us, r.unselected)
		}
	}
	var out Unselected
	switch len(us) {
	case 0:
		return out
	case 1:
		out.Records, out.First = us[0].n, us[0].first
		return out
	}
	common := us[0].all
	for _, u := range us[1:] {
		common = intersect(common, u.all)
	}
	out.Records = len(common)
	for _, at := range common {
		out.First = keepFirst(out.First, at.origin)
	}
	return out
}

// intersect returns the places in both a and b, in input order.
func intersect(a, b []unselectedAt) []unselectedAt {
	order := func(x, y unselectedAt) int {
		return cmp.Or(cmp.Compare(x.file, y.file), cmp.Compare(x.origin.Line, y.origin.Line))
	}
	// A pass's records come in input order; sorting again costs little
	// and does not rely on every framer's lines rising.
	slices.SortFunc(a, order)
	slices.SortFunc(b, order)
	var out []unselectedAt
	for i, k := 0, 0; i < len(a) && k < len(b); {
		switch c := order(a[i], b[k]); {
		case c < 0:
			i++
		case c > 0:
			k++
		default:
			out = append(out, a[i])
			i, k = i+1, k+1
		}
	}
	return out
}

// originOrder orders origins by file name, then line.
func originOrder(a, b run.Origin) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
}

// keepFirst adds o to first, sorted by originOrder, and keeps the first
// MaxUnselectedListed.
func keepFirst(first []run.Origin, o run.Origin) []run.Origin {
	i, _ := slices.BinarySearchFunc(first, o, originOrder)
	if i == MaxUnselectedListed {
		return first
	}
	first = slices.Insert(first, i, o)
	return first[:min(len(first), MaxUnselectedListed)]
}
