package server

import (
	"strconv"
	"testing"
)

// TestLabelsBounded: labels are counted on their own; past maxLabels a new
// label starts another generation, in which every label counts from 1
// again (its entries then carry another instance).
func TestLabelsBounded(t *testing.T) {
	var l labels
	for i := range maxLabels {
		if seq, gen := l.next("L" + strconv.Itoa(i)); seq != 1 || gen != 1 {
			t.Fatalf("label %d: seq %d, generation %d; want 1, 1", i, seq, gen)
		}
	}
	if seq, gen := l.next("L0"); seq != 2 || gen != 1 {
		t.Errorf("a counted label again: seq %d, generation %d; want 2, 1", seq, gen)
	}
	if seq, gen := l.next("new"); seq != 1 || gen != 2 {
		t.Errorf("a label past the bound: seq %d, generation %d; want 1, 2", seq, gen)
	}
	if seq, gen := l.next("L0"); seq != 1 || gen != 2 {
		t.Errorf("an old label in the new generation: seq %d, generation %d; want 1, 2", seq, gen)
	}
	if len(l.seq) != 2 {
		t.Errorf("%d labels held, want 2", len(l.seq))
	}
}
