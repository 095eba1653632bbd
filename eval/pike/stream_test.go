package pike

import (
	"fmt"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestStreamPlacesRequestedNestedCalls: a nested call its own message
// requested (a tool_use a server tool call made, in a later message than
// that call) stands once, where its message requested it; a call nested
// in arguments follows its carrier.
func TestStreamPlacesRequestedNestedCalls(t *testing.T) {
	r := &run.Run{Events: []*run.Event{
		{Index: 0, Role: "assistant", Calls: []int{0, 1}}, // server call 0, its call 1
		{Index: 1, Role: "tool"},
		{Index: 2, Role: "assistant", Calls: []int{2}}, // call 2, made by call 0
	}, Calls: []*run.Call{
		{Index: 0, Event: 0, Parent: -1},
		{Index: 1, Event: 0, Parent: 0, Depth: 1},
		{Index: 2, Event: 2, Parent: 0, Depth: 1},
		{Index: 3, Event: 2, Parent: 2, Depth: 2}, // nested in call 2's arguments
	}}
	got := fmt.Sprint(Stream(r))
	want := fmt.Sprint([]Item{{0, -1}, {-1, 0}, {-1, 1}, {1, -1}, {2, -1}, {-1, 2}, {-1, 3}})
	if got != want {
		t.Fatalf("stream %s, want %s", got, want)
	}
}
