package run

import (
	"fmt"
	"testing"
)

// TestNestedTooDeepNamesTheDepth: the message states the depth readers
// actually stop at (both are constants, so they must be changed together).
func TestNestedTooDeepNamesTheDepth(t *testing.T) {
	want := fmt.Sprintf("nested calls deeper than %d levels are not followed", MaxNestedDepth)
	if NestedTooDeep != want {
		t.Fatalf("NestedTooDeep = %q, want %q", NestedTooDeep, want)
	}
}
