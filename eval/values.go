package eval

import (
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/eval/run"
)

// runValues are a run's CEL values: Go maps keyed by the field names of
// tenet.Event and tenet.Call (compiler/celenv), built once per run and
// shared by every expression.
type runValues struct {
	events, calls, results []any
	tools                  map[string]any // tool name → []any of typed call maps
	typed                  []any          // per call: its typed map (tools.<name> element), or the generic one
	output                 string
	pre, post              any
	meta                   map[string]any
}

// valuesOf converts a run, filling each call's operation from the registry.
func (p *Program) valuesOf(r *run.Run) *runValues {
	calls := make([]any, len(r.Calls))
	for i, c := range r.Calls {
		args := c.Args
		if args == nil {
			args = map[string]any{}
		}
		calls[i] = map[string]any{
			"index": c.Index, "event": c.Event, "id": c.ID, "tool": c.Tool,
			"operation": p.ops[c.Tool], "args": args, "args_error": c.ArgsError, "resource": p.resourceOf(c),
			"ok": c.Ok, "result": c.Result, "error": c.Error, "result_event": c.ResultEvent,
			"depth": c.Depth, "parent": c.Parent,
		}
	}
	v := &runValues{calls: calls, output: r.Output, pre: r.Pre, post: r.Post, meta: r.Meta}
	v.tools, v.typed = p.typedCalls(r, calls)
	if v.meta == nil {
		v.meta = map[string]any{}
	}
	v.events = make([]any, len(r.Events))
	for i, e := range r.Events {
		ec := make([]any, 0, len(e.Calls))
		for _, ci := range e.Calls {
			if ci >= 0 && ci < len(calls) {
				ec = append(ec, calls[ci])
			}
		}
		blocks := e.Blocks
		if blocks == nil {
			blocks = []any{}
		}
		m := map[string]any{
			"index": e.Index, "role": e.Role, "content": e.Content, "blocks": blocks,
			"calls": ec, "call_id": e.CallID, "tool": e.Tool, "error": e.Error, "failed": e.Failed,
		}
		v.events[i] = m
		if e.Role == "tool" {
			v.results = append(v.results, m)
		}
	}
	if v.results == nil {
		v.results = []any{}
	}
	return v
}

// typedCalls builds the `tools` value: per declared tool, its calls, with
// args conformed to the tool's schema when it has one.
func (p *Program) typedCalls(r *run.Run, calls []any) (map[string]any, []any) {
	typedAll := make([]any, len(calls))
	copy(typedAll, calls)
	out := make(map[string]any, len(p.Bundle.Decls.Tools))
	for _, t := range p.Bundle.Decls.Tools {
		out[t.Name] = []any{}
	}
	for i, c := range r.Calls {
		t, ok := p.tools[c.Tool]
		if !ok {
			continue
		}
		cv := calls[i]
		if t.HasSchema {
			typed := make(map[string]any, len(cv.(map[string]any)))
			for k, v := range cv.(map[string]any) {
				typed[k] = v
			}
			typed["args"] = conformArgs(t.Name, c.Args, t.Params)
			typed["raw_args"] = cv.(map[string]any)["args"]
			cv = typed
			typedAll[i] = typed
		}
		out[c.Tool] = append(out[c.Tool].([]any), cv)
	}
	return out, typedAll
}

// itemValue is an item's CEL value as a step sees it: an event's map, or a
// call's map — typed (tools.<name>'s element) for a step naming the tool,
// generic (raw args) for a step selecting any call.
func (v *runValues) itemValue(it item, typed bool) any {
	switch {
	case it.call < 0:
		return v.events[it.event]
	case typed:
		return v.typed[it.call]
	}
	return v.calls[it.call]
}

// runCtx is what every scope's activation of one run shares.
type runCtx struct {
	threat     map[string]any // the threat_model value
	run        *run.Run
	v          *runValues
	task, goal map[string]any
	spent      uint64        // CEL cost spent on this run so far, in every scope
	acts       []*activation // per scope
	items      []item        // the item stream, when the contract has patterns
	patterns   map[int]patternResult
}

// activation resolves the criterion variables of one run in one scope.
// pred holds the scope's predicate values computed so far (ref.Val, errors
// included, so a failing predicate fails only the criteria that use it),
// and its imports' pred maps under their namespaces.
type activation struct {
	*runCtx
	params map[string]any
	pred   map[string]any
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "events":
		return a.v.events, true
	case "calls":
		return a.v.calls, true
	case "results":
		return a.v.results, true
	case "output":
		return a.v.output, true
	case "pre":
		return a.v.pre, true
	case "post":
		return a.v.post, true
	case "meta":
		return a.v.meta, true
	case "task":
		return a.task, true
	case "goal":
		return a.goal, true
	case "params":
		return a.params, true
	case "pred":
		return a.pred, true
	case "tools":
		return a.v.tools, true
	case "threat_model":
		return a.threat, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// resourceOf is the value of the argument a call's tool names as its
// resource, when it is a string; else "".
func (p *Program) resourceOf(c *run.Call) string {
	t, ok := p.tools[c.Tool]
	if !ok || t.Resource == "" {
		return ""
	}
	s, _ := c.Args[t.Resource].(string)
	return s
}
