// Package kmerge is the one k-way merge of tenet: it interleaves sorted
// sources into one sorted stream with a heap. runsort.Sorter merges its
// spilled chunks with it, and eval/pipeline the runs of several contracts
// (each from its own Sorter or its records in memory), so that the heap is
// written once. It imports no tenet package.
package kmerge

import "container/heap"

// Merge orders sources by their current items.
//
// A source is whatever the caller reads a sorted stream from, positioned
// on its current item; Merge only orders them. cmp compares the current
// items of two sources; of sources whose items compare equal, the one
// given first to New comes first, so a merge is stable. The caller
// reads Top's current item, advances that source, then calls Fix (it has
// another item) or Drop (it has ended):
//
//	m := New(sources, cmp) // each source on its first item
//	for m.Len() > 0 {
//		src := m.Top()
//		... use src's item, advance src ...
//		if more { m.Fix() } else { m.Drop() }
//	}
type Merge[S any] struct {
	h mergeHeap[S]
}

// New returns a merge of sources, each positioned on its first item
// (leave out sources that have none).
func New[S any](sources []S, cmp func(a, b S) int) *Merge[S] {
	m := &Merge[S]{h: mergeHeap[S]{cmp: cmp, srcs: make([]ranked[S], len(sources))}}
	for i, s := range sources {
		m.h.srcs[i] = ranked[S]{src: s, rank: i}
	}
	heap.Init(&m.h)
	return m
}

// Len returns the number of sources not yet ended.
func (m *Merge[S]) Len() int { return len(m.h.srcs) }

// Top returns the source whose current item comes first. Len must be > 0.
func (m *Merge[S]) Top() S { return m.h.srcs[0].src }

// Fix restores the order after Top's source moved to its next item.
func (m *Merge[S]) Fix() { heap.Fix(&m.h, 0) }

// Drop removes Top's source, which has ended.
func (m *Merge[S]) Drop() { heap.Pop(&m.h) }

// ranked is a source with its position among New's sources, which
// breaks ties.
type ranked[S any] struct {
	src  S
	rank int
}

// mergeHeap is Merge's heap.Interface.
type mergeHeap[S any] struct {
	srcs []ranked[S]
	cmp  func(a, b S) int
}

func (h *mergeHeap[S]) Len() int { return len(h.srcs) }
func (h *mergeHeap[S]) Less(i, j int) bool {
	if c := h.cmp(h.srcs[i].src, h.srcs[j].src); c != 0 {
		return c < 0
	}
	return h.srcs[i].rank < h.srcs[j].rank
}
func (h *mergeHeap[S]) Swap(i, j int) { h.srcs[i], h.srcs[j] = h.srcs[j], h.srcs[i] }
func (h *mergeHeap[S]) Push(x any)    { h.srcs = append(h.srcs, x.(ranked[S])) }
func (h *mergeHeap[S]) Pop() any {
	s := h.srcs[len(h.srcs)-1]
	var zero ranked[S]
	h.srcs[len(h.srcs)-1] = zero // the ended source is not kept alive
	h.srcs = h.srcs[:len(h.srcs)-1]
	return s
}
