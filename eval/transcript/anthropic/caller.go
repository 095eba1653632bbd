package anthropic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// serverCallers are the caller types of a call a server tool made (the
// Anthropic SDK's ServerToolCaller types, and the code execution version
// its tools list in allowed_callers): programmatic tool calling, where
// code the code execution tool runs calls the client's tools. Each names
// the server_tool_use call that made it in "tool_id".
var serverCallers = []string{"code_execution_20250825", "code_execution_20260120", "code_execution_20260521"}

// caller reads a tool_use or server_tool_use block's "caller": absent,
// null or {"type": "direct"} is a call the model made itself ("" is
// returned); {"type": "code_execution_...", "tool_id": id} is a call the
// server tool call id made (id is returned). Any other caller is refused:
// read as the model's own call, a call made by code would be top level,
// and read as nested it would need a parent the record names.
func caller(b map[string]any, at string) (string, string) {
	v := b["caller"]
	if v == nil {
		return "", ""
	}
	c, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Sprintf(`%s.caller: want an object {"type": ...} saying who made the call, got %s`, at, build.Kind(v))
	}
	typ, ok := c["type"].(string)
	if !ok {
		return "", fmt.Sprintf("%s.caller.type: want a string saying who made the call, got %s", at, build.KindOrMissing(c, "type"))
	}
	switch {
	case typ == "direct":
		if _, ok := c["tool_id"]; ok {
			return "", fmt.Sprintf(`%s.caller: type "direct" with a "tool_id": whether the model or a server tool made the call is unclear`, at)
		}
		return "", scanRest(c, map[string]bool{"type": true}, at+".caller")
	case slices.Contains(serverCallers, typ):
		id, ok := c["tool_id"].(string)
		if !ok || id == "" {
			got := build.KindOrMissing(c, "tool_id")
			if ok {
				got = `""`
			}
			return "", fmt.Sprintf("%s.caller.tool_id: want the id of the server_tool_use call that made this call, got %s", at, got)
		}
		return id, scanRest(c, map[string]bool{"type": true, "tool_id": true}, at+".caller")
	default:
		return "", fmt.Sprintf(`%s.caller.type %q: an unknown caller (this reader knows "direct" and %s), so whether the model or a tool made the call is unclear`, at, build.Clip(typ, 100), strings.Join(serverCallers, ", "))
	}
}

// nest records a server_tool_use call under its id, and makes a call a
// server tool made (its caller's tool_id) a nested call of that server
// tool call: depth 1 + its, parent its index. The call stays in its own
// message's calls, where its block is, and its tool_result answers it as
// any call's. A caller naming no server_tool_use block before the call,
// or one of two sharing the id, is refused: the call would be misplaced.
func (cv *conv) nest(it item) string {
	c := it.call
	if it.caller != "" {
		p, ok := cv.servers[it.caller]
		switch {
		case !ok:
			return fmt.Sprintf("%s: caller.tool_id %q: no server_tool_use block before this call has that id, so the server tool call that made it is not in the record", it.at, build.Clip(it.caller, 100))
		case p < 0:
			return fmt.Sprintf("%s: caller.tool_id %q: two server_tool_use blocks have that id, so which made this call is unclear", it.at, build.Clip(it.caller, 100))
		}
		parent := cv.rn.Calls[p]
		if parent.Depth >= run.MaxNestedDepth {
			return fmt.Sprintf("%s: calls made by server tool calls nest deeper than %d levels", it.at, run.MaxNestedDepth)
		}
		c.Parent, c.Depth = p, parent.Depth+1
	}
	if it.server && c.ID != "" {
		if cv.servers == nil {
			cv.servers = map[string]int{}
		}
		if _, dup := cv.servers[c.ID]; dup {
			cv.servers[c.ID] = -1
		} else {
			cv.servers[c.ID] = c.Index
		}
	}
	return ""
}

// toolChange returns the type of the first tool_addition or tool_removal
// block of a message's content, or "": such blocks are the beta API's
// mid-conversation system message, which no other format has.
func toolChange(content any) string {
	list, _ := content.([]any)
	for _, raw := range list {
		if b, ok := raw.(map[string]any); ok {
			if t, _ := b["type"].(string); t == "tool_addition" || t == "tool_removal" {
				return t
			}
		}
	}
	return ""
}

// sameCaller checks that a server tool's result block that names its
// call's caller names the one the call's block did: the model (its call
// top level) or the server tool call that is its parent. Disagreeing,
// the two blocks leave who made the call unclear.
func (cv *conv) sameCaller(it item, c *run.Call) string {
	if !it.hasCaller {
		return ""
	}
	if it.caller == "" {
		if c.Parent >= 0 {
			return fmt.Sprintf("%s: its call %q was made by the server tool call %q, but its caller says the model made it", it.at, build.Clip(c.ID, 100), build.Clip(cv.rn.Calls[c.Parent].ID, 100))
		}
		return ""
	}
	if p, ok := cv.servers[it.caller]; !ok || p < 0 || p != c.Parent {
		return fmt.Sprintf("%s: caller.tool_id %q is not the server tool call that made its call %q", it.at, build.Clip(it.caller, 100), build.Clip(c.ID, 100))
	}
	return ""
}
