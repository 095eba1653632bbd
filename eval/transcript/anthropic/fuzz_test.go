package anthropic

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// FuzzAnthropicMessages checks that the reader never panics and returns
// exactly one of a run, a skip or a message, and that a run is well
// formed: indexes in order, every call's event and result event inside
// the run, a matched result's event the one that carries it.
func FuzzAnthropicMessages(f *testing.F) {
	for _, file := range []string{
		filepath.Join("testdata", "samples.jsonl"),
		filepath.Join("..", "..", "..", "examples", "formats", "anthropic-messages", "transcript.jsonl"),
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range splitLines(data) {
			f.Add(line)
		}
	}
	f.Add([]byte(`[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{"x":{"name":"g","arguments":{}}}},{"type":"server_tool_use","id":"a","name":"web_search","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","is_error":true},{"type":"tool_result","tool_use_id":"a","content":[]}]}]`))
	// Programmatic tool calling (a caller naming a server tool call), an
	// HTTP exchange, compaction, a count_tokens answer.
	f.Add([]byte(`{"request":{"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"code_execution","input":{},"caller":{"type":"direct"}},{"type":"tool_use","id":"t","name":"f","input":{},"caller":{"type":"code_execution_20260120","tool_id":"s"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]},"response":{"type":"message","role":"assistant","content":[{"type":"server_tool_use","id":"s2","name":"web_search","input":{},"caller":{"type":"code_execution_20250825","tool_id":"s"}},{"type":"tool_use","id":"u","name":"g","input":{},"caller":{"type":"code_execution_20250825","tool_id":"s2"}}]}}`))
	f.Add([]byte(`{"request":{"method":"POST","url":"u","headers":{},"body":{"messages":[{"role":"user","content":"hi"}]}},"response":{"status_code":200,"body":{"type":"message","role":"assistant","content":[{"type":"compaction","content":"s"}]}}}`))
	f.Add([]byte(`{"request":{"messages":[{"role":"system","content":[{"type":"tool_removal","tool":{}}]}]},"response":{"input_tokens":3}}`))
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

func splitLines(data []byte) [][]byte {
	var out [][]byte
	start := 0
	for i, b := range data {
		if b == '\n' {
			if i > start {
				out = append(out, data[start:i])
			}
			start = i + 1
		}
	}
	if start < len(data) {
		out = append(out, data[start:])
	}
	return out
}

func checkRun(t *testing.T, rn *run.Run) {
	t.Helper()
	if rn.Record == nil || rn.Meta == nil {
		t.Fatal("nil Record or Meta")
	}
	for i, ev := range rn.Events {
		if ev.Index != i {
			t.Fatalf("event %d has Index %d", i, ev.Index)
		}
		for _, ci := range ev.Calls {
			if ci < 0 || ci >= len(rn.Calls) || rn.Calls[ci].Event != i {
				t.Fatalf("event %d: bad call index %d", i, ci)
			}
		}
	}
	for i, c := range rn.Calls {
		if c.Index != i || c.Args == nil || (c.Depth == 0) != (c.Parent == -1) {
			t.Fatalf("call %d: bad Index/Parent/Depth/Args: %+v", i, c)
		}
		if c.Parent >= i || c.Parent >= 0 && rn.Calls[c.Parent].Depth != c.Depth-1 {
			t.Fatalf("call %d: depth %d under parent %d", i, c.Depth, c.Parent)
		}
		if c.Event < 0 || c.Event >= len(rn.Events) || c.ResultEvent < -1 || c.ResultEvent >= len(rn.Events) {
			t.Fatalf("call %d: event %d or result event %d out of range", i, c.Event, c.ResultEvent)
		}
		if c.ResultEvent == -1 && (c.Ok || c.Result != "" || c.Error != "") || c.Ok && c.OkUnknown != "" {
			t.Fatalf("call %d: bad result fields: %+v", i, c)
		}
	}
	if n := len(rn.Events); rn.Output != "" && (n == 0 || rn.Events[n-1].Role != "assistant" || rn.Events[n-1].Content != rn.Output) {
		t.Fatalf("Output %q is not the last assistant text", rn.Output)
	}
}
