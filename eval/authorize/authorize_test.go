package authorize_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// seed is the Authorizer of examples/seed-fixtures, whose grant "host"
// allows only (read, F1).
func seed(t testing.TB) *authorize.Authorizer {
	p := evaltest.Program(t, "../../examples/seed-fixtures")
	return authorize.New(p.Bundle, p.ID)
}

func decide(t *testing.T, a *authorize.Authorizer, call string) authorize.Decision {
	t.Helper()
	c, _, err := authorize.ReadCall([]byte(call))
	if err != nil {
		t.Fatalf("ReadCall(%s): %v", call, err)
	}
	d, err := a.Authorize(c, "host")
	if err != nil {
		t.Fatalf("Authorize(%s): %v", call, err)
	}
	return d
}

func TestAuthorizeLayers(t *testing.T) {
	a := seed(t)
	for _, tc := range []struct{ call, want string }{
		{`{"name":"read_fixture","arguments":"{\"id\":\"F1\"}"}`,
			`{"allowed":true,"tool":"read_fixture","decision":"authorized","required":{"operation":"read","param":"id","resource":"F1"}}`},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F2"}}}`,
			`{"allowed":false,"tool":"read_fixture","id":"7","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (read, F2)","required":{"operation":"read","param":"id","resource":"F2"}}`},
		{`{"id":"c1","type":"function","function":{"name":"delete_fixture","arguments":"{}"}}`,
			`{"allowed":false,"tool":"delete_fixture","id":"c1","decision":"unregistered_tool","detail":"tool \"delete_fixture\" is not declared"}`},
		{`{"type":"tool_use","id":"t1","name":"read_fixture","input":{"id":7}}`,
			`{"allowed":false,"tool":"read_fixture","id":"t1","decision":"schema_types","detail":"argument id is the number 7, declared string","required":{"operation":"read","param":"id","resource":"7"}}`},
		{`{"name":"read_fixture","arguments":{}}`,
			`{"allowed":false,"tool":"read_fixture","decision":"schema_fields","detail":"missing id","required":{"operation":"read","param":"id"}}`},
		// A nested call refused refuses its carrier, though the carrier's own
		// layer is authorized.
		{`{"name":"read_fixture","arguments":{"id":"F1","x":{"name":"read_fixture","arguments":{"id":"F2"}}}}`,
			`{"allowed":false,"tool":"read_fixture","decision":"schema_fields","detail":"unexpected x","required":{"operation":"read","param":"id","resource":"F1"},"nested":[{"allowed":false,"tool":"read_fixture","decision":"missing_resource_capability","detail":"grant \"host\" does not allow (read, F2)","required":{"operation":"read","param":"id","resource":"F2"}}]}`},
	} {
		d := decide(t, a, tc.call)
		got, _ := json.Marshal(d)
		if string(got) != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.call, got, tc.want)
		}
	}
}

func TestAuthorizeChangesNothing(t *testing.T) {
	a := seed(t)
	args := map[string]any{"id": "F1", "grant": map[string]any{"allow": "*"}, "n": []any{map[string]any{"name": "update_fixture", "arguments": map[string]any{"id": "F1"}}}}
	before, _ := json.Marshal(args)
	d, err := a.Authorize(authorize.Call{Tool: "read_fixture", Args: args}, "host")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(args)
	if string(before) != string(after) {
		t.Errorf("arguments changed:\n%s\n%s", before, after)
	}
	if d.Allowed || len(d.Nested) != 1 || d.Nested[0].Decision != "schema_fields" || d.Nested[0].Detail != "missing value" {
		t.Errorf("decision %+v", d)
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	a := seed(t)
	if _, err := a.Authorize(authorize.Call{Tool: "read_fixture"}, "admin"); err == nil || err.Error() != `grant "admin" is not declared (the bundle's grants: host)` {
		t.Errorf("unknown grant: %v", err)
	}
	for call, want := range map[string]string{
		`[1]`:                                  "a call is a JSON object, got a list",
		`{"method":"tools/list"}`:              `method "tools/list": only tools/call requests are calls to decide`,
		`{"name":"x","input":{}}`:              `add "type": "tool_use"`,
		`{"function":{"name":""}}`:             "function.name: want the tool's name, a non-empty string, got an empty string",
		`{"name":"a","arguments":{},"name":1}`: "duplicate",
		`{"hello":1}`:                          "not a call",
		// An MCP request's id is a string or a number, never dropped unseen.
		`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`: "id: a tools/call request's id is a string or a number (JSON-RPC 2.0), got an object",
		`{"jsonrpc":"2.0","id":[7],"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`:     "id: a tools/call request's id is a string or a number (JSON-RPC 2.0), got a list",
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`:    "id: a tools/call request's id is a string or a number (JSON-RPC 2.0), got null",
		`{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`:    "id: a tools/call request's id is a string or a number (JSON-RPC 2.0), got a boolean",
	} {
		_, _, err := authorize.ReadCall([]byte(call))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadCall(%s) = %v, want %q", call, err, want)
		}
	}
	c := authorize.Call{Tool: "read_fixture", Args: map[string]any{"id": "F1", "x": map[string]any{"type": "tool_use"}}}
	if _, err := a.Authorize(c, "host"); err == nil || !strings.Contains(err.Error(), "tool_use object without a string name") {
		t.Errorf("unreadable nested call: %v", err)
	}
}

func TestEntriesNumberAsTheAudit(t *testing.T) {
	a := seed(t)
	d := decide(t, a, `{"name":"update_fixture","arguments":{"id":"F1","a":{"name":"read_fixture","arguments":{"id":"F1","b":{"name":"x","arguments":{}}}},"c":{"name":"read_fixture","arguments":{"id":"F2"}}}}`)
	var got []string
	for _, e := range d.Entries() {
		got = append(got, strings.Join([]string{e.Tool, e.Decision, itoa(e.Call), itoa(e.Parent)}, "/"))
	}
	want := []string{"x/unregistered_tool/3/1", "read_fixture/schema_fields/1/0", "read_fixture/missing_resource_capability/2/0", "update_fixture/schema_fields/0/-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestAuthorizeInAHistoryIsAuthorize(t *testing.T) {
	a := seed(t)
	c, _, err := authorize.ReadCall([]byte(`{"name":"update_fixture","arguments":{"id":"F1","a":{"name":"read_fixture","arguments":{"id":"F1","b":{"name":"x","arguments":{}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	history, err := authorize.CallRun(authorize.Call{Tool: "read_fixture", Args: map[string]any{"id": "F1", "n": map[string]any{"name": "read_fixture", "arguments": map[string]any{"id": "F2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	rn, pending, err := authorize.WithPending(history, c)
	if err != nil {
		t.Fatal(err)
	}
	if pending != 2 || len(rn.Calls) != 5 || len(history.Calls) != 2 || len(rn.Events) != 2 {
		t.Fatalf("pending %d, %d calls, %d events; history %d calls", pending, len(rn.Calls), len(rn.Events), len(history.Calls))
	}
	in, err := a.AuthorizeIn(rn, pending, "host")
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := a.Authorize(c, "host")
	if !reflect.DeepEqual(in, alone) {
		t.Errorf("in a history %+v\nalone %+v", in, alone)
	}
}
