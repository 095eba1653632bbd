package transcript

import (
	"fmt"
	"sort"

	"github.com/tenetlang/tenet/eval/run"
)

// maxNestedDepth bounds how deep nested calls are followed. A call at this
// depth that still carries calls gets ArgsError NestedTooDeep, so that the audit
// does not pass over the calls it hides.
const maxNestedDepth = 16

// NestedTooDeep is the ArgsError of a call at the deepest followed level
// that still carries calls; the audit refuses such a call whatever its
// tool's schema, since the calls it hides are not audited.
var NestedTooDeep = fmt.Sprintf("nested calls deeper than %d levels are not followed", maxNestedDepth)

// addNestedCalls finds tool calls carried inside other calls' arguments
// and appends them to rn.Calls with Depth and Parent set (DESIGN §3: calls
// include nested calls). A nested call is a JSON object with a string
// "function" and an object "args" (AgentDojo's FunctionCall), or a string
// "name" and an object or string "arguments" (the OpenAI shape). Some
// runtimes execute such a call before validating the outer one; the
// authorization audit flags them. A nested call never ran on its own
// record: Ok is false and ResultEvent -1.
func addNestedCalls(rn *run.Run) {
	for i := 0; i < len(rn.Calls); i++ { // rn.Calls grows: nested calls are scanned too
		parent := rn.Calls[i]
		nested := nestedIn(parent.Args)
		if parent.Depth >= maxNestedDepth {
			if len(nested) > 0 && parent.ArgsError == "" {
				parent.ArgsError = NestedTooDeep
			}
			continue
		}
		for _, nc := range nested {
			nc.Index = len(rn.Calls)
			nc.Event = parent.Event
			nc.Depth = parent.Depth + 1
			nc.Parent = parent.Index
			nc.ResultEvent = -1
			rn.Calls = append(rn.Calls, nc)
		}
	}
}

// nestedIn returns the calls found in v, outermost first, in key order.
func nestedIn(v any) []*run.Call {
	var out []*run.Call
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if c := asCall(v); c != nil {
				out = append(out, c) // its own arguments are scanned when its turn comes
				return
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// asCall reads a nested call object, or returns nil.
func asCall(m map[string]any) *run.Call {
	if name, ok := m["function"].(string); ok {
		if args, ok := m["args"].(map[string]any); ok {
			id, _ := m["id"].(string)
			return &run.Call{Tool: name, Args: args, ID: id}
		}
	}
	if name, ok := m["name"].(string); ok {
		if raw, ok := m["arguments"]; ok {
			args, argsErr := parseArgs("arguments", raw)
			if argsErr != "" && raw != nil {
				if _, isStr := raw.(string); !isStr {
					return nil // not a call's arguments: an object that merely has these keys
				}
			}
			id, _ := m["id"].(string)
			return &run.Call{Tool: name, Args: args, ArgsError: argsErr, ID: id}
		}
	}
	return nil
}
