package mcp

import (
	"reflect"
	"strings"
	"testing"
)

// JSON-RPC ids belong to their sender: a server's sampling/createMessage,
// roots/list or elicitation/create may reuse the id of the client's
// pending tools/call, and each response goes to the one request whose
// result's fields it has.
func TestIDSpaces(t *testing.T) {
	rn, msg := read(t, strings.Join([]string{
		/* 0 */ `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summarise","arguments":{"path":"a.txt"}}}`,
		/* 1 */ `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hello"}}],"maxTokens":20}}`,
		/* 2 */ `{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"a greeting"},"model":"m","stopReason":"endTurn"}}`,
		/* 3 */ `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`,
		/* 4 */ `{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}`,
		/* 5 */ `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"sure?","requestedSchema":{"type":"object","properties":{}}}}`,
		/* 6 */ `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"summary: a greeting"}]}}`,
		/* 7 */ `{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{}}}`,
		/* 8 */ `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		/* 9 */ `{"jsonrpc":"2.0","id":2,"method":"roots/list"}`,
		/* 10 */ `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`,
		/* 11 */ `{"jsonrpc":"2.0","id":2,"result":{"roots":[{"uri":"file:///x"}]}}`,
	}, "\n"))
	if msg != "" {
		t.Fatal(msg)
	}
	want := []callView{{"1", "summarise", map[string]any{"path": "a.txt"}, true, "summary: a greeting", "", "", 0, 6}}
	if got := calls(rn); !reflect.DeepEqual(got, want) {
		t.Errorf("calls =\n%+v\nwant\n%+v", got, want)
	}
	if got, want := roles(rn), "assistant mcp mcp mcp mcp mcp tool mcp mcp mcp mcp mcp"; got != want {
		t.Errorf("roles = %q, want %q", got, want)
	}
}

// Where the result's fields do not tell the two pending requests apart,
// or one of them may come from either side, the session is refused as
// before.
func TestIDSpacesUnclear(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}` + "\n"
	sampling := `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}` + "\n"
	for _, tc := range []struct{ in, want string }{
		{call + sampling + `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`, `line 3: id 1: the tools/call request of line 1 (client to server) and the sampling/createMessage request of line 2 (server to client) both await a response with this id, and an error response fits both, so which it answers is unclear`},
		{call + sampling + `{"jsonrpc":"2.0","id":1,"result":{}}`, `line 3: id 1: the tools/call request of line 1 (client to server) and the sampling/createMessage request of line 2 (server to client) both await a response with this id, and its result's fields fit neither, so which it answers is unclear`},
		{call + sampling + `{"jsonrpc":"2.0","id":1,"result":{"content":[],"role":"assistant","model":"m"}}`, `line 3: id 1: the tools/call request of line 1 (client to server) and the sampling/createMessage request of line 2 (server to client) both await a response with this id, and its result's fields fit both, so which it answers is unclear`},
		{sampling + `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`, `line 3: id 1: the sampling/createMessage request of line 1 (server to client) and the logging/setLevel request of line 2 (client to server) both await a response with this id, and its result's fields fit both, so which it answers is unclear`},
		{call + `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"a"}}`, `line 2: id 1: the tools/call request of line 1 with this id has no response yet, so which request a response answers is unclear`},
		{sampling + `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`, `line 2: id 1: the sampling/createMessage request of line 1 with this id has no response yet, so which request a response answers is unclear`},
	} {
		_, msg := read(t, tc.in)
		if msg != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.in, msg, tc.want)
		}
	}
}
