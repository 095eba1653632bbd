package authorize_test

import (
	"errors"
	"strings"
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

// TestInexactNumbersRefused: a number a float64 does not hold exactly
// enough is refused wherever the call carries it, so that no runtime acts
// on a value the decision did not see (9007199254740993 was decided as
// 9007199254740992 while the server received the original bytes).
func TestInexactNumbersRefused(t *testing.T) {
	for _, tc := range []struct{ call, err string }{
		{`{"name":"upd","arguments":{"id":9007199254740993}}`, "number 9007199254740993 is read as 9007199254740992"},
		{`{"name":"upd","arguments":{"id":1234567890123456789}}`, "number 1234567890123456789 is read as 1234567890123456800"},
		{`{"name":"upd","arguments":{"x":1.00000000000000001}}`, "number 1.00000000000000001 is read as 1"},
		{`{"name":"upd","arguments":"{\"id\":9007199254740993}"}`, "number 9007199254740993 in a JSON string argument is read as 9007199254740992"},
		{`{"name":"upd","arguments":{"n":{"name":"upd","arguments":"{\"id\":-9007199254740995}"}}}`, "number -9007199254740995 in a JSON string argument"},
		{`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"upd","arguments":{"id":1}}}`, ""}, // an id is echoed, never acted on
		{`{"name":"upd","arguments":{"id":9007199254740992,"a":0.1,"b":1e2,"c":-0.0,"d":123456789.125,"s":"{\"x\":12345678901234567890"}}`, ""},
	} {
		_, _, err := authorize.ReadCall([]byte(tc.call))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ReadCall(%s): %v", tc.call, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ReadCall(%s) = %v, want %q", tc.call, err, tc.err)
		}
	}
}

// TestExtraMembersRefused: a call object holds only its shape's members
// (null ones aside): anything else may be what a runtime runs.
func TestExtraMembersRefused(t *testing.T) {
	for _, tc := range []struct{ call, err string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"call":{"name":"update_fixture","arguments":{}}}}`,
			`a tools/call request's params holds "call" besides its members (name, arguments, _meta)`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}},"tool_calls":[]}`,
			`an MCP tools/call request holds "tool_calls" besides its members`},
		{`{"name":"read_fixture","arguments":{"id":"F1"},"parameters":{"id":"F2"}}`, `a function call holds "parameters" besides its members`},
		{`{"type":"function","function":{"name":"read_fixture","arguments":"{}","input":{"id":"F2"}}}`, `an OpenAI tool call's function holds "input" besides its members (name, arguments)`},
		{`{"type":"tool_use","id":"t","name":"read_fixture","input":{"id":"F1"},"content":[{"type":"tool_use"}]}`, `an Anthropic tool_use block holds "content" besides its members`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"},"_meta":{"progressToken":1}}}`, ""},
		{`{"type":"function_call","id":"fc","call_id":"c","status":"completed","name":"read_fixture","arguments":"{}"}`, ""},
	} {
		_, _, err := authorize.ReadCall([]byte(tc.call))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ReadCall(%s): %v", tc.call, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ReadCall(%s) = %v, want %q", tc.call, err, tc.err)
		}
	}
}
