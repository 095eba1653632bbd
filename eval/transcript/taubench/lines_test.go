package taubench

import (
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// TestLines checks the positions in a pretty-printed results file: each
// run's origin is the line its element starts on (the element's number
// was given before), a framing error names the element's line and its
// number, and a decoding error the line of the failing message.
func TestLines(t *testing.T) {
	tau1 := `[
  {
    "task_id": 0,
    "traj": [
      {"role": "user", "content": "hi"}
    ]
  },
  {
    "task_id": 1,
    "traj": []
  },

  {
    "task_id": 2,
    "traj": [
      {"role": "user", "content": "hi"},
      {
        "role": "assistant",
        "content": "x"
      },
      {
        "role": "assistant",
        "function_call": {"name": "f"}
      }
    ]
  }
]
`
	runs, errs := readAll(t, "t.json", tau1, frame.Options{})
	want := []string{"t.json:21: traj message 2: function_call: not null; tau-bench's agents call tools through tool_calls, and the legacy function_call is not read"}
	if len(runs) != 2 || runs[0].Origin.Line != 2 || runs[1].Origin.Line != 8 || !slices.Equal(errs, want) {
		t.Errorf("runs %d, errors\n%q\nwant 2 runs (lines 2 and 8), errors\n%q", len(runs), errs, want)
	}

	// tau2: the header (info) spans lines before the simulations and is
	// compacted into each record, which so starts on its element's line.
	tau2 := `{
  "timestamp": "2025-06-01T00:00:00",
  "info": {
    "num_trials": 1,
    "agent_info": {"llm": "m"}
  },
  "tasks": [
    {"id": "t0"},
    {"id": "t1"}
  ],
  "simulations": [
    {"id": "s0", "task_id": "t0", "messages": []},
    {
      "id": "s1",
      "task_id": "t1",
      "messages": [
        {"role": "user", "content": "hi"},
        {"role": "tool", "id": "a", "content": "x", "error": "yes"}
      ]
    }
  ]
}`
	runs, errs = readAll(t, "s.json", tau2, frame.Options{})
	want = []string{"s.json:18: message 1: error: want a boolean, got a string"}
	if len(runs) != 1 || runs[0].Origin.Line != 12 || !slices.Equal(errs, want) {
		t.Errorf("runs %d, errors\n%q\nwant 1 run (line 12), errors\n%q", len(runs), errs, want)
	}

	// Framing errors: the line the element starts on, and its number.
	_, errs = readAll(t, "t.json", "[\n  {\"traj\": []},\n\n  {\"traj\": [\n  }\n]", frame.Options{})
	want = []string{`t.json:4: trajectory 2 (index 1): invalid JSON: jsontext: invalid character '}' after array element (expecting ',' or ']') within "/1/traj" after offset 34`}
	if !slices.Equal(errs, want) {
		t.Errorf("invalid element: errors\n%q\nwant\n%q", errs, want)
	}
	_, errs = readAll(t, "s.json", "{\"simulations\": [\n{\"messages\": []},\n\n{\"id\": \"a long simulation\", \"messages\": []}]}", frame.Options{MaxRecordBytes: 20})
	want = []string{"s.json:4: simulation 2 (index 1): longer than the limit of 20 bytes (raise it with --max-record-bytes); the rest of the file is not read"}
	if !slices.Equal(errs, want) {
		t.Errorf("long element: errors\n%q\nwant\n%q", errs, want)
	}
	_, errs = readAll(t, "t.json", "[\n]\n\n\n[]", frame.Options{})
	want = []string{"t.json:5: data after the results document (one file holds one JSON document)"}
	if !slices.Equal(errs, want) {
		t.Errorf("trailing data: errors\n%q\nwant\n%q", errs, want)
	}
}
