package view

import (
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/pike"
)

// Scope resolves the criterion variables of one run in one contract scope
// (docs/language.md, "The CEL environment"): the run's values, and the
// task, goal, params, predicate values and threat model it is judged
// with. Pred holds the scope's predicate values computed so far (ref.Val,
// errors included, so a failing predicate fails only the criteria that
// use it), and its imports' Pred maps under their namespaces; the caller
// fills it as it evaluates predicates.
type Scope struct {
	Values             *Values
	Task, Goal, Threat map[string]any
	Params, Pred       map[string]any
}

func (a *Scope) ResolveName(name string) (any, bool) {
	switch name {
	case "events":
		return a.Values.events, true
	case "calls":
		return a.Values.calls, true
	case "results":
		return a.Values.results, true
	case "output":
		return a.Values.output, true
	case "pre":
		return a.Values.pre, true
	case "post":
		return a.Values.post, true
	case "meta":
		return a.Values.meta, true
	case "task":
		return a.Task, true
	case "goal":
		return a.Goal, true
	case "params":
		return a.Params, true
	case "pred":
		return a.Pred, true
	case "tools":
		return a.Values.tools, true
	case "threat_model":
		return a.Threat, true
	}
	return nil, false
}

func (a *Scope) Parent() interpreter.Activation { return nil }

// Step adds a step guard's variables to its scope's: the earlier steps
// bound in Caps (steps before K, each the item at Caps[j] of Items), then
// call and args (a call item) or event (a message item). Set one with Bind
// before each evaluation; a Step is reused, never shared between runs.
type Step struct {
	Scope *Scope
	steps []bundle.StepPlan
	caps  []int
	k     int
	items []pike.Item
	call  any // nil when the item is a message
	args  any // nil when the item is a message
	event any // nil when the item is a call
}

// Bind sets the variables of step k of steps on item pos of items, with
// the items caps binds to the earlier steps. A step naming a tool sees a
// typed call (its args conformed to the tool's schema), a step selecting
// any call ("*") the call as sent.
func (a *Step) Bind(steps []bundle.StepPlan, k int, items []pike.Item, pos int, caps []int) {
	a.steps, a.caps, a.k, a.items = steps, caps, k, items
	a.call, a.args, a.event = nil, nil, nil
	it := items[pos]
	if it.Call >= 0 {
		typed := steps[k].Call != "*"
		a.call, a.args = a.Scope.Values.itemValue(it.Event, it.Call, typed), a.Scope.Values.guardArgs(it.Call, typed)
	} else {
		a.event = a.Scope.Values.itemValue(it.Event, it.Call, false)
	}
}

func (a *Step) ResolveName(name string) (any, bool) {
	for j := 0; j < a.k; j++ {
		if a.caps[j] >= 0 && a.steps[j].Name == name {
			it := a.items[a.caps[j]]
			return a.Scope.Values.itemValue(it.Event, it.Call, a.steps[j].Call != "*"), true
		}
	}
	switch {
	case name == "call" && a.call != nil:
		return a.call, true
	case name == "args" && a.call != nil:
		return a.args, true
	case name == "event" && a.event != nil:
		return a.event, true
	}
	return a.Scope.ResolveName(name)
}

func (a *Step) Parent() interpreter.Activation { return nil }
