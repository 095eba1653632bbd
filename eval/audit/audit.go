package audit

import (
	"encoding/json"
	"fmt"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// Calls decides, for every call of a run, whether the host's grant
// authorized it (docs/language.md, grant): the first check a call fails is its decision —
//
//	unregistered_tool            the tool is not declared
//	schema_fields                the argument keys are not exactly the declared ones (optional keys
//	                             may be absent or null; arguments that did not parse fail here), or,
//	                             for any tool, the call carries calls nested deeper than are followed
//	schema_types                 a value is not of its declared type, with no coercion: a bool is not
//	                             a number, an integer is not a string, a nested call object is not a string
//	missing_resource_capability  the grant has no (operation, resource) pair for the call
//	authorized                   none of the above
//
// Calls nested in another call's arguments are audited first, each on its
// own, and flagged as hazards: a runtime may execute them before it
// validates the call that carries them. A call whose result disagrees with
// its request is decided on what ran, and the entry's mismatch says how
// they disagree and what the request would have been decided. The grant is only read: nothing in
// a transcript can extend it. Entries come in audit order (nested calls
// before their parent).
func Calls(r *run.Run, g *bundle.Grant, tools map[string]*bundle.Tool) []runs.AuditEntry {
	return AppendCalls(nil, r, g, tools)
}

// AppendCalls is Calls appending the entries to out: a caller deciding
// call after call (eval/authorize) reuses one buffer.
func AppendCalls(out []runs.AuditEntry, r *run.Run, g *bundle.Grant, tools map[string]*bundle.Tool) []runs.AuditEntry {
	entry := func(i int) runs.AuditEntry {
		c := r.Calls[i]
		decision, detail := decide(c, g, tools)
		return runs.AuditEntry{Call: i, Tool: c.Tool, Decision: decision, Detail: detail, Parent: c.Parent, Hazard: c.Depth > 0,
			Mismatch: mismatch(c, g, tools)}
	}
	nested := false
	for _, c := range r.Calls {
		nested = nested || c.Parent >= 0
	}
	if !nested {
		// Most runs carry no nested call: audit order is the calls' order,
		// and the map of children below is not needed.
		for _, c := range r.Calls {
			out = append(out, entry(c.Index))
		}
		return out
	}
	children := map[int][]int{}
	for _, c := range r.Calls {
		if c.Parent >= 0 {
			children[c.Parent] = append(children[c.Parent], c.Index)
		}
	}
	var visit func(i int)
	visit = func(i int) {
		for _, ch := range children[i] {
			visit(ch)
		}
		out = append(out, entry(i))
	}
	for _, c := range r.Calls {
		if c.Parent < 0 {
			visit(c.Index)
		}
	}
	return out
}

// mismatch reports a call whose result says another tool or other
// arguments ran than were requested (or answers another id): the
// disagreement, and the decision the request itself would get when that is
// not authorized — what ran is audited, but what the model asked for
// matters too.
func mismatch(c *run.Call, g *bundle.Grant, tools map[string]*bundle.Tool) string {
	if c.Mismatch == "" {
		return ""
	}
	if c.RequestedTool == "" && c.RequestedArgs == nil {
		return c.Mismatch
	}
	req := *c
	if c.RequestedTool != "" {
		req.Tool = c.RequestedTool
	}
	if c.RequestedArgs != nil {
		req.Args, req.ArgsError = c.RequestedArgs, ""
	}
	decision, detail := decide(&req, g, tools)
	if decision == runs.Authorized {
		return c.Mismatch + "; as requested: authorized"
	}
	return fmt.Sprintf("%s; as requested: %s: %s", c.Mismatch, decision, detail)
}

// decide runs the checks in order on one call.
func decide(c *run.Call, g *bundle.Grant, tools map[string]*bundle.Tool) (string, string) {
	t, ok := tools[c.Tool]
	if !ok {
		return runs.UnregisteredTool, fmt.Sprintf("tool %q is not declared", c.Tool)
	}
	// Calls nested too deep to follow escape this audit: the call that
	// carries them is refused even when its tool declares no schema.
	if c.ArgsError == run.NestedTooDeep {
		return runs.SchemaFields, c.ArgsError
	}
	if t.HasSchema {
		if c.ArgsError != "" {
			return runs.SchemaFields, c.ArgsError
		}
		if decision, detail := schemaProblem(c.Args, t.Params); decision != "" {
			return decision, detail
		}
	}
	resource, named := Resource(t, c.Args)
	absent := !named
	if !granted(g, t.Operation, resource, t.Resource != "") {
		switch {
		case t.Resource == "":
			return runs.MissingResourceCapability, fmt.Sprintf("grant %q does not allow %s", g.Name, t.Operation)
		case absent:
			// Only a "*" capability covers a call that names no resource.
			return runs.MissingResourceCapability, fmt.Sprintf("grant %q does not allow %s without a resource (argument %s is absent or null)", g.Name, t.Operation, t.Resource)
		}
		return runs.MissingResourceCapability, fmt.Sprintf("grant %q does not allow (%s, %s)", g.Name, t.Operation, resource)
	}
	return runs.Authorized, ""
}

// schemaProblem is the first way a call's arguments fail its tool's
// schema (bundle.CheckValue, no coercion), as a decision and its detail:
// the argument keys themselves (schema_fields), or a value, the members
// of a nested object included (schema_types); "" when they fit.
func schemaProblem(args map[string]any, params []bundle.Field) (string, string) {
	p := bundle.CheckValue("", args, bundle.Type{Kind: bundle.KindObject, Fields: params})
	switch {
	case p == nil:
		return "", ""
	case p.Missing != nil || p.Unexpected != nil:
		if p.Path == "" {
			return runs.SchemaFields, p.Members()
		}
		return runs.SchemaTypes, fmt.Sprintf("argument %s: %s", p.Path, p.Members())
	}
	what := jsonKind(p.Value)
	if m, ok := p.Value.(map[string]any); ok && asNestedCall(m) {
		what = "a nested call object"
	}
	return runs.SchemaTypes, fmt.Sprintf("argument %s is %s, declared %s", p.Path, what, p.Type)
}

// asNestedCall reports whether an argument object has a call's shape (any
// of the shapes the transcript reader extracts nested calls from).
func asNestedCall(m map[string]any) bool {
	_, f := m["function"].(string)
	_, n := m["name"].(string)
	_, r := m["recipient_name"].(string)
	return f || n || r
}

// Resource is the resource a call of tool t with args names, as a grant
// is matched against it: the resource argument's text (resourceText), or
// "*" with named false when the tool declares no resource argument or the
// call leaves it absent or null (only a "*" capability covers that).
func Resource(t *bundle.Tool, args map[string]any) (resource string, named bool) {
	if t.Resource != "" {
		if v, ok := args[t.Resource]; ok && v != nil {
			return resourceText(v), true
		}
	}
	return "*", false
}

// resourceText renders a resource argument for matching against a grant:
// a string as is, anything else as its JSON text (the id 7 is "7").
func resourceText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// granted reports whether g allows operation op on resource. A tool that
// names no resource needs an allow block for its operation (any resources).
func granted(g *bundle.Grant, op, resource string, hasResource bool) bool {
	for _, a := range g.Allows {
		if a.Operation != op {
			continue
		}
		if !hasResource {
			return true
		}
		for _, r := range a.Resources {
			if r == "*" || r == resource {
				return true
			}
		}
	}
	return false
}
