package view

import (
	"math"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestSize: a run's size is its largest list, string or map, wherever it
// is: the events and calls lists, a text field, a nested argument, a map's
// entries or keys, meta, pre and post; a value of an unknown shape makes
// it as large as can be.
func TestSize(t *testing.T) {
	base := func() *run.Run {
		return &run.Run{
			Events: []*run.Event{{Role: "user", Content: "hello"}, {Role: "assistant", Content: "", Calls: []int{0}}},
			Calls:  []*run.Call{{Tool: "send", Args: map[string]any{"to": "bob"}}},
		}
	}
	cases := []struct {
		name string
		edit func(r *run.Run)
		want uint64
	}{
		{"base", func(r *run.Run) {}, 9}, // "assistant"
		{"content", func(r *run.Run) { r.Events[0].Content = strings.Repeat("x", 300) }, 300},
		{"nested arg", func(r *run.Run) { r.Calls[0].Args["cc"] = []any{map[string]any{"a": strings.Repeat("y", 40)}} }, 40},
		{"arg key", func(r *run.Run) { r.Calls[0].Args[strings.Repeat("k", 50)] = 1.0 }, 50},
		{"list", func(r *run.Run) { r.Meta = map[string]any{"l": make([]any, 70)} }, 70},
		{"requested", func(r *run.Run) { r.Calls[0].RequestedArgs = map[string]any{"x": strings.Repeat("r", 11)} }, 11},
		{"mismatch", func(r *run.Run) { r.Calls[0].Mismatch = strings.Repeat("m", 12) }, 12},
		{"blocks", func(r *run.Run) { r.Events[0].Blocks = []any{strings.Repeat("b", 13)} }, 13},
		{"post", func(r *run.Run) { r.Post = map[string]any{"s": strings.Repeat("p", 14)} }, 14},
		{"output", func(r *run.Run) { r.Output = strings.Repeat("o", 15) }, 15},
		{"unknown shape", func(r *run.Run) { r.Pre = []string{"x"} }, math.MaxUint64},
	}
	for _, c := range cases {
		r := base()
		c.edit(r)
		if got := Size(r); got != c.want {
			t.Errorf("%s: size %d, want %d", c.name, got, c.want)
		}
	}
}
