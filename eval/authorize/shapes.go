package authorize

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Shape names the form a pending call was written in.
type Shape int

// The call shapes ReadCall accepts.
const (
	ShapeOpenAIToolCall   Shape = iota + 1 // {"id", "type": "function", "function": {"name", "arguments"}}
	ShapeOpenAIFunction                    // {"name", "arguments"} (a function_call, or a Responses function_call item)
	ShapeMCPToolsCall                      // {"jsonrpc": "2.0", "id", "method": "tools/call", "params": {"name", "arguments"}}
	ShapeAnthropicToolUse                  // {"type": "tool_use", "id", "name", "input"}
)

var shapeNames = [...]string{ShapeOpenAIToolCall: "openai-tool-call", ShapeOpenAIFunction: "openai-function", ShapeMCPToolsCall: "mcp-tools-call", ShapeAnthropicToolUse: "anthropic-tool-use"}

func (s Shape) String() string {
	if s > 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// shapesAccepted is the sentence a refusal ends with.
const shapesAccepted = `want an OpenAI tool call {"type": "function", "function": {"name", "arguments"}}, a function call {"name", "arguments"}, an MCP tools/call request {"method": "tools/call", "params": {"name", "arguments"}} or an Anthropic tool_use block {"type": "tool_use", "name", "input"}`

// ShapeError is a JSON value that is not a call of an accepted shape.
type ShapeError struct{ Msg string }

func (e *ShapeError) Error() string { return e.Msg }

// ReadCall reads one call from its JSON text, in any accepted Shape.
// Duplicate member names and invalid UTF-8 are refused (as transcripts
// are read), so that no two readers can take a call to say different
// things.
//
// A number that tenet would read as another number (an integer beyond
// 2^53, a decimal with more digits than a float64 holds) is refused too,
// in the call and in any JSON text its strings hold: a tool runtime that
// reads it exactly would act on a resource the decision did not see.
func ReadCall(data []byte) (Call, Shape, error) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return Call{}, 0, &ShapeError{Msg: msg}
	}
	if err := exactNumbers(data, ""); err != nil {
		return Call{}, 0, err
	}
	if err := exactInStrings(v, 0); err != nil {
		return Call{}, 0, err
	}
	return CallOf(v)
}

// CallOf reads a call from a decoded JSON value (see ReadCall).
func CallOf(v any) (Call, Shape, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return Call{}, 0, &ShapeError{Msg: "a call is a JSON object, got " + build.Kind(v) + "; " + shapesAccepted}
	}
	fail := func(format string, args ...any) (Call, Shape, error) {
		return Call{}, 0, &ShapeError{Msg: fmt.Sprintf(format, args...)}
	}
	if err := oneShape(obj); err != nil {
		return Call{}, 0, err
	}
	typ, _ := obj["type"].(string)
	method, hasMethod := obj["method"]
	switch {
	case hasMethod:
		if err := onlyMembers(obj, "an MCP tools/call request", "jsonrpc", "id", "method", "params"); err != nil {
			return Call{}, 0, err
		}
		if method != "tools/call" {
			return fail("method %s: only tools/call requests are calls to decide", clipJSON(method))
		}
		params, ok := obj["params"].(map[string]any)
		if !ok {
			return fail("params: want the object {name, arguments} of a tools/call request, got %s", build.KindOrMissing(obj, "params"))
		}
		// _meta is protocol metadata (MCP); any other member may carry what a
		// server reads as the call (tenet gateway refuses it too).
		if err := onlyMembers(params, "a tools/call request's params", "name", "arguments", "_meta"); err != nil {
			return Call{}, 0, err
		}
		c, err := named(params, "params.name", "arguments", "params.arguments")
		if err != nil {
			return Call{}, 0, err
		}
		// A JSON-RPC id is a string or a number; any other would be
		// dropped from the decision unseen, so it is refused instead
		// (absent: a notification, decided without an id).
		if id, has := obj["id"]; has {
			if _, ok := id.(string); !ok {
				if _, ok := id.(float64); !ok {
					return fail("id: a tools/call request's id is a string or a number (JSON-RPC 2.0), got %s", build.Kind(id))
				}
			}
		}
		c.ID = IDText(obj["id"])
		return c, ShapeMCPToolsCall, nil
	case typ == "function" || obj["function"] != nil:
		fn, ok := obj["function"].(map[string]any)
		if !ok {
			return fail("function: want the object {name, arguments} of an OpenAI tool call, got %s", build.KindOrMissing(obj, "function"))
		}
		if err := onlyMembers(obj, "an OpenAI tool call", "id", "type", "function", "index"); err != nil {
			return Call{}, 0, err
		}
		if err := onlyMembers(fn, "an OpenAI tool call's function", "name", "arguments"); err != nil {
			return Call{}, 0, err
		}
		c, err := named(fn, "function.name", "arguments", "function.arguments")
		if err != nil {
			return Call{}, 0, err
		}
		c.ID, _ = obj["id"].(string)
		return c, ShapeOpenAIToolCall, nil
	case typ == "tool_use":
		if err := onlyMembers(obj, "an Anthropic tool_use block", "type", "id", "name", "input", "cache_control"); err != nil {
			return Call{}, 0, err
		}
		c, err := named(obj, "name", "input", "input")
		if err != nil {
			return Call{}, 0, err
		}
		c.ID, _ = obj["id"].(string)
		return c, ShapeAnthropicToolUse, nil
	case obj["name"] != nil:
		if _, ok := obj["arguments"]; !ok {
			if _, in := obj["input"]; in {
				return fail(`a call with "name" and "input" is an Anthropic tool_use block: add "type": "tool_use"`)
			}
		}
		if err := onlyMembers(obj, "a function call", "name", "arguments", "id", "call_id", "type", "status"); err != nil {
			return Call{}, 0, err
		}
		c, err := named(obj, "name", "arguments", "arguments")
		if err != nil {
			return Call{}, 0, err
		}
		c.ID, _ = obj["call_id"].(string) // a Responses function_call item
		if c.ID == "" {
			c.ID, _ = obj["id"].(string)
		}
		return c, ShapeOpenAIFunction, nil
	}
	return fail("not a call: %s", shapesAccepted)
}

// shapeMark is a top-level member (or member value) that identifies a
// call shape: an object may carry a shape's other members (ids, "jsonrpc",
// "status") freely, but not the marks of two shapes.
type shapeMark struct {
	shape  Shape
	member string
}

// shapeMarks lists the marks found at obj's top level, in Shape order. A
// member whose value is null marks nothing: it carries no call.
//
//   - openai-tool-call: "function", or "type": "function"
//   - openai-function: "arguments", or "type": "function_call"
//   - mcp-tools-call: "method" or "params"
//   - anthropic-tool-use: "input", or "type": "tool_use"
//
// A top-level "name" belongs to the two flat shapes (openai-function,
// anthropic-tool-use): beside the marks of a nested shape and of no flat
// one, it marks openai-function, since a runtime reading the object flat
// would run the tool it names.
func shapeMarks(obj map[string]any) []shapeMark {
	var marks []shapeMark
	typ, _ := obj["type"].(string)
	has := func(k string) bool { return obj[k] != nil }
	if has("function") {
		marks = append(marks, shapeMark{ShapeOpenAIToolCall, `"function"`})
	}
	if typ == "function" {
		marks = append(marks, shapeMark{ShapeOpenAIToolCall, `"type": "function"`})
	}
	if has("arguments") {
		marks = append(marks, shapeMark{ShapeOpenAIFunction, `"arguments"`})
	}
	if typ == "function_call" {
		marks = append(marks, shapeMark{ShapeOpenAIFunction, `"type": "function_call"`})
	}
	if has("method") {
		marks = append(marks, shapeMark{ShapeMCPToolsCall, `"method"`})
	}
	if has("params") {
		marks = append(marks, shapeMark{ShapeMCPToolsCall, `"params"`})
	}
	if has("input") {
		marks = append(marks, shapeMark{ShapeAnthropicToolUse, `"input"`})
	}
	if typ == "tool_use" {
		marks = append(marks, shapeMark{ShapeAnthropicToolUse, `"type": "tool_use"`})
	}
	if has("name") && len(marks) > 0 && !slices.ContainsFunc(marks, func(m shapeMark) bool {
		return m.shape == ShapeOpenAIFunction || m.shape == ShapeAnthropicToolUse
	}) {
		marks = append(marks, shapeMark{ShapeOpenAIFunction, `"name"`})
	}
	slices.SortStableFunc(marks, func(a, b shapeMark) int { return int(a.shape) - int(b.shape) })
	return marks
}

// oneShape refuses an object that carries the marks of more than one call
// shape: tenet would decide one of its calls and a runtime might run the
// other, so no reading of it is safe.
func oneShape(obj map[string]any) error {
	marks := shapeMarks(obj)
	var parts []string
	for i, m := range marks {
		if i > 0 && marks[i-1].shape == m.shape {
			parts[len(parts)-1] += ", " + m.member
			continue
		}
		parts = append(parts, m.shape.String()+" ("+m.member)
	}
	if len(parts) < 2 {
		return nil
	}
	for i := range parts {
		parts[i] += ")"
	}
	return &ShapeError{Msg: "one object, " + strings.Join(parts, " and ") + ": more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape"}
}

// named reads {name, <argKey>} from obj; field and argField name them in
// messages.
func named(obj map[string]any, field, argKey, argField string) (Call, error) {
	key := field[strings.LastIndex(field, ".")+1:] // "params.name" → "name"
	name, ok := obj[key].(string)
	if !ok || name == "" {
		got := build.KindOrMissing(obj, key)
		if ok {
			got = "an empty string"
		}
		return Call{}, &ShapeError{Msg: field + ": want the tool's name, a non-empty string, got " + got}
	}
	c := Call{Tool: name}
	c.Args, c.ArgsError = build.ParseArgs(argField, obj[argKey])
	return c, nil
}

// IDText renders a decoded JSON-RPC id (a string or a number) as a
// decision's ID: a string as it is, a number as Go prints a float64; ""
// for anything else.
func IDText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(v)
	}
	return ""
}

// clipJSON renders a value for a message, cut short.
func clipJSON(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", build.Clip(s, 80))
	}
	return build.Kind(v)
}

// onlyMembers refuses a member of obj not among allowed (null ones aside):
// a call object
// carrying more than its shape's members may be read by a tool runtime as
// something the decision did not see (a second call, other arguments).
func onlyMembers(obj map[string]any, what string, allowed ...string) error {
	var extra []string
	for k, v := range obj {
		if v != nil && !slices.Contains(allowed, k) { // null carries nothing
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	quoted := make([]string, len(extra))
	for i, k := range extra {
		quoted[i] = fmt.Sprintf("%q", build.Clip(k, 80))
	}
	return &ShapeError{Msg: fmt.Sprintf("%s holds %s besides its members (%s): a tool runtime may read it as part of the call, which this decision would not have seen; send only the call's members", what, strings.Join(quoted, ", "), strings.Join(allowed, ", "))}
}

// exactNumbers refuses a number in the JSON text data that a float64 does
// not hold exactly enough to be written back as the same number: the
// literal and the shortest form of the float64 it is read as must denote
// one value (9007199254740993 is read as 9007199254740992; 0.1 is fine).
// where names the JSON text in the message ("" for the call itself).
func exactNumbers(data []byte, where string) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil // the end, or text DecodeJSON already judged
		}
		// A JSON-RPC id is echoed as written, never acted on: only the
		// call's own numbers matter.
		if tok.Kind() != '0' || (where == "" && dec.StackPointer() == "/id") {
			continue
		}
		lit := tok.String()
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			continue // out of range: DecodeJSON refuses it
		}
		want, ok1 := new(big.Rat).SetString(lit)
		got, ok2 := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		if ok1 && ok2 && want.Cmp(got) != 0 {
			at := ""
			if where != "" {
				at = " in " + where
			}
			read := strconv.FormatFloat(f, 'g', -1, 64)
			if f == math.Trunc(f) && math.Abs(f) < 1e21 {
				read = strconv.FormatFloat(f, 'f', -1, 64) // an integer, written as one
			}
			return &ShapeError{Msg: fmt.Sprintf("number %s%s is read as %s (a float64 does not hold it exactly): a tool runtime reading it exactly would act on another value than the one decided; send it as a string", build.Clip(lit, 80), at, read)}
		}
	}
}

// exactInStrings applies exactNumbers to the strings of v that hold JSON
// text (arguments sent as a JSON string, at any depth: nested calls carry
// theirs so), depth-bounded as nested calls are.
func exactInStrings(v any, depth int) error {
	if depth > run.MaxNestedDepth*2 {
		return nil
	}
	switch v := v.(type) {
	case string:
		t := strings.TrimSpace(v)
		if t == "" || (t[0] != '{' && t[0] != '[') {
			return nil
		}
		inner, msg := build.DecodeJSON([]byte(t), false)
		if msg != "" {
			return nil // not JSON text: data
		}
		if err := exactNumbers([]byte(t), "a JSON string argument"); err != nil {
			return err
		}
		return exactInStrings(inner, depth+1)
	case map[string]any:
		for _, e := range v {
			if err := exactInStrings(e, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range v {
			if err := exactInStrings(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
