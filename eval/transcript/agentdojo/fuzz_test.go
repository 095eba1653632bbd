package agentdojo

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// FuzzAgentDojoRun checks that the reader never panics, always ends, gives
// at most one record per file (at line 1), reports every error as an
// *frame.Error at a line of the file, and returns well-formed runs: calls
// indexed in order, parents before their nested calls, results and
// requests at events that exist. Decode is also fed the bytes as a run
// object alone.
func FuzzAgentDojoRun(f *testing.F) {
	for _, p := range []string{"testdata/new_format.json", "testdata/old_format.json", "../../../examples/formats/agentdojo-run/transcript.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(4))
	}
	for _, seed := range []string{
		`{"suite_name": "s", "pipeline_name": "p", "user_task_id": "u", "messages": []}`,
		`{"suite_name": "s", "pipeline_name": "p", "user_task_id": "u", "messages": [{"role": "assistant", "tool_calls": [{"function": "f", "args": {"x": {"function": "g", "args": {"y": {"function": "h", "args": {}}}}}}]}, {"role": "tool", "content": "", "tool_call": {"function": "f", "args": {}}, "error": "E"}]}`,
		`{"suite_name": "s", "pipeline_name": "p", "user_task_id": "u", "messages": [{"role": "tool", "tool_call_id": "a", "content": [{"type": "text", "content": "x"}]}, {"role": "assistant", "tool_calls": [{"function": "f", "args": 1, "id": "a"}]}]} {}`,
		"\xef\xbb\xbf{\"suite_name\": \"s\"", `[]`, ``, `{"file": "a", "run": {}}`,
	} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth uint8) {
		lines := bytes.Count(data, []byte("\n")) + 1
		rr := Frame("runs/p/banking/user_task_0/none/none.json", bytes.NewReader(data), frame.Options{MaxDepth: int(depth)})
		records := 0
		for {
			rec, err := rr.Next()
			if err == io.EOF {
				break
			}
			records++
			if records > 1 {
				t.Fatalf("more than one record or error")
			}
			if err != nil {
				var fe *frame.Error
				if !errors.As(err, &fe) || fe.Line < 1 || fe.Line > lines {
					t.Fatalf("error %v: want an *frame.Error at a line of the file (1..%d)", err, lines)
				}
				continue
			}
			if rec.Origin.Line != 1 {
				t.Fatalf("origin %+v", rec.Origin)
			}
			checkPeek(t, rec.Data) // Peek's promise (peek_test.go)
			rn, skip, msg := Decode(rec.Data)
			if skip {
				t.Fatal("skipped")
			}
			if msg != "" {
				if e := frame.RecordError(rec.Origin, rec.Data, msg); e.Line < 1 || e.Line > lines {
					t.Fatalf("message at line %d of %d: %s", e.Line, lines, msg)
				}
				continue
			}
			check(t, rn)
		}
		if rn, _, msg := Decode(data); msg == "" && rn != nil {
			check(t, rn)
		}
	})
}

func check(t *testing.T, rn *run.Run) {
	t.Helper()
	if rn.Meta == nil || rn.Record == nil {
		t.Fatal("no meta or record")
	}
	for i, c := range rn.Calls {
		if c.Index != i || c.Event < 0 || c.Event >= len(rn.Events) || c.ResultEvent >= len(rn.Events) {
			t.Fatalf("call %d: %+v", i, c)
		}
		if (c.Depth == 0) != (c.Parent < 0) || c.Parent >= i {
			t.Fatalf("call %d: depth %d parent %d", i, c.Depth, c.Parent)
		}
		if c.Ok && c.OkUnknown != "" {
			t.Fatalf("call %d: ok and unknown", i)
		}
	}
	for i, e := range rn.Events {
		if e.Index != i {
			t.Fatalf("event %d: index %d", i, e.Index)
		}
	}
}
