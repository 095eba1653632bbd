package runs

import "testing"

func TestSeqCompare(t *testing.T) {
	seqs := []Seq{{0, 1}, {0, 2}, {1, 1}, {2, 0}}
	for i, a := range seqs {
		for j, b := range seqs {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%v.Compare(%v) = %d, want %d", a, b, got, want)
			}
		}
	}
}
