package inspect

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// FuzzInspect checks that the inspect reader never panics, always
// terminates, reports every framing error as a *frame.Error naming the
// input (or one of its members), gives runs whose calls point at existing
// events, and reads the same input the same way twice.
func FuzzInspect(f *testing.F) {
	canonical, err := os.ReadFile("../../../examples/formats/inspect/transcript.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(canonical, uint16(0))
	f.Add(bankingEval(f), uint16(0))
	f.Add(bankingEval(f), uint16(2000))
	header := `{"eval": {"task": "t", "model": "m"}}`
	for _, sample := range []string{
		`{"id": "a", "epoch": 2, "attachments": {"k": "v"}, "messages": [{"role": "user", "content": "attachment://k"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "w", "name": "web_search", "arguments": "{}", "result": "r"}], "tool_calls": [{"id": "c", "function": "f", "arguments": {"x": {"function": "g", "args": {}}}}]}, {"role": "tool", "tool_call_id": "c", "content": "x", "error": {"type": "timeout", "message": "t"}}]}`,
		`{"messages": [{"role": "tool", "tool_call_id": "z", "function": "f", "tool_error": "e"}, {"role": "user", "tool_call_id": ["z"], "content": []}], "scores": {"s": {"value": 1}}}`,
		handoffSample,
		// An older log's nested events, a subtask, a pending call and a
		// call the messages' events order.
		`{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "h", "function": "t", "arguments": {}}]}, {"role": "tool", "tool_call_id": "h", "content": "ok"}], "events": [{"event": "subtask", "name": "s", "input": {}, "events": [{"event": "tool", "id": "q", "function": "g", "arguments": {}, "pending": true}]}, {"event": "tool", "id": "h", "function": "t", "arguments": {}, "events": [{"event": "tool", "id": "w", "function": "f", "arguments": {"a": 1}, "result": [{"type": "text", "text": "x"}], "error": {"type": "permission", "message": "no"}}]}]}`,
	} {
		f.Add(writeEval(f, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json", zipMethodZstd, sample}}), uint16(0))
		f.Add([]byte(`{"eval": {}, "samples": [`+sample+`]}`), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		// A small limit always: a mutated deflate or zstd member can
		// expand to the whole limit, and the default (64 MiB) would make
		// each such input take seconds.
		opt := frame.Options{MaxRecordBytes: 1<<16 + int(max)}
		rs1, errs1 := runs("f.eval", data, opt)
		rs2, errs2 := runs("f.eval", data, opt)
		if len(rs1) != len(rs2) || strings.Join(errs1, "\n") != strings.Join(errs2, "\n") {
			t.Fatalf("two readings differ: %q vs %q", errs1, errs2)
		}
		for _, e := range errs1 {
			if !strings.HasPrefix(e, "f.eval:") {
				t.Fatalf("error %q does not name the input", e)
			}
		}
		for _, rn := range rs1 {
			for i, ev := range rn.Events {
				if ev.Index != i {
					t.Fatalf("event %d has index %d", i, ev.Index)
				}
				for _, ci := range ev.Calls {
					if ci < 0 || ci >= len(rn.Calls) || rn.Calls[ci].Event != i {
						t.Fatalf("event %d lists call %d, which it did not request", i, ci)
					}
				}
			}
			for i, c := range rn.Calls {
				if c.Index != i {
					t.Fatalf("call %d has index %d", i, c.Index)
				}
			}
			for _, c := range rn.Calls {
				if c.Event < 0 || c.Event >= len(rn.Events) || c.ResultEvent >= len(rn.Events) {
					t.Fatalf("call %d points outside the events: %+v", c.Index, c)
				}
			}
		}
		// Framing alone: every error is a *frame.Error.
		rr := Frame("f.eval", bytes.NewReader(data), opt)
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("more records than bytes")
			}
			_, err := rr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var fe *frame.Error
			if err != nil && !errors.As(err, &fe) {
				t.Fatalf("error %v is %T, want *frame.Error", err, err)
			}
		}
	})
}
