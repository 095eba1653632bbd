package responses

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// records frames text with Frame and returns each record as "line:data"
// and each error as "ERR line:msg".
func frameAll(t *testing.T, text string) []string {
	t.Helper()
	rr := Frame("f.json", strings.NewReader(text), frame.Options{})
	var got []string
	for i := 0; i < 100; i++ {
		rec, err := rr.Next()
		if err == io.EOF {
			return got
		}
		var fe *frame.Error
		if errors.As(err, &fe) {
			got = append(got, "ERR "+itoa(fe.Line)+":"+fe.Msg)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, itoa(rec.Origin.Line)+":"+string(rec.Data))
	}
	t.Fatal("no io.EOF after 100 records")
	return nil
}

// TestFramePrettyPrinted: a file that is one pretty-printed JSON document
// is one error, at its first line, naming the cause and the jq command
// that makes JSONL of it; before, each of its lines was an "invalid JSON"
// error of its own (27 for a short Response). JSONL passes as before.
func TestFramePrettyPrinted(t *testing.T) {
	object := "{\n  \"id\": \"resp_1\",\n  \"output\": []\n}\n"
	check(t, "object", frameAll(t, object), []string{
		`ERR 1:the file is one pretty-printed JSON document (an object over many lines), not JSONL (one record per line): write it on one line, e.g. jq -c . FILE > FILE.jsonl`,
	})
	check(t, "list after blank lines", frameAll(t, "\n\n  [  \r\n  {\"output\": []}\n]\n"), []string{
		`ERR 3:the file is one pretty-printed JSON document (a list over many lines), not JSONL (one record per line): write one record per line, e.g. jq -c '.[]' FILE > FILE.jsonl`,
	})
	check(t, "jsonl", frameAll(t, "\n{\"output\": []}\n[]\n{\n"), []string{`2:{"output": []}`, `3:[]`, `4:{`})
	check(t, "empty", frameAll(t, ""), []string(nil))
	_, _, msg := Decode([]byte("{"))
	check(t, "Decode of a lone {", msg, `invalid JSON (offset 1): unexpected end of JSON input (a line holding only "{" or "[" starts a JSON document pretty-printed over many lines, which is not JSONL: jq -c makes one line of it)`)
}

// TestSniffedShapesRead: every shape the sniffer claims for this format
// is read by Decode, or refused with a reason naming the place and the
// likely cause — never the chat readers' "messages" hint. Before, a
// logged call {"request": {"input"}, "response"} was claimed and then
// refused as a transcript under "request" or as a tool call (its tools).
func TestSniffedShapesRead(t *testing.T) {
	for _, tc := range []struct{ rec, want string }{
		{`{"object": "response", "status": "completed", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]}`, "run"},
		{`{"object": "response", "id": "resp_1"}`, `output: missing (a Response object ("object": "response") has "output" items)`},
		{`{"object": "response", "id": "resp_1", "status": "queued"}`,
			`status "queued": the response did not complete, so its output is not the agent's whole answer (a call may be cut off mid-arguments); leave it out or run it again`},
		{`{"input": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}], "output": [{"type": "reasoning", "id": "rs_1", "summary": []}]}`, "run"},
		{`{"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}`, "run"},
		{`{"request": {"input": "hi", "tools": [{"type": "function", "name": "f"}]}, "response": {"output": []}}`, "run"},
		{`{"request": {"input": [{"role": "user", "content": "hi"}]}, "response": {"object": "response", "output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}}`, "run"},
		{`{"request": {"input": [{"type": "function_call_output", "call_id": "c", "output": "x"}]}}`,
			`response: nothing (missing) (a request without its response: log the Response object as "response", with its "output" items)`},
		{`{"request": {"input": "hi"}, "response": {"object": "response.input_tokens", "input_tokens": 3}}`,
			`response.output: missing (a Responses API Response has "output" items; this one's object is "response.input_tokens", not a Response)`},
	} {
		if !Sniff([]byte(tc.rec)) {
			t.Errorf("%s: not sniffed", tc.rec)
			continue
		}
		rn, skip, msg := Decode([]byte(tc.rec))
		got := msg
		switch {
		case rn != nil:
			got = "run"
		case skip:
			got = "skip"
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.rec, got, tc.want)
		}
	}
}
