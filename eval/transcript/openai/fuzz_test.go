package openai

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// FuzzOpenAIMessages checks that the openai-messages reader never panics,
// always terminates, reports every error as an *Error at an existing line,
// and returns well-formed runs.
func FuzzOpenAIMessages(f *testing.F) {
	for _, seed := range []string{
		`{"metadata": {"name": "x"}}` + "\n" + `{"messages": [{"role": "user", "content": "hi"}]}`,
		`{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]}, {"role": "tool", "content": "r", "tool_call_id": null, "tool_call": {"function": "f", "args": {"a": 2}, "id": "", "placeholder_args": null}, "error": "bad"}]}`,
		`{"messages": [{"role": "tool", "content": [{"type": "text", "text": "x"}], "tool_call_id": "q", "error": {"e": 1}}, {"role": "assistant", "content": "done"}]}`,
		`{"messages": [{"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": "a", "arguments": "{oops"}}, {"id": "x", "function": {"name": "b"}}]}, {"role": "tool", "tool_call_id": "x", "tool_call": {"function": "b"}}]}`,
		"\r\n\n{\"messages\": []}\r\n[1]\n{\"messages\": [3]}\n{",
		`{"messages": [{"role": "user"}], "metadata": 5}`,
		// issue 13: legacy function_call, Anthropic blocks, role case,
		// parallel wrappers, nested shapes.
		`{"messages": [{"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}, {"role": "Function", "name": "f", "content": "r"}]}`,
		`{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {"x": {"function": "g", "args": "{}"}}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": [{"type": "text", "text": "r"}], "is_error": true}]}]}`,
		`{"messages": [{"role": "ASSISTANT", "tool_calls": [{"id": "p", "function": {"name": "multi_tool_use.parallel", "arguments": {"tool_uses": [{"recipient_name": "functions.f", "parameters": {"a": {"name": "g", "arguments": {}, "function": "h", "args": {}}}}]}}}]}, {"role": "Tool", "tool_call_id": "p", "content": "ok"}]}`,
		// second review: results before their call and twice, shared ids
		// in one turn, the functions. prefix, tool message error fields.
		`{"messages": [{"role": "tool", "tool_call_id": "c", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "functions.f", "arguments": "{}"}}, {"id": "c", "function": {"name": "g"}}]}, {"role": "tool", "tool_call_id": "c", "is_error": true, "status": "success"}, {"role": "tool", "tool_call_id": "c", "error": "None"}, {"role": "tool", "tool_call_id": "c"}]}`,
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(30))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		for _, line := range bytes.Split(data, []byte{'\n'}) {
			checkPeek(t, line) // Peek's promise (peek_test.go)
		}
		// max 0: the default limit; else a small one, to exercise long lines.
		r, err := Open("openai-messages", "f.jsonl", bytes.NewReader(data), Options{MaxRecordBytes: int(max)})
		if err != nil {
			t.Fatal(err)
		}
		nlines := bytes.Count(data, []byte{'\n'}) + 1
		lastLine := 0
		for i := 0; ; i++ {
			if i > nlines {
				t.Fatalf("more than %d results from %d lines", i, nlines)
			}
			rn, err := r.Next()
			if err == io.EOF {
				break
			}
			var line int
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error %v is %T, want *Error", err, err)
				}
				if e.File != "f.jsonl" || rn != nil {
					t.Fatalf("error %v: bad file or non-nil run", err)
				}
				line = e.Line
			} else {
				line = rn.Origin.Line
				checkRun(t, rn)
			}
			if line < 1 || line > nlines || line <= lastLine {
				t.Fatalf("line %d out of order or range (previous %d, %d lines)", line, lastLine, nlines)
			}
			lastLine = line
		}
		if r.Skipped() < 0 || r.Skipped() > nlines {
			t.Fatalf("Skipped() = %d", r.Skipped())
		}
	})
}

// checkRun checks the structural invariants of a run.
func checkRun(t *testing.T, rn *run.Run) {
	t.Helper()
	if rn.Record == nil || rn.Meta == nil {
		t.Fatal("nil Record or Meta")
	}
	answered := map[int]bool{}
	for i, c := range rn.Calls {
		if c.Index != i || c.Args == nil || (c.Depth == 0) != (c.Parent == -1) {
			t.Fatalf("call %d: bad Index/Parent/Depth/Args: %+v", i, c)
		}
		if c.Parent >= 0 && (c.Parent >= i || c.Depth != rn.Calls[c.Parent].Depth+1 || c.Event != rn.Calls[c.Parent].Event) {
			t.Fatalf("call %d: bad parent %d", i, c.Parent)
		}
		if c.Event < 0 || c.Event >= len(rn.Events) {
			t.Fatalf("call %d: Event %d out of range", i, c.Event)
		}
		if c.ResultEvent < -1 || c.ResultEvent >= len(rn.Events) || c.ResultEvent == -1 && (c.Ok || c.Result != "" || c.Error != "") {
			t.Fatalf("call %d: bad result fields: %+v", i, c)
		}
		if c.Ok && c.OkUnknown != "" {
			t.Fatalf("call %d: Ok and OkUnknown", i)
		}
		if c.ResultEvent >= 0 && c.Depth > 0 {
			// Only a call a wrapper dispatched has a result: the wrapper's.
			if c.ResultEvent != rn.Calls[c.Parent].ResultEvent {
				t.Fatalf("call %d: result event %d is not its parent's", i, c.ResultEvent)
			}
		} else if c.ResultEvent >= 0 {
			ev := rn.Events[c.ResultEvent]
			if answered[c.ResultEvent] && resultRole(ev.Role) || ev.Tool != "" && ev.Tool != c.Tool {
				t.Fatalf("call %d: bad result event %d", i, c.ResultEvent)
			}
			answered[c.ResultEvent] = true
		}
	}
	for i, ev := range rn.Events {
		if ev.Index != i {
			t.Fatalf("event %d has Index %d", i, ev.Index)
		}
		// A second result for an answered call answers none of its own;
		// the call's mismatch records it (notes.go).
		if resultRole(ev.Role) && !answered[i] && !secondResult(rn, i) {
			t.Fatalf("tool event %d answers no call", i)
		}
		for _, ci := range ev.Calls {
			if ci < 0 || ci >= len(rn.Calls) || rn.Calls[ci].Event != i {
				t.Fatalf("event %d: bad call index %d", i, ci)
			}
		}
	}
	if n := len(rn.Events); rn.Output != "" && (n == 0 || rn.Events[n-1].Role != "assistant" || rn.Events[n-1].Content != rn.Output) {
		t.Fatalf("Output %q is not the last assistant text", rn.Output)
	}
}

// secondResult reports whether a call's mismatch records event i as a
// second result for it.
func secondResult(rn *run.Run, i int) bool {
	for _, c := range rn.Calls {
		if strings.Contains(c.Mismatch, fmt.Sprintf("a second result for its id %q, at message %d", build.Clip(c.ID, 100), i)) {
			return true
		}
	}
	return false
}
