package authorize_test

import (
	"errors"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize"
)

// TestMixedShapesRefused: an object carrying the marks of two call shapes
// is refused, naming both shapes and their members, since tenet would
// decide one call and a runtime might run the other.
func TestMixedShapesRefused(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id":"1","type":"function","function":{"name":"read_fixture","arguments":{"id":"F1"}},"name":"update_fixture","arguments":{"id":"F2"}}`,
			`one object, openai-tool-call ("function", "type": "function") and openai-function ("arguments"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
		{`{"type":"function_call","name":"read_fixture","arguments":{"id":"F1"},"function":{"name":"update_fixture","arguments":{"id":"F2"}}}`,
			`one object, openai-tool-call ("function") and openai-function ("arguments", "type": "function_call"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}},"function":{"name":"update_fixture","arguments":{"id":"F2"}}}`,
			`one object, openai-tool-call ("function") and mcp-tools-call ("method", "params"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
		{`{"type":"tool_use","id":"t","name":"read_fixture","input":{"id":"F1"},"arguments":{"id":"F2"}}`,
			`one object, openai-function ("arguments") and anthropic-tool-use ("input", "type": "tool_use"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
		{`{"name":"update_fixture","arguments":{"id":"F2"},"params":{"name":"read_fixture","arguments":{"id":"F1"}}}`,
			`one object, openai-function ("arguments") and mcp-tools-call ("params"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
		// A bare top-level name beside a nested shape: a runtime reading
		// the object flat would run update_fixture.
		{`{"type":"function","function":{"name":"read_fixture","arguments":{"id":"F1"}},"name":"update_fixture"}`,
			`one object, openai-tool-call ("function", "type": "function") and openai-function ("name"): more than one call shape, so tenet and a tool runtime could read different calls from it; send each call in one shape`},
	} {
		_, shape, err := authorize.ReadCall([]byte(tc.in))
		var se *authorize.ShapeError
		if !errors.As(err, &se) || se.Msg != tc.want {
			t.Errorf("ReadCall(%s) = shape %v, error %v\nwant the ShapeError %s", tc.in, shape, err, tc.want)
		}
	}
}

// TestOneShapeAccepted: each shape with its own extra members (ids,
// "jsonrpc", "status", a null member of another shape) is still read.
func TestOneShapeAccepted(t *testing.T) {
	for _, tc := range []struct {
		in    string
		shape authorize.Shape
		id    string
	}{
		{`{"id":"c1","type":"function","function":{"name":"read_fixture","arguments":"{\"id\":\"F1\"}"}}`, authorize.ShapeOpenAIToolCall, "c1"},
		{`{"name":"read_fixture","arguments":{"id":"F1"}}`, authorize.ShapeOpenAIFunction, ""},
		{`{"type":"function_call","id":"fc_1","call_id":"r1","name":"read_fixture","arguments":"{}","status":"completed"}`, authorize.ShapeOpenAIFunction, "r1"},
		{`{"jsonrpc":"2.0","id":"7","method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`, authorize.ShapeMCPToolsCall, "7"},
		{`{"type":"tool_use","id":"t1","name":"read_fixture","input":{"id":"F1"}}`, authorize.ShapeAnthropicToolUse, "t1"},
		{`{"name":"read_fixture","arguments":{"id":"F1"},"function":null,"input":null}`, authorize.ShapeOpenAIFunction, ""},
	} {
		c, shape, err := authorize.ReadCall([]byte(tc.in))
		if err != nil || shape != tc.shape || c.Tool != "read_fixture" || c.ID != tc.id {
			t.Errorf("ReadCall(%s) = %+v, %v, %v; want read_fixture id %q as %v", tc.in, c, shape, err, tc.id, tc.shape)
		}
	}
}
