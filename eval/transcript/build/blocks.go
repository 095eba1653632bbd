package build

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
)

// This file reads Anthropic content blocks — tool_use (a requested call)
// and tool_result (its result) — wherever a reader meets them: in an
// openai-messages record today, in an anthropic reader later. It knows the
// blocks only, not the messages that hold them.

// BlockResult is a tool_result block.
type BlockResult struct {
	CallID  string // tool_use_id
	Content string // the result's text
	Failed  bool   // is_error true
	Error   string // the error text when Failed: Content, or "true" when empty
}

// ContentBlocks reads the calls and results among a message's content
// blocks, in order, or says why a block is malformed ("content[N]: ...").
// A block whose type names a call, a tool or a function but is neither
// tool_use nor tool_result, an untyped block shaped like a call, and a
// block of another type with a key naming a call, a tool or a function
// (holding something that could carry one) are errors: this reader would otherwise read them as "no call" (see
// callShaped). Blocks of other types are left alone.
func ContentBlocks(blocks []any) (items []BlockItem, msg string) {
	for i, raw := range blocks {
		b, ok := raw.(map[string]any)
		if !ok {
			continue // a bare string or number carries no call
		}
		typ, hasType := b["type"].(string)
		if typ != "tool_use" && typ != "tool_result" {
			// Another block with a key such as Gemini's functionCall: a
			// call in a shape this reader does not know.
			if k := UnknownCallKey(b, nil); k != "" {
				return nil, fmt.Sprintf("content[%d]: key %q names a call, a tool or a function, but this reader knows calls in content only as \"tool_use\" blocks", i, k)
			}
		}
		if !hasType {
			if _, present := b["type"]; present && b["type"] != nil {
				if looksLikeCall(b) {
					return nil, fmt.Sprintf("content[%d]: type: want a string, got %s (the block has a call's keys)", i, Kind(b["type"]))
				}
			} else if shapes, _, _ := callShapes(b); len(shapes) > 0 || looksLikeCall(b) {
				return nil, fmt.Sprintf("content[%d]: a block shaped like a tool call has no \"type\" (want \"tool_use\")", i)
			}
			if err := ScanRest(b, nil, fmt.Sprintf("content[%d]", i)); err != "" {
				return nil, err
			}
			continue
		}
		switch typ {
		case "tool_use":
			c, err := toolUseBlock(b)
			if err != "" {
				return nil, fmt.Sprintf("content[%d] (tool_use): %s", i, err)
			}
			if err := ScanRest(b, toolUseKeys, fmt.Sprintf("content[%d]", i)); err != "" {
				return nil, err
			}
			items = append(items, BlockItem{Call: c})
		case "tool_result":
			r, err := toolResultBlock(b)
			if err != "" {
				return nil, fmt.Sprintf("content[%d] (tool_result): %s", i, err)
			}
			// Its content is the tool's output, data rather than calls.
			if err := ScanRest(b, toolResultKeys, fmt.Sprintf("content[%d]", i)); err != "" {
				return nil, err
			}
			items = append(items, BlockItem{Result: &r})
		case "compaction":
			// Anthropic's compaction block stands for the turns it
			// summarised: their calls need not be in the record.
			return nil, fmt.Sprintf("content[%d]: a \"compaction\" block: the conversation before it was compacted into a summary, so calls made before it may be missing from the record and what the agent did cannot be judged", i)
		default:
			if NamesCall(typ) {
				return nil, fmt.Sprintf("content[%d]: block type %q names a call, a tool or a function, but this reader knows only \"tool_use\" and \"tool_result\" blocks", i, typ)
			}
			// A text, image or thinking block: no field of it is read
			// but its text, so a call anywhere in it would be lost.
			if err := ScanRest(b, nil, fmt.Sprintf("content[%d]", i)); err != "" {
				return nil, err
			}
		}
	}
	return items, ""
}

// The fields of the tool_use and tool_result blocks the reader reads;
// ScanRest searches their others.
var (
	toolUseKeys    = map[string]bool{"type": true, "id": true, "name": true, "input": true}
	toolResultKeys = map[string]bool{"type": true, "tool_use_id": true, "content": true, "is_error": true}
)

// BlockItem is a tool_use (call) or a tool_result (result) block, kept in
// content order: a result may answer a call requested earlier in the same
// message.
type BlockItem struct {
	Call   *run.Call    // a tool_use block, or nil
	Result *BlockResult // a tool_result block, or nil
}

// NamesCall reports whether a key or block type names a call, a tool or a
// function: where such a name is not a shape the reader knows, a call could
// hide there.
func NamesCall(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "call") || strings.Contains(n, "tool") || strings.Contains(n, "function")
}

// looksLikeCall reports whether an untyped object has tool_use's keys
// (name and input).
func looksLikeCall(b map[string]any) bool {
	_, name := b["name"]
	_, input := b["input"]
	return name && input
}

// toolUseBlock reads {"type": "tool_use", "id": string, "name": string,
// "input": args}.
func toolUseBlock(b map[string]any) (*run.Call, string) {
	id, err := OptString(b, "id")
	if err != "" {
		return nil, err
	}
	name, ok := b["name"].(string)
	if !ok {
		if _, present := b["name"]; !present {
			return nil, "name: missing (a tool_use block names the tool it calls)"
		}
		return nil, "name: want a string, got " + Kind(b["name"])
	}
	c := &run.Call{ID: id, Tool: name, ResultEvent: -1, Parent: -1}
	c.Args, c.ArgsError = ParseArgs("input", b["input"])
	return c, ""
}

// toolResultBlock reads {"type": "tool_result", "tool_use_id": string,
// "content": string | [block, ...] | null, "is_error": bool | null}.
func toolResultBlock(b map[string]any) (BlockResult, string) {
	var r BlockResult
	id, err := OptString(b, "tool_use_id")
	if err != "" {
		return r, err
	}
	r.CallID = id
	switch c := b["content"].(type) {
	case nil:
	case string:
		r.Content = c
	case []any:
		r.Content = BlockText(c)
	default:
		return r, "content: want a string, null or a list of content blocks, got " + Kind(c)
	}
	switch e := b["is_error"].(type) {
	case nil:
	case bool:
		r.Failed = e
	default:
		return r, "is_error: want a boolean, got " + Kind(e)
	}
	if r.Failed {
		r.Error = r.Content
		if r.Error == "" {
			r.Error = "true"
		}
	}
	return r, ""
}
