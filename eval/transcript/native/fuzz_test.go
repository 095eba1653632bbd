package native

import (
	"os"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// FuzzTenetRun checks that the tenet reader never panics on a record, and
// that every run it accepts is well formed: indexes in range, every result
// its call's, call ids unique, and a msg exactly when there is no run.
func FuzzTenetRun(f *testing.F) {
	if data, err := os.ReadFile("../../../examples/formats/tenet/transcript.jsonl"); err == nil {
		f.Add(data)
	}
	for _, seed := range []string{
		`{"tenet_run": 1, "metadata": {"task": "t"}, "pre": {"a": 1}, "post": null, "given": {"utility": true}, "events": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}`,
		`{"tenet_run": 1, "events": [{"role": "assistant", "calls": [{"id": "a", "tool": "t", "args": "{\"x\": {\"function\": \"g\", \"args\": {}}}"}, {"id": "b", "tool": "multi_tool_use.parallel", "args": {"tool_uses": [{"recipient_name": "functions.f", "parameters": {}}]}}]}, {"role": "tool", "call_id": "b", "error": "e", "failed_unknown": "u"}, {"role": "tool", "call_id": "a", "ran": {"tool": "h", "args": {"y": 1}}}]}`,
		`{"tenet_run": 1, "events": [{"role": "tool", "call_id": "a"}]}`,
		`{"messages": []}`,
		`{"tenet_run": 2, "evnts": []}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rn, skip, msg := Decode(data)
		if skip {
			t.Fatal("skip: the format has no header lines")
		}
		if (rn == nil) == (msg == "") {
			t.Fatalf("run %v with msg %q", rn != nil, msg)
		}
		if rn != nil {
			checkRun(t, rn)
		}
	})
}

// checkRun checks the structural invariants of a run the reader accepted.
func checkRun(t *testing.T, rn *run.Run) {
	t.Helper()
	ids := map[string]bool{}
	for i, c := range rn.Calls {
		if c.Index != i || c.Event < 0 || c.Event >= len(rn.Events) || c.Args == nil {
			t.Fatalf("call %d malformed: %+v", i, c)
		}
		if c.Depth == 0 {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("call %d: id %q empty or repeated", i, c.ID)
			}
			ids[c.ID] = true
			if c.Parent != -1 {
				t.Fatalf("call %d: top-level call with parent %d", i, c.Parent)
			}
		} else if c.Parent < 0 || c.Parent >= i || rn.Calls[c.Parent].Depth != c.Depth-1 {
			t.Fatalf("call %d: depth %d, parent %d", i, c.Depth, c.Parent)
		}
		if c.ResultEvent >= len(rn.Events) || c.ResultEvent < -1 {
			t.Fatalf("call %d: result event %d", i, c.ResultEvent)
		}
		if c.Depth == 0 && c.ResultEvent >= 0 && (rn.Events[c.ResultEvent].CallID != c.ID || c.ResultEvent <= c.Event) {
			t.Fatalf("call %d (%q): answered by event %d, which answers %q", i, c.ID, c.ResultEvent, rn.Events[c.ResultEvent].CallID)
		}
		if c.Ok && c.OkUnknown != "" {
			t.Fatalf("call %d: ok and unknown", i)
		}
	}
	for i, e := range rn.Events {
		if e.Index != i || (e.Role == "tool") != (e.CallID != "") {
			t.Fatalf("event %d malformed: %+v", i, e)
		}
		if e.Failed && (e.Error == "" || e.FailedUnknown != "") {
			t.Fatalf("event %d: failed without error or with unknown", i)
		}
		for _, c := range e.Calls {
			if c < 0 || c >= len(rn.Calls) || rn.Calls[c].Event != i {
				t.Fatalf("event %d: call %d", i, c)
			}
		}
	}
	if n := len(rn.Events); n > 0 && rn.Events[n-1].Role == "assistant" && rn.Output != rn.Events[n-1].Content {
		t.Fatalf("output %q", rn.Output)
	}
	g, ok := rn.Record["given"].(map[string]any)
	if !ok || len(g) != len(GivenLabels) {
		t.Fatalf("record.given %v", rn.Record["given"])
	}
}
