package taubench

import (
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// TestErrors checks each refusal's exact message: framing errors name the
// file, the line and the element, decoding errors the line and the place
// in the element.
func TestErrors(t *testing.T) {
	sim := func(msgs string) string {
		return `{"info": {"agent_info": {"llm": "m"}}, "tasks": [], "simulations": [{"id": "s", "task_id": "t", "trial": 0, "reward_info": null, "messages": [` + msgs + `]}]}`
	}
	for _, tc := range []struct {
		name, data string
		runs       int
		errs       []string
	}{
		{"empty", "", 0, []string{"f.json:1: empty file: want a tau-bench results array or a tau2-bench results object"}},
		{"string", `"x"`, 0, []string{"f.json:1: the file is a JSON string, want a tau-bench results array or a tau2-bench results object"}},
		{"jsonl openai", `{"messages": [{"role": "user", "content": "hi"}]}` + "\n" + `{"messages": []}`, 0,
			[]string{`f.json:1: a JSON object with "messages" and no "simulations", but not a tau2 simulation (which has "task_id", "termination_reason" and "messages"): another format's record (openai-messages?); this reader reads a tau2-bench results object {"info", "tasks", "simulations"}, one tau2 simulation of the directory format, or a tau-bench results array`}},
		// f.json is no file here, so it has no simulations/ beside it.
		{"dir format", `{"timestamp": "t", "info": {}, "tasks": []}`, 0,
			[]string{`f.json:1: the results.json of tau2's directory format (info and tasks, no "simulations"), but no simulations/ directory beside it: the simulations are its files simulations/<id>.json; give the directory that holds both (or the simulation files)`}},
		{"simulation and simulations", `{"task_id": "t", "simulations": []}`, 0,
			[]string{`f.json:1: a JSON object with "task_id" before "simulations": neither one simulation nor a tau2-bench results object {"info", "tasks", "simulations"}`}},
		// A simulation_index is no simulation's: the object is neither.
		{"simulation with an index", `{"task_id": "t", "termination_reason": "x", "simulation_index": [], "messages": []}`, 0,
			[]string{`f.json:1: a JSON object with "task_id" and no "simulations", but not a tau2 simulation (which has "task_id", "termination_reason" and "messages"): another format's record (openai-messages?); this reader reads a tau2-bench results object {"info", "tasks", "simulations"}, one tau2 simulation of the directory format, or a tau-bench results array`}},
		{"simulation then data", `{"task_id": "t", "termination_reason": "user_stop", "messages": []} {}`, 1,
			[]string{`f.json:1: data after the JSON object (one file holds one simulation)`}},
		{"other object", `{"a": 1, "b": [2]}`, 0,
			[]string{`f.json:1: a JSON object without "simulations" (members: "a", "b"): not a tau2-bench results file (tau-bench results are a JSON array)`}},
		{"trailing", `[] []`, 0, []string{"f.json:1: data after the results document (one file holds one JSON document)"}},
		{"bad element json", `[{"task_id": 1, "traj": []}, {"traj": [}]`, 1,
			[]string{`f.json:1: trajectory 2 (index 1): invalid JSON: jsontext: invalid character '}' after array element (expecting ',' or ']') within "/1/traj" after offset 39`}},
		{"element not object", `[3]`, 0, []string{"f.json:1: record is a number, want an object (a tau-bench trajectory)"}},
		{"no traj", `[{"task_id": 1}]`, 0, []string{`f.json:1: traj: missing (a tau-bench result is {"task_id", "reward", "info", "traj", "trial"})`}},
		{"openai record in array", `[{"messages": []}]`, 0, []string{`f.json:1: no "traj" but "messages": an openai-messages record or a tau2 simulation outside its results file? (a tau-bench result is {"task_id", "reward", "info", "traj", "trial"})`}},
		{"react", `[{"traj": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Thought: look up\nAction: {\"name\": \"get_user_details\", \"arguments\": {}}"}]}]`, 0,
			[]string{`f.json:1: traj message 1: an assistant message writes its call as text ("Action: {...}", tau-bench's react and act agents): calls in text are not read, so the run would have no calls`}},
		{"tau2 call in traj", `[{"traj": [{"role": "assistant", "tool_calls": [{"id": "a", "name": "f", "arguments": {}, "requestor": "assistant"}]}]}]`, 0,
			[]string{`f.json:1: traj message 0: tool_calls[0]: a tau2 tool call {id, name, arguments, requestor} in a tau-bench traj`}},
		{"tau1 function_call", `[{"traj": [{"role": "assistant", "function_call": {"name": "f"}}]}]`, 0,
			[]string{"f.json:1: traj message 0: function_call: not null; tau-bench's agents call tools through tool_calls, and the legacy function_call is not read"}},
		{"openai call in tau2", sim(`{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}`), 0,
			[]string{`f.json:1: message 0: tool_calls[0]: has "function": an OpenAI chat tool call (openai-messages format, or a tau-bench traj?); a tau2 call is {id, name, arguments, requestor}`}},
		{"openai result in tau2", sim(`{"role": "tool", "tool_call_id": "a", "content": "x"}`), 0,
			[]string{`f.json:1: message 0: tool_call_id: an OpenAI chat tool message (openai-messages format?); a tau2 tool message names its call by "id"`}},
		{"requestor mismatch", sim(`{"role": "assistant", "tool_calls": [{"id": "a", "name": "f", "arguments": {}, "requestor": "user"}]}`), 0,
			[]string{`f.json:1: message 0: tool_calls[0].requestor: "user" in a message of role "assistant": who requested the call is unclear`}},
		{"result requestor mismatch", sim(`{"role": "user", "tool_calls": [{"id": "a", "name": "f", "arguments": {}, "requestor": "user"}]}, {"role": "tool", "id": "a", "content": "x", "requestor": "assistant"}`), 0,
			[]string{`f.json:1: message 1: requestor "assistant", but call "a" was requested by the user`}},
		{"error not bool", sim(`{"role": "tool", "id": "a", "content": "x", "error": "yes"}`), 0,
			[]string{"f.json:1: message 0: error: want a boolean, got a string"}},
		{"voice", `{"info": {}, "tasks": [], "simulations": [{"id": "s", "task_id": "t", "ticks": []}]}`, 0,
			[]string{"f.json:1: messages: missing or null but ticks given: a full-duplex (voice) simulation, which this reader does not read"}},
		{"unknown role", sim(`{"role": "developer", "content": "x"}`), 0,
			[]string{`f.json:1: message 0: role "developer": a tau2 message is system, user, assistant or tool`}},
		{"hidden call key", sim(`{"role": "assistant", "content": "x", "function_calls": [{"name": "send_money", "arguments": {}}]}`), 0, nil},
		{"string arguments", sim(`{"role": "assistant", "tool_calls": [{"id": "a", "name": "f", "arguments": "{oops"}]}`), 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, errs := readAll(t, "f.json", tc.data, frame.Options{})
			if tc.name == "hidden call key" {
				if len(errs) != 1 || errs[0] != "f.json:1: message 0: function_calls[0]: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)" {
					t.Errorf("errors %q, want one refusing function_calls", errs)
				}
				return
			}
			if tc.name == "string arguments" {
				if len(runs) != 1 || runs[0].Calls[0].ArgsError == "" {
					t.Fatalf("runs %d errors %q, want a call with args_error", len(runs), errs)
				}
				if got := runs[0].Calls[0].ArgsError; !strings.HasPrefix(got, "tool_calls[0].arguments: invalid JSON") {
					t.Errorf("args_error %q", got)
				}
				return
			}
			if len(runs) != tc.runs || !slices.Equal(errs, tc.errs) {
				t.Errorf("runs %d, errors\n%q\nwant %d runs, errors\n%q", len(runs), errs, tc.runs, tc.errs)
			}
		})
	}
}

// TestLimits checks MaxRecordBytes and MaxDepth per element: the element
// within the limit is read, the one over it is an error naming it, and
// the stream ends there.
func TestLimits(t *testing.T) {
	small := `{"task_id": 1, "traj": []}`
	big := `{"task_id": 2, "traj": [{"role": "user", "content": "` + strings.Repeat("x", 200) + `"}]}`
	runs, errs := readAll(t, "f.json", "["+small+","+big+","+small+"]", frame.Options{MaxRecordBytes: 100})
	want := []string{"f.json:1: trajectory 2 (index 1): longer than the limit of 100 bytes (raise it with --max-record-bytes); the rest of the file is not read"}
	if len(runs) != 1 || !slices.Equal(errs, want) {
		t.Errorf("runs %d, errors %q; want 1 run, %q", len(runs), errs, want)
	}
	// Far over the limit: the guard stops the read, the element is not
	// buffered whole.
	huge := `[{"task_id": 2, "traj": [{"role": "user", "content": "` + strings.Repeat("x", 1<<20) + `"}]}]`
	_, errs = readAll(t, "f.json", huge, frame.Options{MaxRecordBytes: 100})
	want = []string{"f.json:1: trajectory 1 (index 0): longer than the limit of 100 bytes (raise it with --max-record-bytes); the rest of the file is not read"}
	if !slices.Equal(errs, want) {
		t.Errorf("huge: errors %q, want %q", errs, want)
	}
	deep := `[{"task_id": 1, "traj": [], "info": {"a": {"b": [[1]]}}}]`
	_, errs = readAll(t, "f.json", deep, frame.Options{MaxDepth: 4})
	want = []string{"f.json:1: trajectory 1 (index 0): nested deeper than the limit of 4 levels (raise it with --max-depth)"}
	if !slices.Equal(errs, want) {
		t.Errorf("deep: errors %q, want %q", errs, want)
	}
	// tau2: info is bounded too.
	_, errs = readAll(t, "f.json", `{"info": {"x": "`+strings.Repeat("y", 300)+`"}, "simulations": []}`, frame.Options{MaxRecordBytes: 100})
	want = []string{"f.json:1: results file: a value (or white space) longer than the limit of 100 bytes (raise it with --max-record-bytes); the rest of the file is not read"}
	if !slices.Equal(errs, want) {
		t.Errorf("info: errors %q, want %q", errs, want)
	}
	// tasks is skipped token by token: far longer than the limit in all,
	// it is no error; one string in it over the limit is.
	tasks := `["` + strings.Repeat(`t", "`, 2000) + `"]`
	sim := `{"id": "s", "task_id": "t", "messages": []}`
	runs, errs = readAll(t, "f.json", `{"info": {}, "tasks": `+tasks+`, "simulations": [`+sim+`]}`, frame.Options{MaxRecordBytes: 100})
	if len(runs) != 1 || len(errs) != 0 {
		t.Errorf("long tasks: runs %d, errors %q; want 1 run", len(runs), errs)
	}
	_, errs = readAll(t, "f.json", `{"tasks": ["`+strings.Repeat("y", 1<<20)+`"], "simulations": [`+sim+`]}`, frame.Options{MaxRecordBytes: 100})
	if !slices.Equal(errs, want) {
		t.Errorf("long task string: errors %q, want %q", errs, want)
	}
}

// TestMultiToolMessage checks that a tau2 MultiToolMessage gives one
// result event per tool message, each matched to its call.
func TestMultiToolMessage(t *testing.T) {
	data := `{"info": {}, "tasks": [], "simulations": [{"id": "s", "task_id": "t", "messages": [
		{"role": "assistant", "tool_calls": [{"id": "a", "name": "f", "arguments": {}}, {"id": "b", "name": "g", "arguments": {"x": 1}}]},
		{"role": "tool", "tool_messages": [{"role": "tool", "id": "b", "content": "B", "error": true}, {"role": "tool", "id": "a", "content": "A"}]}]}]}`
	runs, errs := readAll(t, "f.json", data, frame.Options{})
	if len(errs) != 0 || len(runs) != 1 {
		t.Fatalf("runs %d errors %q", len(runs), errs)
	}
	want := `e0 assistant "" calls=[0 1]
e1 tool "B" calls=[] id=b tool=g failed=true err="B"
e2 tool "A" calls=[] id=a tool=f failed=false err=""
c0 by e0(assistant) a f args=map[] ok=true result="A" error="" re=2 argserr=""
c1 by e0(assistant) b g args=map[x:1] ok=false result="B" error="B" re=1 argserr=""
output ""
`
	if got := summary(runs[0]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if runs[0].Meta["reward"] != nil {
		t.Errorf("meta.reward = %v, want null without reward_info", runs[0].Meta["reward"])
	}
}
