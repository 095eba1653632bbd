package mcp

import (
	"reflect"
	"strings"
	"testing"
)

// A response answers the pending request with its id and no other (review
// 15, finding 1): one whose id no pending request holds is refused at its
// line, never given to a pending call by position, which made a send whose
// response the log lacks read as ok.
func TestStrayResponse(t *testing.T) {
	call7 := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send_email","arguments":{"to":"bob"}}}`
	for _, tc := range []struct{ name, in, want string }{
		{"other id", call7 + "\n" + `{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"ok"}]}}`,
			`line 2: id 8 answers no request: no request with this id is in the session before it (a response answers the pending request of the same id; a log that starts after the request is not read)`},
		{"other id, not a tool result", call7 + "\n" + `{"jsonrpc":"2.0","id":8,"result":{}}`,
			`line 2: id 8 answers no request: no request with this id is in the session before it (a response answers the pending request of the same id; a log that starts after the request is not read)`},
		{"other id, an error", call7 + "\n" + `{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}`,
			`line 2: id "x" answers no request: no request with this id is in the session before it (a response answers the pending request of the same id; a log that starts after the request is not read)`},
		{"second response", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}` + "\n" + call7 + "\n" + `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
			`line 4: id 1 answers no request: the request with this id was answered at line 2, and JSON-RPC gives a request one response`},
		{"the other form", call7 + "\n" + `{"jsonrpc":"2.0","id":"7","result":{"content":[]}}`,
			`line 2: id "7" answers no request, but a request has the id "7" in its other form: JSON-RPC tells the ids 1 and "1" apart`},
		{"null id", call7 + "\n" + `{"jsonrpc":"2.0","id":null,"result":{"content":[]}}`,
			`line 2: a response with a result and no id (or a null id) answers no request: JSON-RPC pairs a response with the request of the same id`},
		// tasks.go: a second tasks/result response for a task whose call
		// has its result went to the send pending after it.
		{"second tasks/result", strings.Join([]string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","task":{}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"t1"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"notes"}]}}`,
			call7,
			`{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"t1"}}`,
			`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"ok"}]}}`,
		}, "\n"), `line 7: a second tasks/result response for the task "t1", whose result line 4 gave already, so which is the tools/call's result is unclear`},
		{"no id", call7 + "\n" + `{"jsonrpc":"2.0","result":{"content":[]}}`,
			`line 2: a response with a result and no id (or a null id) answers no request: JSON-RPC pairs a response with the request of the same id`},
	} {
		rn, msg := read(t, tc.in)
		if msg != tc.want || rn != nil {
			t.Errorf("%s:\n got %q (run %v)\nwant %q", tc.name, msg, rn != nil, tc.want)
		}
	}
	// The right id after the stray one's place still answers its call;
	// the call with no response is unknown.
	rn, msg := read(t, strings.Join([]string{
		call7,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"f"}}`,
		`{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"done"}]}}`,
	}, "\n"))
	if msg != "" {
		t.Fatal(msg)
	}
	want := []callView{
		{"7", "send_email", map[string]any{"to": "bob"}, false, "", "", noResponse, 0, -1},
		{"a", "f", map[string]any{}, true, "done", "", "", 1, 2},
	}
	if got := calls(rn); !reflect.DeepEqual(got, want) {
		t.Errorf("calls =\n%+v\nwant\n%+v", got, want)
	}
}
