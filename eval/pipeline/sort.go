package pipeline

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runsort"
	"github.com/tenetlang/tenet/internal/kmerge"
)

// addError records a bad record at input position seq.
func (r *Result) addError(err error, seq runs.Seq) {
	if r.maxErrors > 0 && len(r.Errors) >= r.maxErrors {
		r.MoreErrors++
		return
	}
	r.Errors = append(r.Errors, err)
	if r.store != nil {
		r.errSeqs = append(r.errSeqs, seq)
	}
}

// BadRecords returns the number of bad records: len(Errors) + MoreErrors.
func (r *Result) BadRecords() int { return len(r.Errors) + r.MoreErrors }

// unread counts the records of one pass that no target could read (not
// JSON, too long, a header line a source maps to a run): each is a bad
// record of every result of the pass, as evaluating the contracts one
// after the other would report it, but one bad record of the evaluation.
type unread struct{ n int }

// unreadError marks a bad record of the pass (unread) in the Errors of
// each of its results, so that AllErrors lists it once.
type unreadError struct{ error }

func (e *unreadError) Unwrap() error { return e.error }

// AllBadRecords returns the number of bad records of results from one
// EvalTargets or EvalCollection call: a record no contract could read is
// one bad record, though each result of its pass counts it.
func AllBadRecords(results []*Result) int {
	n := 0
	counted := map[*unread]bool{}
	for _, r := range results {
		n += r.BadRecords()
		if r.unread != nil {
			if counted[r.unread] {
				n -= r.unread.n
			}
			counted[r.unread] = true
		}
	}
	return n
}

// AllErrors returns the errors of results from one EvalTargets or
// EvalCollection call, result by result in input order, each unreadable
// record once (with the first result of its pass), and how many more bad
// records there are than errors listed (AllBadRecords in all).
func AllErrors(results []*Result) (errs []error, more int) {
	listed := map[*unread]bool{}
	for _, r := range results {
		first := r.unread == nil || !listed[r.unread]
		for _, err := range r.Errors {
			if _, shared := err.(*unreadError); shared && !first {
				continue
			}
			errs = append(errs, err)
		}
		if r.unread != nil {
			listed[r.unread] = true
		}
	}
	return errs, AllBadRecords(results) - len(errs)
}

// Judged returns the number of runs judged and kept: len(Records), or with
// Options.SortBytes > 0 the runs the Result holds less the duplicates
// SortResults has found.
func (r *Result) Judged() int {
	if r.store == nil {
		return len(r.Records)
	}
	return r.store.len() - r.dups
}

// Close removes the temporary files of the Result's runs (with
// Options.SortBytes > 0) and frees them; it does nothing otherwise, and
// can be called several times.
func (r *Result) Close() error {
	if r.store == nil {
		return nil
	}
	return r.store.close()
}

// SortResults yields the judged runs of every result in key order to fn
// (when fn is not nil). A run is the value judged unless its result moved
// its runs to a runsort.Sorter (Options.SortBytes > 0 and more runs than
// its memory budget holds as values): then it is the Sorter's record,
// equal to the one judged. The line is always nil (runs.Writer encodes the
// run); the parameter is kept for callers that have a line. Runs of different results with the same key are both
// yielded, in the order of results, as sorting their Records together
// would give them. With Options.SortBytes > 0 it finds the duplicate keys
// within each result (of records with one key, the first in input order is
// kept) and adds them to the result's Errors, in input order among the
// other errors, as EvalFiles reports them with SortBytes 0.
//
// It is called once. An error from fn ends it and is returned; so is an
// I/O error of a Sorter's temporary files. The results are still to be
// closed (Close) after it.
func SortResults(results []*Result, fn func(rec runs.Record, line []byte) error) error {
	var started []*source
	srcs := make([]*source, len(results))
	for i, r := range results {
		src := &source{recs: r.Records}
		srcs[i] = src
		switch st := r.store; {
		case st != nil && st.sorter != nil:
			it, err := st.sorter.Sort()
			if err != nil {
				return err
			}
			it.LimitDuplicates(r.maxErrors)
			src.it = it
		case st != nil:
			src.held = sortHeld(st.held)
			st.held = nil // the iterator frees each run once yielded
		}
		ok, err := src.next()
		if err != nil {
			return err
		}
		if ok {
			started = append(started, src)
		}
	}
	// Of runs with the same key, the result given first comes first.
	h := kmerge.New(started, func(a, b *source) int { return a.rec.Key.Compare(b.rec.Key) })
	for h.Len() > 0 {
		src := h.Top()
		if fn != nil {
			if err := fn(src.rec, src.line); err != nil {
				return err
			}
		}
		ok, err := src.next()
		if err != nil {
			return err
		}
		if ok {
			h.Fix()
		} else {
			h.Drop()
		}
	}
	for i, r := range results {
		if it := srcs[i].it; it != nil {
			r.addDuplicates(it.Duplicates(), it.DuplicateCount())
		} else if h := srcs[i].held; h != nil {
			dups := h.duplicates()
			r.addDuplicates(dups, len(dups))
		}
	}
	return nil
}

// source is one result's runs in key order: from its Sorter (it), its
// store's values (held) or its Records.
type source struct {
	it   *runsort.Sorted
	held *heldSorted
	recs []runs.Record
	pos  int
	rec  runs.Record
	line []byte
}

func (s *source) next() (bool, error) {
	if s.held != nil {
		var ok bool
		s.rec, ok = s.held.next()
		return ok, nil
	}
	if s.it == nil {
		if s.pos == len(s.recs) {
			return false, nil
		}
		s.rec, s.line = s.recs[s.pos], nil
		s.pos++
		return true, nil
	}
	if !s.it.Next() {
		return false, s.it.Err()
	}
	// No line: the Sorter keeps no JSON, and runs.Writer encodes the
	// run only when there is a runs file to write.
	s.rec, s.line = s.it.Record(), nil
	return true, nil
}

// addDuplicates merges the duplicates found in a result's runs (the first
// in input order; n in all) into its Errors by input position, keeping
// the first maxErrors.
func (r *Result) addDuplicates(dups []runs.Duplicate, n int) {
	r.dups += n
	if n == 0 {
		return
	}
	errs := make([]error, 0, len(r.Errors)+len(dups))
	seqs := make([]runs.Seq, 0, len(r.Errors)+len(dups))
	i := 0
	for _, d := range dups { // in input order
		for ; i < len(r.Errors) && r.errSeqs[i].Compare(d.Seq) < 0; i++ {
			errs, seqs = append(errs, r.Errors[i]), append(seqs, r.errSeqs[i])
		}
		errs = append(errs, fmt.Errorf("%s:%d: duplicate run %s: the same key as %s:%d",
			d.OriginFile, d.OriginLine, d.Key.String(), d.FirstFile, d.FirstLine))
		seqs = append(seqs, d.Seq)
	}
	errs, seqs = append(errs, r.Errors[i:]...), append(seqs, r.errSeqs[i:]...)
	r.MoreErrors += n - len(dups)
	if r.maxErrors > 0 && len(errs) > r.maxErrors {
		r.MoreErrors += len(errs) - r.maxErrors
		errs, seqs = errs[:r.maxErrors], seqs[:r.maxErrors]
	}
	r.Errors, r.errSeqs = errs, seqs
}
