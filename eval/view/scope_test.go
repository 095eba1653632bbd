package view

import (
	"testing"

	"cel.dev/cel-go/common/types/ref"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/pike"
)

// TestStepResolvesBindings: a step guard sees the earlier steps bound in
// caps (typed for a step naming its tool, as sent for "*"), never itself,
// a later step or an unbound one; call and args on a call item, event on
// a message; anything else from its scope.
func TestStepResolvesBindings(t *testing.T) {
	v := testDecls(t).Of(testRun())
	items := pike.Stream(testRun())
	// e0 user, e1 assistant, c0 read, e2 tool, e3 assistant, c1 send, e4 tool, e5 assistant
	if len(items) != 8 || items[2] != (pike.Item{Event: -1, Call: 0}) || items[5] != (pike.Item{Event: -1, Call: 1}) {
		t.Fatalf("items %v", items)
	}
	steps := []bundle.StepPlan{{Name: "r", Call: "read"}, {Name: "c", Call: "*"}, {Name: "s", Call: "send"}, {Name: "u", Role: "user"}}
	sc := &Scope{Values: v, Params: map[string]any{"limit": 3}}
	st := &Step{Scope: sc}
	caps := []int{2, 5, -1, -1}
	typed := func(x any) bool { _, ok := x.(*callVal).FindStringKey("raw_args"); return ok }

	st.Bind(steps, 2, items, 5, caps) // step s on call 1
	if x, ok := st.ResolveName("r"); !ok || x.(*callVal).c.Index != 0 || !typed(x) {
		t.Errorf("r = %v, %t; want call 0, typed", x, ok)
	}
	if x, ok := st.ResolveName("c"); !ok || x.(*callVal).c.Index != 1 || typed(x) {
		t.Errorf("c = %v, %t; want call 1 as sent", x, ok)
	}
	for _, name := range []string{"s", "u", "event"} {
		if x, ok := st.ResolveName(name); ok {
			t.Errorf("%s resolves to %v on step s", name, x)
		}
	}
	if x, ok := st.ResolveName("call"); !ok || x.(*callVal).c.Index != 1 || !typed(x) {
		t.Errorf("call = %v, %t; want call 1, typed", x, ok)
	}
	args, ok := st.ResolveName("args")
	if m, _ := args.(map[string]any); !ok || len(m) != 2 || m["to"] != "bob@corp.example" {
		t.Errorf("args = %v; want send's declared to and body only", args)
	}
	if x, ok := st.ResolveName("limit"); ok {
		t.Errorf("a param resolves by its bare name: %v", x)
	}
	if x, ok := st.ResolveName("params"); !ok || x.(map[string]any)["limit"] != 3 {
		t.Errorf("params = %v, %t", x, ok)
	}

	st.Bind(steps, 3, items, 0, caps) // step u on the user message
	if x, ok := st.ResolveName("event"); !ok || x.(ref.Val) != v.eventVals[0] {
		t.Errorf("event = %v, %t; want event 0", x, ok)
	}
	for _, name := range []string{"call", "args", "u"} {
		if x, ok := st.ResolveName(name); ok {
			t.Errorf("%s resolves to %v on a message", name, x)
		}
	}
	if x, ok := st.ResolveName("events"); !ok || x != v.events {
		t.Errorf("events = %v, %t", x, ok)
	}
}
