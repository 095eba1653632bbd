package build

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
)

// maxNestedDepth bounds how deep nested calls are followed (run.MaxNestedDepth).
const maxNestedDepth = run.MaxNestedDepth

// ParallelTool is the tool name of OpenAI's dispatch wrapper: its
// arguments {"tool_uses": [{"recipient_name": "functions.X",
// "parameters": {...}}, ...]} are calls the runtime makes for it.
const ParallelTool = "multi_tool_use.parallel"

// isParallel reports whether tool names the dispatch wrapper, bare or with
// the "functions." namespace prefix its recipients carry
// ("functions.multi_tool_use.parallel"): read as an ordinary tool, the
// wrapper's calls would be nested calls that never ran.
func isParallel(tool string) bool {
	// In any case: "Multi_Tool_Use.Parallel" read as an ordinary tool
	// made its send a nested call that never ran.
	return strings.TrimPrefix(strings.ToLower(tool), "functions.") == ParallelTool
}

// addNestedCalls finds tool calls carried inside other calls' arguments
// and appends them to rn.Calls with Depth and Parent set (docs/language.md: calls
// include nested calls). Every key of every object is searched, the keys
// beside a call object's own arguments included, and an object is checked
// against every call shape at once (see callShapes): it may hold several
// calls. Some runtimes execute such a call before validating the outer
// one; the authorization audit flags them. A nested call never ran on its
// own record (Ok false, ResultEvent -1) except the calls a ParallelTool
// wrapper dispatches, which ran iff it did (see dispatched). It returns a
// non-empty message for a call shape it cannot read.
func addNestedCalls(t *Terms, rn *run.Run) string { return addNestedFrom(t, rn, 0) }

// AppendNested appends the calls nested in the arguments of rn.Calls[from:]
// (and in theirs), as Finish does for every call: a run whose earlier
// calls were finished already gets a pending call added (eval/authorize).
func AppendNested(rn *run.Run, from int) string { return addNestedFrom(OpenAI.or(), rn, from) }

// addNestedFrom is addNestedCalls from call index from on.
func addNestedFrom(t *Terms, rn *run.Run, from int) string {
	for i := from; i < len(rn.Calls); i++ { // rn.Calls grows: nested calls are scanned too
		parent := rn.Calls[i]
		nested, err := nestedIn(parent)
		if err != "" {
			return fmt.Sprintf("%s: call %d (%q): %s", t.event(parent.Event), parent.Index, parent.Tool, err)
		}
		if parent.Depth >= maxNestedDepth {
			if len(nested) > 0 && parent.ArgsError == "" {
				parent.ArgsError = run.NestedTooDeep
			}
			continue
		}
		for _, n := range nested {
			nc := n.call
			nc.Index = len(rn.Calls)
			nc.Event = parent.Event
			nc.Depth = parent.Depth + 1
			nc.Parent = parent.Index
			nc.ResultEvent = -1
			if n.dispatched {
				dispatched(parent, nc)
			}
			rn.Calls = append(rn.Calls, nc)
		}
	}
	return ""
}

// dispatched gives a call a ParallelTool wrapper dispatched the wrapper's
// outcome: the wrapper's result is the result of all its calls, so each
// ran iff the wrapper ran without error. A wrapper that reports an error
// may have run some of them and not others: whether each ran is unknown
// (OkUnknown), never "did not run". A wrapper no result answered ran
// nothing: its calls did not run either.
func dispatched(wrapper, c *run.Call) {
	if wrapper.ResultEvent < 0 {
		return
	}
	c.Result, c.Error, c.ResultEvent = wrapper.Result, wrapper.Error, wrapper.ResultEvent
	switch {
	case wrapper.OkUnknown != "":
		c.OkUnknown = wrapper.OkUnknown
	case !wrapper.Ok:
		c.OkUnknown = fmt.Sprintf("the %s call %d that dispatched it reported an error, so whether this call ran is unknown", wrapper.Tool, wrapper.Index)
	default:
		c.Ok = true
	}
}

// nestedCall is a call found in another call's arguments.
type nestedCall struct {
	call       *run.Call
	dispatched bool // a direct element of a ParallelTool wrapper's tool_uses
}

// nestedIn returns the calls found in parent's arguments, outermost first,
// keys in sorted order, or says why a call shape there cannot be read.
func nestedIn(parent *run.Call) ([]nestedCall, string) {
	w := walker{}
	if isParallel(parent.Tool) && parent.ArgsError == "" {
		if err := w.dispatch(parent.Args); err != "" {
			return nil, err
		}
	} else {
		w.walk(parent.Args)
	}
	if w.err != "" {
		return nil, w.err
	}
	return w.out, ""
}

// walker searches arguments for calls; path is the position being
// searched, below the call's args, rendered only for a message.
type walker struct {
	out  []nestedCall
	path []pathElem
	err  string
}

// pathElem is an object key, or a list index when key is "" and index ≥ 0.
type pathElem struct {
	key   string
	index int
}

func (w *walker) push(key string, index int) { w.path = append(w.path, pathElem{key, index}) }
func (w *walker) pop()                       { w.path = w.path[:len(w.path)-1] }

func (w *walker) fail(reason string) {
	if w.err != "" {
		return
	}
	var sb strings.Builder
	sb.WriteString("args")
	for _, e := range w.path {
		if e.index >= 0 {
			fmt.Fprintf(&sb, "[%d]", e.index)
		} else {
			sb.WriteString("." + e.key)
		}
	}
	w.err = sb.String() + ": " + reason
}

func (w *walker) walk(v any) {
	if w.err != "" {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		w.object(v, false)
	case []any:
		for i, e := range v {
			w.push("", i)
			w.walk(e)
			w.pop()
		}
	}
}

// object adds the calls of m — every shape it has — and searches its other
// keys; the arguments of the calls found are searched when their own turn
// comes (addNestedCalls), not here. dispatched marks a recipient_name
// call as dispatched by the wrapper.
func (w *walker) object(m map[string]any, dispatched bool) {
	calls, argKeys, err := callShapes(m)
	if err != "" {
		w.fail(err)
		return
	}
	for _, c := range calls {
		w.out = append(w.out, nestedCall{call: c.call, dispatched: dispatched && c.recipient})
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if !argKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.push(k, -1)
		w.walk(m[k])
		w.pop()
	}
}

// dispatch searches a ParallelTool wrapper's arguments: tool_uses must be a
// list of {"recipient_name": string, "parameters": args} objects, each a
// call the wrapper dispatches; other keys are searched as usual.
func (w *walker) dispatch(args map[string]any) string {
	uses, ok := args["tool_uses"].([]any)
	if !ok {
		if _, present := args["tool_uses"]; !present {
			return "args.tool_uses: missing (a " + ParallelTool + " call lists the calls it makes in tool_uses)"
		}
		return "args.tool_uses: want a list, got " + Kind(args["tool_uses"])
	}
	for i, u := range uses {
		obj, ok := u.(map[string]any)
		if !ok {
			return fmt.Sprintf("args.tool_uses[%d]: want an object {recipient_name, parameters}, got %s", i, Kind(u))
		}
		if _, ok := obj["recipient_name"].(string); !ok {
			return fmt.Sprintf("args.tool_uses[%d].recipient_name: want the string name of the tool called, got %s", i, KindOrMissing(obj, "recipient_name"))
		}
		if _, present := obj["parameters"]; !present {
			return fmt.Sprintf("args.tool_uses[%d].parameters: missing (the arguments of the call to %v)", i, obj["recipient_name"])
		}
		w.push("tool_uses", -1)
		w.push("", i)
		w.object(obj, true)
		w.pop()
		w.pop()
	}
	rest := make(map[string]any, len(args))
	for k, v := range args {
		if k != "tool_uses" {
			rest[k] = v
		}
	}
	w.walk(rest)
	return ""
}

func KindOrMissing(m map[string]any, key string) string {
	if _, present := m[key]; !present {
		return "nothing (missing)"
	}
	return Kind(m[key])
}

// shapeCall is a call read from one shape of an object.
type shapeCall struct {
	call      *run.Call
	recipient bool // the recipient_name shape
}

// callShapes reads every call shape an object has (the shapes in the
// package doc), in a fixed order, and the keys holding their arguments.
// A tool_use-typed object without a string name is an error: it is a call
// this reader cannot read.
func callShapes(m map[string]any) (calls []shapeCall, argKeys map[string]bool, err string) {
	id, _ := m["id"].(string)
	add := func(tool, argKey string, recipient bool) {
		c := &run.Call{Tool: tool, ID: id, Parent: -1, ResultEvent: -1}
		c.Args, c.ArgsError = ParseArgs(argKey, m[argKey])
		calls = append(calls, shapeCall{call: c, recipient: recipient})
		if argKeys == nil {
			argKeys = map[string]bool{}
		}
		argKeys[argKey] = true
	}
	// AgentDojo's FunctionCall: {"function": string, "args": args}.
	if name, ok := m["function"].(string); ok {
		if _, ok := m["args"]; ok {
			add(name, "args", false)
		}
	}
	if typ, _ := m["type"].(string); typ == "tool_use" {
		// Anthropic's tool_use block: {"type": "tool_use", "name", "input"}.
		name, ok := m["name"].(string)
		if !ok {
			return nil, nil, "a tool_use object without a string name (want {\"type\": \"tool_use\", \"name\": string, \"input\": args})"
		}
		add(name, "input", false)
	} else if name, ok := m["name"].(string); ok {
		// OpenAI's function (and legacy function_call): {"name", "arguments"}.
		if _, ok := m["arguments"]; ok {
			add(name, "arguments", false)
		}
	}
	// A multi_tool_use.parallel element: {"recipient_name", "parameters"}.
	if name, ok := m["recipient_name"].(string); ok {
		if _, ok := m["parameters"]; ok {
			add(strings.TrimPrefix(name, "functions."), "parameters", true)
		}
	}
	return calls, argKeys, ""
}

// Finish completes a run whose events and calls a Matcher built: it makes
// unknown the ok of calls of one message sharing an id that results
// answered only in part (notes.go), then appends the calls nested in calls'
// arguments (Depth, Parent; a ParallelTool wrapper's dispatched calls share
// its outcome). It returns a non-empty message, "message N: call M (tool):
// reason", for a call shape in arguments that cannot be read: the record is
// then malformed.
func Finish(rn *run.Run) string {
	return OpenAI.Finish(rn)
}
