package taubench

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// FuzzTauBench checks that the tau-bench reader never panics, always
// terminates, reports every error as an *Error at line 1 or later (the
// stream ending after a framing error), gives each record the line of the
// file its element starts on, and returns well-formed runs.
func FuzzTauBench(f *testing.F) {
	for _, p := range []string{"testdata/retail.json", "testdata/telecom.json", "../../../examples/formats/tau-bench/transcript.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(200))
	}
	for _, seed := range []string{
		`[{"traj": [{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "a", "content": "Error: x"}]}]`,
		`{"info": {}, "tasks": [], "simulations": [{"messages": [{"role": "tool", "tool_messages": [{"role": "tool", "id": "q", "error": true}]}, {"role": "user", "tool_calls": [{"id": "q", "name": "f", "arguments": {}, "requestor": "user"}]}]}], "simulation_index": []}`,
		`[] x`, `{"simulations": [1, [2]]}`, `{"info": 1, "simulations": {}}`,
		// tau2's directory format: a simulation file, a voice one, a
		// results.json (no simulations/ beside f.json), and one object
		// with members of both.
		dirSimulation, "\n\n" + dirSimulation + " {}", dirResults,
		`{"id": "v", "task_id": "4", "termination_reason": "user_stop", "ticks": [{"tick_id": 0}], "info": {"a": [1]}}`,
		`{"task_id": "t", "termination_reason": "x", "messages": [], "tasks": [], "info": {}}`,
		`{"task_id": "t", "termination_reason": "x", "simulation_index": [], "messages": []}`,
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(30))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		rr := Frame("f.json", bytes.NewReader(data), frame.Options{MaxRecordBytes: int(max)})
		last := 0
		for n := 0; ; n++ {
			if n > len(data)+2 {
				t.Fatalf("more records than bytes")
			}
			rec, err := rr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var fe *frame.Error
				if !errors.As(err, &fe) || fe.File != "f.json" || fe.Line < 1 {
					t.Fatalf("error %v: not an *Error at f.json:N", err)
				}
				if _, err := rr.Next(); err != io.EOF {
					t.Fatalf("after a framing error, Next = %v, want io.EOF", err)
				}
				break
			}
			if rec.Origin.Line < 1 || rec.Origin.Line < last {
				t.Fatalf("element at line %d after one at line %d", rec.Origin.Line, last)
			}
			last = rec.Origin.Line
			checkLine(t, data, rec.Origin.Line, element(t, rec.Data))
			rn, skip, msg := Decode(bytes.Clone(rec.Data))
			if skip {
				t.Fatal("skip")
			}
			if msg != "" {
				// The line a msg names is one of the record's.
				if e := frame.RecordError(rec.Origin, rec.Data, msg); e.Line > rec.Origin.Line+bytes.Count(rec.Data, []byte("\n")) {
					t.Fatalf("error %v: after the record's last line", e)
				}
				continue
			}
			for i, ev := range rn.Events {
				if ev.Index != i {
					t.Fatalf("event %d has index %d", i, ev.Index)
				}
				for _, c := range ev.Calls {
					if c < 0 || c >= len(rn.Calls) || rn.Calls[c].Event != i {
						t.Fatalf("event %d lists call %d", i, c)
					}
				}
			}
			for i, c := range rn.Calls {
				if c.Index != i || c.Event < 0 || c.Event >= len(rn.Events) {
					t.Fatalf("call %d: index %d event %d", i, c.Index, c.Event)
				}
				if c.ResultEvent >= len(rn.Events) || (c.ResultEvent >= 0 && rn.Events[c.ResultEvent].Role != "tool") {
					t.Fatalf("call %d: result event %d", i, c.ResultEvent)
				}
			}
		}
	})
}

// element returns the element of the file a record holds: the record
// itself, or a tau2 record's "simulation".
func element(t *testing.T, data []byte) []byte {
	if !bytes.HasPrefix(data, []byte(`{"results":`)) {
		return data
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadToken(); err != nil {
		t.Fatalf("tau2 record: %v", err)
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			t.Fatalf("tau2 record: %v", err)
		}
		isSim := name.String() == "simulation"
		v, err := dec.ReadValue()
		if err != nil {
			t.Fatalf("tau2 record: %v", err)
		}
		if isSim {
			return v
		}
	}
	t.Fatal("tau2 record without simulation")
	return nil
}

// checkLine fails unless the element elem starts on line of data: the
// first copy of it from the start of that line must be on that line.
func checkLine(t *testing.T, data []byte, line int, elem []byte) {
	t.Helper()
	off := 0
	for range line - 1 {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			t.Fatalf("line %d: the file has fewer lines", line)
		}
		off += i + 1
	}
	i := bytes.Index(data[off:], elem)
	if i < 0 || bytes.IndexByte(data[off:off+i], '\n') >= 0 {
		t.Fatalf("the element %.40q... does not start on line %d", elem, line)
	}
}
