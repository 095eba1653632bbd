package responses

import (
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// FuzzOpenAIResponses checks that the openai-responses reader never
// panics, gives exactly one of a run, a skip or a message, and returns
// well-formed runs (indexes, matched results, unknown never read as ok).
func FuzzOpenAIResponses(f *testing.F) {
	for _, path := range []string{"testdata/samples.jsonl", "../../../examples/formats/openai-responses/transcript.jsonl"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line != "" {
				f.Add([]byte(line))
			}
		}
	}
	for _, seed := range []string{
		`[{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{\"x\": {\"function\": \"g\", \"args\": {}}}"}, {"type": "function_call_output", "call_id": "c", "output": "r", "is_error": true, "status": "success"}, {"type": "function_call_output", "call_id": "c", "output": "r"}]`,
		`[{"type": "function_call_output", "call_id": "c", "output": "r"}, {"type": "function_call", "call_id": "c", "name": "functions.f", "arguments": "{"}]`,
		`{"input": "hi", "output": [{"type": "mcp_call", "id": "m", "name": "n", "arguments": 3, "status": "in_progress"}], "instructions": [{"role": "system", "content": "s"}]}`,
		`{"metadata": {"x": [1]}}`,
		// The logged-call shape, a replayed item, usage counters and an
		// mcp_call's error object.
		`{"request": {"instructions": "s", "input": [{"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}], "tools": [{"type": "function", "name": "f"}]}, "response": {"status": "completed", "tool_usage": {"web_search": {"num_requests": 1}}, "output": [{"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}, {"type": "mcp_call", "id": "m", "name": "n", "arguments": "{}", "status": "failed", "error": {"type": "http_error", "code": 500, "message": "down"}}]}, "metadata": {"task": "t"}}`,
		`{"request": {"input": "hi"}, "response": {"object": "response.input_tokens", "input_tokens": 1}}`,
		`{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rn, skip, msg := Decode(data)
		switch {
		case msg != "":
			if rn != nil || skip {
				t.Fatalf("message %q with a run or a skip", msg)
			}
			return
		case skip:
			if rn != nil {
				t.Fatal("skip with a run")
			}
			return
		case rn == nil:
			t.Fatal("no run, no skip, no message")
		}
		checkRun(t, rn)
	})
}

// checkRun checks the structural invariants of a run.
func checkRun(t *testing.T, rn *run.Run) {
	t.Helper()
	if rn.Meta == nil || rn.Record == nil {
		t.Fatal("nil Meta or Record")
	}
	for i, e := range rn.Events {
		if e.Index != i {
			t.Fatalf("event %d has Index %d", i, e.Index)
		}
		for _, c := range e.Calls {
			if c < 0 || c >= len(rn.Calls) || rn.Calls[c].Event != i {
				t.Fatalf("event %d lists call %d of another event", i, c)
			}
		}
		if e.FailedUnknown != "" && e.Failed {
			t.Fatalf("event %d: failed and unknown", i)
		}
	}
	for i, c := range rn.Calls {
		if c.Index != i || c.Event < 0 || c.Event >= len(rn.Events) {
			t.Fatalf("call %d: Index %d, Event %d of %d events", i, c.Index, c.Event, len(rn.Events))
		}
		if c.ResultEvent < -1 || c.ResultEvent >= len(rn.Events) {
			t.Fatalf("call %d: ResultEvent %d", i, c.ResultEvent)
		}
		if c.OkUnknown != "" && c.Ok {
			t.Fatalf("call %d: ok and unknown", i)
		}
		if c.Ok && c.ResultEvent < 0 {
			t.Fatalf("call %d: ok without a result", i)
		}
		if (c.Depth == 0) != (c.Parent == -1) || c.Parent >= i {
			t.Fatalf("call %d: Depth %d, Parent %d", i, c.Depth, c.Parent)
		}
		if c.Args == nil {
			t.Fatalf("call %d: nil Args", i)
		}
	}
}
