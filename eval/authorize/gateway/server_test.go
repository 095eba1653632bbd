package gateway_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The MCP server of these tests is this test binary itself, re-executed
// with serverEnv set: a small stdio server written for the tests rather
// than one built on an MCP SDK, because the tests need a server that
// records every byte it receives (to prove a refused call never reached
// it), echoes ids byte for byte, holds an answer on request and dies on
// cue — behaviour an SDK's server hides behind its own parsing.
const (
	serverEnv = "TENET_GATEWAY_TEST_SERVER" // the mode: "normal" or "die-on-call"
	recordEnv = "TENET_GATEWAY_TEST_RECORD" // the file every received line is appended to
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverEnv); mode != "" {
		os.Exit(testServer(mode))
	}
	os.Exit(m.Run())
}

// toolsListResult is what the test server offers: read_fixture as the
// contract declares it, update_fixture with a drifted schema (value a
// string, note required), and a tool the contract does not declare.
const toolsListResult = `{"tools":[` +
	`{"name":"read_fixture","description":"read","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},` +
	`{"name":"update_fixture","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"},"note":{"type":"string"}},"required":["id","value","note"]}},` +
	`{"name":"delete_everything","inputSchema":{"type":"object","properties":{}}}]}`

// testServer is the MCP server: one JSON-RPC message per line in, one per
// line out. It writes one line to standard error when it starts.
func testServer(mode string) int {
	rec, err := os.OpenFile(os.Getenv(recordEnv), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test server:", err)
		return 2
	}
	defer rec.Close()
	fmt.Fprintln(os.Stderr, "test server: started")
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	var held, asked json.RawMessage // a held request's id; the test/ask request's id
	respond := func(id json.RawMessage, result string) {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
	}
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if _, werr := rec.Write(line); werr != nil {
				return 2
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name      string            `json:"name"`
					Arguments json.RawMessage   `json:"arguments"`
					IDs       []json.RawMessage `json:"ids"` // test/stray's
				} `json:"params"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &m) != nil {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"test server: parse error"}}`+"\n")
			}
			switch {
			case m.Method == "initialize":
				respond(m.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"test","version":"1"}}`)
			case m.Method == "tools/list":
				respond(m.ID, toolsListResult)
			case m.Method == "tools/call" && mode == "die-on-call":
				out.Flush()
				return 3
			case m.Method == "tools/call":
				text, _ := json.Marshal(m.Params.Name + " " + string(m.Params.Arguments))
				respond(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
			case m.Method == "test/junk": // lines the gateway must drop, then the answer
				fmt.Fprintf(out, "not JSON\n")
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"x":1},"result":{"x":2}}`+"\n", m.ID)
				fmt.Fprintf(out, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"x\":\"\xff\"}}\n", m.ID)
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"x":"%s"}}`+"\n", m.ID, strings.Repeat("y", 2<<20))
				respond(m.ID, `{"after":"junk"}`)
			case m.Method == "test/stray": // answers nobody awaits, a request of its own, then its answer twice
				for _, id := range m.Params.IDs {
					respond(id, `{"stray":true}`)
				}
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":999,"error":{"code":-32000,"message":"stray"}}`+"\n")
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"stray"}}`+"\n")
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":4,"method":"roots/list"}`+"\n")
				respond(m.ID, `{"once":true}`)
				respond(m.ID, `{"twice":true}`)
			case m.Method == "ping":
				respond(m.ID, `{}`)
			case m.Method == "test/hold":
				held = m.ID
			case m.Method == "test/release": // a notification
				respond(held, `{"released":true}`)
			case m.Method == "test/ask": // answered after the client answers the server's own request
				asked = m.ID
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[]}}`+"\n")
			case m.Method == "" && string(m.ID) == `"s1"`:
				respond(asked, `{"client said":`+string(m.Result)+`}`)
			case m.Method == "" || strings.HasPrefix(m.Method, "notifications/"):
			default:
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
			}
			if err := out.Flush(); err != nil {
				return 2
			}
		}
		if err != nil {
			return 0
		}
	}
}
