package openai

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/internal/shared"
)

// The expected numbers below were computed independently of this package,
// with Python's json module over ../shared/agentdojo/traces:
//
//	for each line: o = json.loads(line); skip (and count) it when "messages" not in o;
//	events += len(o["messages"]); calls += sum(len(m.get("tool_calls") or []) ...);
//	empty ids: tool_calls with id "" or null; failed: tool messages with error not null;
//	ends on tool: messages[-1]["role"] == "tool"; output: messages[-1] is an
//	assistant message with non-empty string content.
//
// Every tool message in the corpus answers a requested call (no synthesised
// calls), so the call counts equal the requested tool_calls.
var agentDojoFiles = map[string]struct{ events, calls int }{
	"claude-3-5-sonnet-20240620.jsonl":                     {2012, 717},
	"claude-3-haiku-20240307.jsonl":                        {2374, 911},
	"claude-3-opus-20240229.jsonl":                         {1762, 644},
	"claude-3-sonnet-20240229.jsonl":                       {1896, 663},
	"command-r.jsonl":                                      {1716, 652},
	"gemini-1-5-flash-001.jsonl":                           {1696, 573},
	"gemini-1-5-flash-002.jsonl":                           {1318, 388},
	"gpt-4-0125-preview.jsonl":                             {2012, 810},
	"gpt-4o-2024-05-13-repeat_user_prompt.jsonl":           {2819, 899},
	"gpt-4o-2024-05-13-spotlighting_with_delimiting.jsonl": {1981, 788},
	"gpt-4o-2024-05-13-transformers_pi_detector.jsonl":     {2227, 906},
	"gpt-4o-mini-2024-07-18.jsonl":                         {2074, 897},
}

type corpusTotals struct {
	Files, Runs, Skipped     int
	Events, ToolEvents       int
	Calls                    int
	FailedCalls              int // a result came back with an error
	OkCalls                  int
	UnansweredCalls          int // requested, no result
	EmptyIDCalls             int
	SynthCalls               int // a result without a request
	Overridden               int // what ran (tool_call) differs from the request
	Mismatches               int // calls whose result disagrees with the request (Call.Mismatch)
	NestedCalls              int
	ArgsErrors               int
	EndsOnTool, ZeroMessages int
	WithOutput               int // runs with a non-empty Output
}

func agentDojoTraces(t testing.TB) []string {
	dir := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) != len(agentDojoFiles) {
		t.Fatalf("%s holds %d .jsonl files, want %d", dir, len(files), len(agentDojoFiles))
	}
	return files
}

func TestAgentDojoTraces(t *testing.T) {
	var got corpusTotals
	for _, path := range agentDojoTraces(t) {
		name := filepath.Base(path)
		want, ok := agentDojoFiles[name]
		if !ok {
			t.Errorf("unexpected trace file %s", name)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Open("openai-messages", name, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var runs, events, calls int
		for {
			rn, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			runs++
			events += len(rn.Events)
			calls += len(rn.Calls)
			tally(t, &got, rn)
		}
		f.Close()
		if runs != 194 || r.Skipped() != 1 || events != want.events || calls != want.calls {
			t.Errorf("%s: runs %d, skipped %d, events %d, calls %d; want 194, 1, %d, %d",
				name, runs, r.Skipped(), events, calls, want.events, want.calls)
		}
		got.Files++
		got.Runs += runs
		got.Skipped += r.Skipped()
	}
	want := corpusTotals{
		Files:           12,
		Runs:            2328,
		Skipped:         12,
		Events:          23887,
		ToolEvents:      8807,
		Calls:           8848,
		FailedCalls:     579,
		OkCalls:         8228,
		UnansweredCalls: 41,
		EmptyIDCalls:    1613,
		SynthCalls:      0,
		Overridden:      0,
		Mismatches:      0,
		NestedCalls:     0,
		ArgsErrors:      0,
		EndsOnTool:      1,
		ZeroMessages:    34,
		WithOutput:      2264,
	}
	if got != want {
		t.Errorf("totals:\n got %+v\nwant %+v", got, want)
	}
}

// tally adds a run to the totals and checks invariants that hold for every
// well-formed run.
func tally(t *testing.T, tot *corpusTotals, rn *run.Run) {
	t.Helper()
	tot.Events += len(rn.Events)
	tot.Calls += len(rn.Calls)
	if len(rn.Events) == 0 {
		tot.ZeroMessages++
	} else if rn.Events[len(rn.Events)-1].Role == "tool" {
		tot.EndsOnTool++
	}
	if rn.Output != "" {
		tot.WithOutput++
	}
	if rn.Meta["suite_name"] == nil {
		t.Errorf("%v: Meta has no suite_name", rn.Origin)
	}
	msgs := rn.Record["messages"].([]any)
	for i, ev := range rn.Events {
		if ev.Index != i {
			t.Fatalf("%v: event %d has Index %d", rn.Origin, i, ev.Index)
		}
		if ev.Role != "tool" {
			continue
		}
		tot.ToolEvents++
		// The tool that ran is the one the message records.
		tc := msgs[i].(map[string]any)["tool_call"].(map[string]any)
		if ev.Tool != tc["function"] {
			t.Errorf("%v: event %d: Tool %q, tool_call.function %q", rn.Origin, i, ev.Tool, tc["function"])
		}
	}
	answered := map[int]bool{}
	for i, c := range rn.Calls {
		if c.Mismatch != "" {
			tot.Mismatches++
		}
		if c.Depth > 0 {
			tot.NestedCalls++
		}
		if c.Index != i || c.Parent != -1 || c.Depth != 0 || c.Args == nil {
			t.Fatalf("%v: call %d: bad Index/Parent/Depth/Args: %+v", rn.Origin, i, c)
		}
		if c.ID == "" {
			tot.EmptyIDCalls++
		}
		if c.ArgsError != "" {
			tot.ArgsErrors++
		}
		if rn.Events[c.Event].Role == "tool" {
			tot.SynthCalls++
		} else {
			// Find the request in the raw record and compare with what ran.
			ev := rn.Events[c.Event]
			j := slices.Index(ev.Calls, i)
			fn := msgs[c.Event].(map[string]any)["tool_calls"].([]any)[j].(map[string]any)["function"].(map[string]any)
			if fn["name"] != c.Tool || !reflect.DeepEqual(fn["arguments"], c.Args) {
				tot.Overridden++
			}
		}
		switch {
		case c.ResultEvent < 0:
			tot.UnansweredCalls++
			if c.Ok {
				t.Errorf("%v: call %d: Ok without a result", rn.Origin, i)
			}
		case c.Ok:
			tot.OkCalls++
		default:
			tot.FailedCalls++
		}
		if c.ResultEvent >= 0 {
			if answered[c.ResultEvent] {
				t.Errorf("%v: event %d answers two calls", rn.Origin, c.ResultEvent)
			}
			answered[c.ResultEvent] = true
			res := rn.Events[c.ResultEvent]
			if res.Role != "tool" || c.ResultEvent <= c.Event || c.Tool != res.Tool || c.Result != res.Content || c.Ok == res.Failed {
				t.Errorf("%v: call %d does not agree with its result event %d", rn.Origin, i, c.ResultEvent)
			}
			if c.ID != "" && res.CallID != c.ID {
				t.Errorf("%v: call %d (id %q) answered by event %d (call id %q)", rn.Origin, i, c.ID, c.ResultEvent, res.CallID)
			}
		}
	}
}

// BenchmarkOpenAIMessages reads the whole AgentDojo corpus (held in memory).
func BenchmarkOpenAIMessages(b *testing.B) {
	var data [][]byte
	var size int64
	for _, path := range agentDojoTraces(b) {
		d, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
		size += int64(len(d))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	runs := 0
	for b.Loop() {
		for _, d := range data {
			r, err := Open("openai-messages", "bench.jsonl", bytes.NewReader(d), Options{})
			if err != nil {
				b.Fatal(err)
			}
			for {
				_, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				runs++
			}
		}
	}
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "runs/s")
}
