package pipeline

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runsort"
)

// store holds a Result's judged runs with Options.SortBytes > 0, in
// bounded memory. While their estimated size fits its budget they stay
// values (held): SortResults then hands them to its caller as they were
// judged, and nothing encodes a run to JSON only to decode it again for
// the report in the same process. The first run that takes them over the
// budget moves them all into a runsort.Sorter, which keeps them in its own
// compact binary encoding (not JSON) and spills to temporary files what
// exceeds the budget again; SortResults then yields the Sorter's decoded
// records, and only runs.Writer encodes JSON, when there is a runs file.
//
// Either way a run the runs file cannot hold exactly is refused when it is
// added (runs.Encodable, what Sorter.Add checks), so which of the two holds
// the runs changes no outcome.
type store struct {
	dir    string
	budget int
	held   []heldRun
	bytes  int             // estimated bytes of held
	sorter *runsort.Sorter // nil until held outgrew the budget
	added  int             // runs added, held or in the Sorter
}

// heldRun is a judged run held as a value, with its input position.
type heldRun struct {
	rec runs.Record
	seq runs.Seq
}

func newStore(dir string, budget int) *store {
	return &store{dir: dir, budget: max(budget, 1)}
}

// add adds rec at input position seq. bad is why the runs file cannot
// hold rec (a bad record; nothing is added), fatal an I/O error of the
// Sorter's temporary files (the evaluation ends).
func (s *store) add(rec runs.Record, seq runs.Seq) (bad, fatal error) {
	if s.sorter != nil {
		if err := s.sorter.Add(rec, seq); err != nil {
			if s.sorter.Err() != nil {
				return nil, err
			}
			return err, nil
		}
		s.added++
		return nil, nil
	}
	if err := runs.Encodable(rec); err != nil {
		return err, nil
	}
	s.added++
	s.held = append(s.held, heldRun{rec: rec, seq: seq})
	s.bytes += heldBytes(&rec)
	if s.bytes <= s.budget {
		return nil, nil
	}
	// Over the budget: from now on the runs are encoded, each about a
	// third of its value's size or less, and spilled when they outgrow it again.
	s.sorter = runsort.NewSorter(s.dir, s.budget)
	for i := range s.held {
		if err := s.sorter.Add(s.held[i].rec, s.held[i].seq); err != nil {
			if s.sorter.Err() != nil {
				return nil, err
			}
			// Encodable accepted it: a refusal here is a bug, not input.
			return nil, fmt.Errorf("pipeline: the runs file refuses run %s that it accepted: %w", s.held[i].rec.Key, err)
		}
		s.held[i] = heldRun{} // free it as soon as the Sorter has it
	}
	s.held, s.bytes = nil, 0
	return nil, nil
}

// len returns the number of runs added.
func (s *store) len() int { return s.added }

func (s *store) close() error {
	s.held = nil
	if s.sorter == nil {
		return nil
	}
	return s.sorter.Close()
}

// heldBytes estimates the memory a held run takes: the value, its strings
// and its maps, each a header and groups of 8 slots (Go's map layout), so a
// map of 3 invariants costs a whole group. Strings shared between runs
// (the bundle id, contract and condition names) are counted in every run,
// so the estimate errs high: on the AgentDojo collection it gives 2.0 KB
// a run, where the judged runs retain 1.8 KB each (docs/performance.md).
func heldBytes(r *runs.Record) int {
	n := int(unsafe.Sizeof(heldRun{}))
	n += len(r.Bundle) + len(r.Key.Contract) + len(r.Key.Condition) + len(r.Key.Attack) + len(r.Key.Task) + len(r.Key.Goal) + len(r.OriginFile) + len(r.Grant)
	n += len(r.Utility.Reason) + len(r.AttackSuccess.Reason) + len(r.SideEffect.Reason) + len(r.Exposed.Reason)
	labelSlot := int(unsafe.Sizeof("") + unsafe.Sizeof(runs.Label{}))
	for _, m := range []map[string]runs.Label{r.Invariants, r.Failures} {
		n += mapBytes(len(m), labelSlot, m != nil)
		for name, l := range m {
			n += len(name) + len(l.Reason)
		}
	}
	stepsSlot := int(unsafe.Sizeof("") + unsafe.Sizeof(map[string]string(nil)))
	n += mapBytes(len(r.Witnesses), stepsSlot, r.Witnesses != nil)
	for w, steps := range r.Witnesses {
		n += len(w) + mapBytes(len(steps), 2*int(unsafe.Sizeof("")), steps != nil)
		for step, item := range steps {
			n += len(step) + len(item)
		}
	}
	n += cap(r.Audit) * int(unsafe.Sizeof(runs.AuditEntry{}))
	for _, e := range r.Audit {
		n += len(e.Tool) + len(e.Decision) + len(e.Detail) + len(e.Mismatch)
	}
	return n
}

// mapBytes estimates a map of n entries of slot bytes each (key and
// value): a header and groups of 8 slots with a control word each.
func mapBytes(n, slot int, allocated bool) int {
	if !allocated {
		return 0
	}
	const header, group = 48, 8
	return header + (n+group-1)/group*(8+group*slot)
}

// heldSorted iterates over held runs in key order, as runsort.Sorted does
// over a Sorter's: of runs with the same key it yields the first in input
// order and lists the others as duplicates.
type heldSorted struct {
	runs  []heldRun
	pos   int
	first heldRun // the run yielded last
	valid bool
	dups  []runs.Duplicate
}

func sortHeld(held []heldRun) *heldSorted {
	slices.SortFunc(held, func(a, b heldRun) int {
		if c := a.rec.Key.Compare(b.rec.Key); c != 0 {
			return c
		}
		return a.seq.Compare(b.seq)
	})
	return &heldSorted{runs: held}
}

// next returns the next run in key order; false at the end.
func (h *heldSorted) next() (runs.Record, bool) {
	for h.pos < len(h.runs) {
		r := h.runs[h.pos]
		h.runs[h.pos] = heldRun{} // yielded once: free it after
		h.pos++
		if h.valid && r.rec.Key == h.first.rec.Key {
			h.dups = append(h.dups, runs.Duplicate{Key: r.rec.Key, Seq: r.seq, OriginFile: r.rec.OriginFile, OriginLine: r.rec.OriginLine,
				First: h.first.seq, FirstFile: h.first.rec.OriginFile, FirstLine: h.first.rec.OriginLine})
			continue
		}
		h.first, h.valid = heldRun{rec: r.rec, seq: r.seq}, true
		return r.rec, true
	}
	return runs.Record{}, false
}

// duplicates returns the duplicates found, in input order.
func (h *heldSorted) duplicates() []runs.Duplicate {
	slices.SortStableFunc(h.dups, func(a, b runs.Duplicate) int { return a.Seq.Compare(b.Seq) })
	return h.dups
}
