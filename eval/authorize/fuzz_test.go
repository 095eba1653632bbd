package authorize_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/runs"
)

// FuzzReadCall reads arbitrary bytes as a pending call and, when they are
// one, decides it under examples/seed-fixtures' grant "host" (which allows
// only (read, F1)): no panic; ReadCall refuses with a *ShapeError and
// Authorize with a *CallError only; reading and deciding twice give the
// same JSON; the arguments are not changed; no undeclared tool is ever
// authorized; and a call allowed is authorized with every call nested in
// it.
func FuzzReadCall(f *testing.F) {
	for _, s := range concurrentCalls() {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		// The accepted shapes.
		`{"id":"c1","type":"function","function":{"name":"read_fixture","arguments":"{\"id\":\"F1\"}"}}`,
		`{"name":"read_fixture","arguments":"{\"id\":\"F1\"}","call_id":"r1"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F2"}}}`,
		`{"type":"tool_use","id":"t1","name":"read_fixture","input":{"id":"F1"}}`,
		`{"name":"multi_tool_use.parallel","arguments":{"tool_uses":[{"recipient_name":"functions.read_fixture","parameters":{"id":"F1"}}]}}`,
		`{"name":"read_fixture","arguments":{"id":"F1","n":{"function":"update_fixture","args":{"id":"F1"}}}}`,
		// Hostile: refused shapes, smuggled grants, odd ids, bad bytes.
		`{"name":"read_fixture","arguments":{"id":"F1"},"grant":"admin","allow":["*"]}`,
		`{"name":"read_fixture","arguments":{"id":"*"}}`,
		`{"name":"read_fixture","arguments":{"id":null}}`,
		`{"name":"read_fixture","arguments":"\"F1\""}`,
		`{"name":"read_fixture","arguments":{"id":"F1"},"name":"update_fixture"}`,
		`{"method":"tools/call","params":{"name":"read_fixture","arguments":[1]}}`,
		`{"method":"tools/call","id":1e400,"params":{"name":"read_fixture"}}`,
		`{"name":"multi_tool_use.parallel","arguments":{"tool_uses":{}}}`,
		`{"name":"read_fixture","arguments":{"id":"F1","x":{"type":"tool_use","name":7}}}`,
		"{\"name\":\"read_\xff\",\"arguments\":{}}",
		`{"name":"read_fixture","arguments":{"id":"F1"}} {"name":"x"}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
		``, `null`, `"call"`, `{}`,
	} {
		f.Add([]byte(s))
	}
	a := seed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, shape, err := authorize.ReadCall(data)
		if err != nil {
			var se *authorize.ShapeError
			if !errors.As(err, &se) {
				t.Fatalf("ReadCall error %T %v, want a *ShapeError", err, err)
			}
			return
		}
		if c.Tool == "" || shape < authorize.ShapeOpenAIToolCall || shape > authorize.ShapeAnthropicToolUse {
			t.Fatalf("read a call with tool %q, shape %v", c.Tool, shape)
		}
		before, _ := json.Marshal(c.Args)
		first := decideJSON(t, a, c)
		after, _ := json.Marshal(c.Args)
		if string(before) != string(after) {
			t.Fatalf("arguments changed:\n%s\n%s", before, after)
		}
		c2, _, err := authorize.ReadCall(data)
		if err != nil {
			t.Fatalf("read once, refused the second time: %v", err)
		}
		if second := decideJSON(t, a, c2); second != first {
			t.Fatalf("two decisions of one call:\n%s\n%s", first, second)
		}
		if strings.HasPrefix(first, "error: ") {
			return
		}
		var d authorize.Decision
		if err := json.Unmarshal([]byte(first), &d); err != nil {
			t.Fatal(err)
		}
		checkTree(t, a, &d, d.Allowed)
	})
}

// decideJSON is the decision of c under "host" as JSON, or its error.
func decideJSON(t *testing.T, a *authorize.Authorizer, c authorize.Call) string {
	d, err := a.Authorize(c, "host")
	if err != nil {
		var ce *authorize.CallError
		if !errors.As(err, &ce) {
			t.Fatalf("Authorize error %T %v, want a *CallError", err, err)
		}
		return "error: " + err.Error()
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkTree checks one decision and its nested ones: an undeclared tool
// is unregistered_tool, never authorized and has no capability; a
// declared one has the capability of its tool; a call is allowed only when
// authorized with all it carries; and under a call allowed (rootAllowed)
// every decision is authorized.
func checkTree(t *testing.T, a *authorize.Authorizer, d *authorize.Decision, rootAllowed bool) {
	tool, declared := a.Tool(d.Tool)
	switch {
	case !declared && (d.Decision != runs.UnregisteredTool || d.Allowed || d.Required != nil):
		t.Fatalf("undeclared tool %q: decision %s, allowed %v, required %+v", d.Tool, d.Decision, d.Allowed, d.Required)
	case declared && (d.Required == nil || d.Required.Operation != tool.Operation || d.Required.Param != tool.Resource):
		t.Fatalf("tool %q needs %+v, declared operation %q resource %q", d.Tool, d.Required, tool.Operation, tool.Resource)
	case rootAllowed && d.Decision != runs.Authorized:
		t.Fatalf("a call allowed carries %q decided %s (%s)", d.Tool, d.Decision, d.Detail)
	}
	all := d.Decision == runs.Authorized
	for i := range d.Nested {
		checkTree(t, a, &d.Nested[i], rootAllowed)
		all = all && d.Nested[i].Allowed
	}
	if d.Allowed != all {
		t.Fatalf("%q allowed %v, but its own decision is %s and its nested calls' allowed are %v", d.Tool, d.Allowed, d.Decision, nestedAllowed(d))
	}
}

func nestedAllowed(d *authorize.Decision) []bool {
	var out []bool
	for _, n := range d.Nested {
		out = append(out, n.Allowed)
	}
	return out
}
