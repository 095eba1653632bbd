package kmerge

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
)

// TestMergeOrderAndTies: Merge yields every item of its sources in order,
// and of equal items the one of the source given first, whatever the
// number of sources (the heap's shapes differ from 0 to 5).
func TestMergeOrderAndTies(t *testing.T) {
	type item struct{ v, src int }
	type source struct {
		items []item
		pos   int
	}
	all := [][]int{{1, 4, 4, 9}, {0, 4, 10}, {4}, {}, {2, 3, 4, 4, 11}}
	for n := 0; n <= len(all); n++ {
		var srcs []*source
		var want []item
		for i, vs := range all[:n] {
			s := &source{}
			for _, v := range vs {
				s.items = append(s.items, item{v, i})
			}
			want = append(want, s.items...)
			if len(s.items) > 0 {
				srcs = append(srcs, s)
			}
		}
		// Stable by value: ties keep the order of sources.
		slices.SortStableFunc(want, func(a, b item) int { return cmp.Compare(a.v, b.v) })
		m := New(srcs, func(a, b *source) int { return cmp.Compare(a.items[a.pos].v, b.items[b.pos].v) })
		var got []item
		for m.Len() > 0 {
			s := m.Top()
			got = append(got, s.items[s.pos])
			s.pos++
			if s.pos < len(s.items) {
				m.Fix()
			} else {
				m.Drop()
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d sources: got %v, want %v", n, got, want)
		}
	}
}
