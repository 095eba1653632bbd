package mcp

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// FuzzMCP checks that the mcp reader never panics, frames at most one
// record, reports framing errors as *frame.Error at an existing line, and
// returns well-formed runs: indexes in place, every result matched to a
// call, and an unanswered call never read as "did not run".
func FuzzMCP(f *testing.F) {
	canonical, err := os.ReadFile("../../../examples/formats/mcp/transcript.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(canonical),
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{"a":[1,{"name":"g","arguments":{}}]}}}` + "\n" +
			`{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"g"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"f"}}` + "\r\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"boom"}}` + "\n" +
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"stray"}],"isError":true}}`,
		`[{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"a"}},{"jsonrpc":"2.0","id":"x","result":{"content":[],"structuredContent":[1]}}]`,
		`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[]}}` + "\n" + `{"jsonrpc":"2.0","id":9,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`,
		"\ufeff\n{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
		// A task-augmented call followed to tasks/result, one whose task
		// failed, and a server request reusing the client's pending id.
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","task":{"ttl":5}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t","status":"working"}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t","status":"working"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t"}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"result":{"taskId":"t","status":"completed"}}` + "\n" +
			`{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"t"}}` + "\n" +
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"x"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"g","task":{}}}` + "\n" +
			`{"jsonrpc":"2.0","id":4,"result":{"task":{"taskId":"u","status":"working"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":"u"}}` + "\n" +
			`{"jsonrpc":"2.0","id":5,"result":{"taskId":"u","status":"failed","statusMessage":"no"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"y"},"model":"m"}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		// A response with another id than the pending call's (review 15).
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send_email","arguments":{"to":"bob"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"ok"}]}}`,
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth uint8) {
		rr := Frame("f.jsonl", bytes.NewReader(data), frame.Options{MaxDepth: int(depth)})
		rec, err := rr.Next()
		if err == io.EOF {
			if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) != 0 {
				t.Fatal("no record from a non-blank file")
			}
			return
		}
		if err != nil {
			var fe *frame.Error
			if !errors.As(err, &fe) || fe.File != "f.jsonl" || fe.Line < 1 || fe.Line > bytes.Count(data, []byte{'\n'})+1 {
				t.Fatalf("error %v (%T) not at a line of the file", err, err)
			}
			return
		}
		if _, err := rr.Next(); err != io.EOF {
			t.Fatalf("second Next: %v, want io.EOF", err)
		}
		rn, skip, msg := Decode(rec.Data)
		if skip {
			t.Fatal("skip")
		}
		if msg != "" {
			if rn != nil {
				t.Fatal("a run with an error")
			}
			return
		}
		if got := len(rn.Record["messages"].([]any)); got != len(rn.Events) {
			t.Fatalf("%d messages, %d events", got, len(rn.Events))
		}
		for i, ev := range rn.Events {
			if ev.Index != i {
				t.Fatalf("event %d has index %d", i, ev.Index)
			}
		}
		for i, c := range rn.Calls {
			if c.Index != i {
				t.Fatalf("call %d has index %d", i, c.Index)
			}
			if c.ResultEvent >= len(rn.Events) {
				t.Fatalf("call %d: result event %d of %d", i, c.ResultEvent, len(rn.Events))
			}
			if c.ResultEvent >= 0 && rn.Events[c.ResultEvent].Role != roleResult {
				t.Fatalf("call %d: result event role %q", i, rn.Events[c.ResultEvent].Role)
			}
			if c.ResultEvent == -1 && c.Parent == -1 && c.OkUnknown == "" {
				t.Fatalf("call %d: no response, yet its outcome is known", i)
			}
			// A result is given by id, never by place: its event names
			// the call's own id (a task's result, the task's call).
			if c.ResultEvent >= 0 && c.Parent == -1 && rn.Events[c.ResultEvent].CallID != c.ID {
				t.Fatalf("call %d (id %q): result event %d answers id %q", i, c.ID, c.ResultEvent, rn.Events[c.ResultEvent].CallID)
			}
		}
	})
}
