package build

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestTurnSmallAndIndexed matches the same results to a turn searched call
// by call (at most smallTurn calls) and to one indexed by id and tool (more
// calls, some answered before the turn outgrew smallTurn): the rules give
// the same calls either way.
func TestTurnSmallAndIndexed(t *testing.T) {
	type req struct{ id, tool string }
	first := []req{{"x", "t"}, {"x", "u"}, {"y", "t"}, {"", "u"}, {"z", "v"}, {"z", "t"}}
	// Call 0, of an earlier turn, also has id z: only the turn can tell
	// which of its calls a result with id z answers.
	results := []Result{
		{CallID: "z", RanTool: "v"}, // two open calls with id z in the turn: by tool
		{CallID: "y"},               // the only call with id y
		{CallID: "x", RanTool: "u"}, // two with id x: by tool
		{CallID: "x"},               // now only one open call with id x
		{CallID: "z"},               // the turn's only open call with id z
		{},                          // no id, no tool: the turn's first open call
	}
	want := []int{5, 3, 2, 1, 6, 4}
	for _, c := range []struct {
		name     string
		extra    int // calls after the first six, of ids p0… and tool w
		answerAt int // answer the first result after this many requests (-1: after all)
		wantMaps bool
	}{
		{"small", 0, -1, false},
		{"small, answered between requests", 2, 7, false},
		{"indexed", 6, -1, true},
		{"indexed after an answer", 6, 8, true},
	} {
		reqs := append([]req(nil), first...)
		for i := range c.extra {
			reqs = append(reqs, req{fmt.Sprintf("p%d", i), "w"})
		}
		rn := &run.Run{Events: []*run.Event{{Index: 0, Role: "assistant"}, {Index: 1, Role: "assistant"}}}
		var m Matcher
		m.Request(rn, rn.Events[0], &run.Call{ID: "z", Tool: "old", ResultEvent: -1, Parent: -1})
		var got []int
		next := 0
		answer := func() {
			got = append(got, m.Answer(rn, 2, results[next]).Index)
			next++
		}
		for i, r := range reqs {
			if i == c.answerAt {
				answer()
			}
			m.Request(rn, rn.Events[1], &run.Call{ID: r.id, Tool: r.tool, ResultEvent: -1, Parent: -1})
		}
		if hasMaps := m.turn.byID != nil; hasMaps != c.wantMaps {
			t.Errorf("%s: turn indexed %v, want %v", c.name, hasMaps, c.wantMaps)
		}
		for next < len(results) {
			answer()
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: results answered calls %v, want %v", c.name, got, want)
		}
	}
}
