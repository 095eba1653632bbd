package view

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/tenetlang/tenet/eval/run"
)

// render reads every field of every event, call and tools list of v (so
// that every cache is filled) and prints them, with the scopes' Pred maps.
func render(v *Values) string {
	out := ""
	for _, l := range []ref.Val{v.events, v.calls, v.results} {
		out += indexes(l) + "\n"
	}
	for _, ev := range v.eventVals {
		for _, k := range ev.keys() {
			f, _ := ev.FindStringKey(k)
			if k == "calls" {
				f = indexes(f.(ref.Val))
			}
			out += fmt.Sprintf("event %d %s=%v\n", ev.e.Index, k, f)
		}
	}
	for _, cvs := range [][]*callVal{v.callVals, v.typedVals} {
		for _, cv := range cvs {
			for _, k := range cv.keys() {
				f, _ := cv.FindStringKey(k)
				out += fmt.Sprintf("call %d %s=%v\n", cv.c.Index, k, f)
			}
		}
	}
	for _, name := range v.tools.names() {
		l, _ := v.tools.list(name)
		out += fmt.Sprintf("tools.%s=%s\n", name, indexes(l))
	}
	out += fmt.Sprintf("output=%v meta=%v\n", v.output, v.meta)
	return out
}

// indexes prints a list of events or calls as their indexes (a map's
// String is in Go's map order).
func indexes(l ref.Val) string {
	out := "["
	it := l.(traits.Lister).Iterator()
	for it.HasNext() == types.True {
		m := it.Next().(traits.Mapper)
		out += fmt.Sprintf(" %v", m.Get(types.String("index")))
	}
	return out + " ]"
}

// TestValuesReused: Values released after one run and reused for another
// (a smaller one, then a larger one) show exactly what new Values of that
// run show — nothing of the earlier run is left in their arrays, caches or
// scopes.
func TestValuesReused(t *testing.T) {
	// A sync.Pool may drop what it holds at a garbage collection (two in a
	// row empty it), and keeps a released value in the releasing P's
	// private slot, which a Get on another P does not see: with collection
	// off and one P for the test, Of after Release must hand back the
	// released Values, however loaded the machine (the test failed in CI
	// when the goroutine moved between Ps).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	d := testDecls(t)
	big := testRun()
	big.Output = "done"
	small := &run.Run{Events: []*run.Event{{Index: 0, Role: "user", Content: "hi"}}}
	larger := testRun()
	larger.Events = append(larger.Events, &run.Event{Index: len(larger.Events), Role: "user", Content: "again"})
	larger.Calls = append(larger.Calls, &run.Call{Index: 2, Event: 5, Tool: "read", Args: map[string]any{"path": "g"}, Parent: -1, ResultEvent: -1})

	v := d.Of(big)
	render(v)
	sc := v.Scopes(2)
	sc[0].Pred["a"], sc[1].Pred["b"] = types.True, types.False
	v.Release()
	for _, r := range []*run.Run{small, larger} {
		got := d.Of(r)
		if got != v {
			if !raceEnabled {
				t.Fatalf("Of after Release made new Values: the pool did not hand them back")
			}
			v = got // the race detector's pool dropped them: check the new ones as reused from now on
		}
		want := testDecls(t).Of(r)
		if g, w := render(got), render(want); g != w {
			t.Errorf("reused Values of a run of %d events:\n%s\nnew Values:\n%s", len(r.Events), g, w)
		}
		for i, s := range got.Scopes(3) {
			if len(s.Pred) != 0 || s.Values != got || s.Task != nil {
				t.Errorf("reused scope %d: %d predicates, values %p (want %p), task %v", i, len(s.Pred), s.Values, got, s.Task)
			}
			s.Pred["c"] = types.True
		}
		got.Release()
	}
}
