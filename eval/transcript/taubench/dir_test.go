package taubench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// A results.json of tau2's directory format, pretty-printed as tau2
// writes it (timestamp and info first, then tasks and the index).
const dirResults = `{
  "timestamp": "2026-03-01T09:30:00",
  "info": {
    "num_trials": 1,
    "agent_info": {"implementation": "llm_agent", "llm": "agent-model"},
    "user_info": {"implementation": "user_simulator", "llm": "user-model"}
  },
  "tasks": [{"id": "refund_7"}],
  "simulation_index": [
    {"id": "sim-a", "task_id": "refund_7", "trial": 0, "reward": 0.0, "termination_reason": "user_stop"}
  ]
}
`

// One simulation file: a bare SimulationRun, pretty-printed, after a
// blank line (so its object starts on line 2).
const dirSimulation = `
{
  "id": "sim-a",
  "task_id": "refund_7",
  "timestamp": "2026-03-01T09:31:00",
  "termination_reason": "user_stop",
  "reward_info": {"reward": 0.0},
  "trial": 0,
  "info": null,
  "messages": [
    {"role": "user", "content": "Refund order 7, please."},
    {
      "role": "assistant",
      "content": null,
      "tool_calls": [
        {"id": "c1", "name": "refund_order", "arguments": {"order_id": "7"}, "requestor": "assistant"}
      ]
    },
    {"role": "tool", "id": "c1", "content": "order 7 was already refunded", "requestor": "assistant", "error": true},
    {"role": "assistant", "content": "That order was refunded before."}
  ]
}
`

// writeDir writes files (path relative to a new directory → content)
// and returns the directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func metaJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDirectorySimulation: a simulation file of tau2's directory format
// is one run, mapped as an element of "simulations" is, with meta.results
// from the results.json beside its simulations/ directory; its origin is
// the line its object starts on.
func TestDirectorySimulation(t *testing.T) {
	dir := writeDir(t, map[string]string{"results.json": dirResults, "simulations/sim-a.json": dirSimulation})
	name := filepath.Join(dir, "simulations", "sim-a.json")
	runs, errs := readAll(t, name, dirSimulation, frame.Options{})
	if len(runs) != 1 || len(errs) != 0 {
		t.Fatalf("runs %d, errors %q; want 1 run", len(runs), errs)
	}
	rn := runs[0]
	if rn.Origin.File != name || rn.Origin.Line != 2 {
		t.Errorf("origin %v, want %s:2", rn.Origin, name)
	}
	want := `e0 user "Refund order 7, please." calls=[]
e1 assistant "" calls=[0]
e2 tool "order 7 was already refunded" calls=[] id=c1 tool=refund_order failed=true err="order 7 was already refunded"
e3 assistant "That order was refunded before." calls=[]
c0 by e1(assistant) c1 refund_order args=map[order_id:7] ok=false result="order 7 was already refunded" error="order 7 was already refunded" re=2 argserr=""
output "That order was refunded before."
`
	if got := summary(rn); got != want {
		t.Errorf("run:\n%s\nwant:\n%s", got, want)
	}
	wantResults := `{"info":{"agent_info":{"implementation":"llm_agent","llm":"agent-model"},"num_trials":1,"user_info":{"implementation":"user_simulator","llm":"user-model"}},"timestamp":"2026-03-01T09:30:00"}`
	if got := metaJSON(t, rn.Meta["results"]); got != wantResults {
		t.Errorf("meta.results %s, want %s", got, wantResults)
	}
	if rn.Meta["task_id"] != "refund_7" || rn.Meta["reward"] != 0.0 || rn.Meta["termination_reason"] != "user_stop" || rn.Meta["timestamp"] != "2026-03-01T09:31:00" {
		t.Errorf("meta %v: want task_id refund_7, reward 0, termination_reason user_stop and the simulation's own timestamp", rn.Meta)
	}

	// A message error names its line in the file.
	bad := strings.Replace(dirSimulation, `"error": true`, `"error": "yes"`, 1)
	_, errs = readAll(t, name, bad, frame.Options{})
	wantErr := name + `:19: message 2: error: want a boolean, got a string`
	if !slices.Equal(errs, []string{wantErr}) {
		t.Errorf("errors %q, want %q", errs, wantErr)
	}
}

// TestDirectorySimulationAlone: without a results.json to read (standard
// input, a file outside a simulations/ directory, a simulations/ with no
// results.json beside it) the simulation reads with meta.results {}, as
// an element of a results file whose info comes after its simulations.
func TestDirectorySimulationAlone(t *testing.T) {
	dir := writeDir(t, map[string]string{"simulations/sim-a.json": dirSimulation, "loose/sim-a.json": dirSimulation})
	for _, name := range []string{"<stdin>", filepath.Join(dir, "simulations", "sim-a.json"), filepath.Join(dir, "loose", "sim-a.json")} {
		runs, errs := readAll(t, name, dirSimulation, frame.Options{})
		if len(runs) != 1 || len(errs) != 0 {
			t.Errorf("%s: runs %d, errors %q; want 1 run", name, len(runs), errs)
			continue
		}
		if got := metaJSON(t, runs[0].Meta["results"]); got != "{}" || runs[0].Meta["task_id"] != "refund_7" {
			t.Errorf("%s: meta.results %s, task_id %v; want {} and refund_7", name, got, runs[0].Meta["task_id"])
		}
	}
}

// TestDirectoryBadResults: a results.json beside simulations/ that
// cannot be read as results refuses the simulation naming it, rather
// than reading it without its header.
func TestDirectoryBadResults(t *testing.T) {
	for _, tc := range []struct{ name, results, want string }{
		{"invalid", `{"timestamp": "t", "info": {`, `info: invalid JSON`},
		{"array", `[]`, `a JSON list, want a tau2-bench results object`},
		{"a simulation", `{"id": "x", "messages": []}`, `has "messages": not a tau2-bench results object`},
		{"no info", `{"timestamp": "t", "tasks": []}`, `no "info" (the agent and user models): not a tau2-bench results object`},
	} {
		dir := writeDir(t, map[string]string{"results.json": tc.results, "simulations/sim-a.json": dirSimulation})
		name := filepath.Join(dir, "simulations", "sim-a.json")
		runs, errs := readAll(t, name, dirSimulation, frame.Options{})
		prefix := name + ":2: " + filepath.Join(dir, "results.json") + " (the results.json of tau2's directory format, read for meta.results): " + tc.want
		if len(runs) != 0 || len(errs) != 1 || !strings.HasPrefix(errs[0], prefix) {
			t.Errorf("%s: runs %d, errors %q; want one error starting %q", tc.name, len(runs), errs, prefix)
		}
	}
}

// TestDirectoryResults: the results.json of tau2's directory format gives
// no record and no error when its simulations/ is beside it (a walk of
// the directory reads each simulation from its file), and is refused
// naming the layout when it is not.
func TestDirectoryResults(t *testing.T) {
	dir := writeDir(t, map[string]string{"results.json": dirResults, "simulations/sim-a.json": dirSimulation})
	runs, errs := readAll(t, filepath.Join(dir, "results.json"), dirResults, frame.Options{})
	if len(runs) != 0 || len(errs) != 0 {
		t.Errorf("results.json beside simulations/: runs %d, errors %q; want none", len(runs), errs)
	}
	// A results.json of an older tau2 (no simulation_index) is the same.
	old := strings.Replace(dirResults, `"tasks": [{"id": "refund_7"}],`, `"tasks": [{"id": "refund_7"}]`, 1)
	old = old[:strings.Index(old, `  "simulation_index"`)] + "}\n"
	runs, errs = readAll(t, filepath.Join(dir, "results.json"), old, frame.Options{})
	if len(runs) != 0 || len(errs) != 0 {
		t.Errorf("results.json without simulation_index: runs %d, errors %q; want none", len(runs), errs)
	}
	_, errs = readAll(t, "<stdin>", dirResults, frame.Options{})
	want := []string{`<stdin>:1: the results.json of tau2's directory format (info and tasks, no "simulations"), but no simulations/ directory beside it: the simulations are its files simulations/<id>.json; give the directory that holds both (or the simulation files)`}
	if !slices.Equal(errs, want) {
		t.Errorf("results.json alone: errors %q, want %q", errs, want)
	}
}

// TestDirectoryVoice: a full-duplex (voice) simulation, ticks and no
// messages, stays refused with the reason.
func TestDirectoryVoice(t *testing.T) {
	voice := `{"id": "v", "task_id": "40", "termination_reason": "user_stop", "trial": 0, "mode": "full_duplex", "ticks": [{"tick_id": 0}]}`
	_, errs := readAll(t, "simulations/v.json", voice, frame.Options{})
	want := []string{"simulations/v.json:1: messages: missing or null but ticks given: a full-duplex (voice) simulation, which this reader does not read"}
	if !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
}

// TestDirectoryLimits: a simulation file is bounded by MaxRecordBytes as
// an element is, white space before it included only as far as the
// read-ahead; a big simulation within the limit is given whole.
func TestDirectoryLimits(t *testing.T) {
	big := strings.Replace(dirSimulation, "Refund order 7, please.", strings.Repeat("x", 300<<10), 1)
	runs, errs := readAll(t, "s.json", strings.Repeat(" \n", 200<<10)+big, frame.Options{MaxRecordBytes: 400 << 10})
	if len(runs) != 1 || len(errs) != 0 {
		t.Fatalf("runs %d, errors %q; want 1 run", len(runs), errs)
	}
	if got := runs[0].Origin.Line; got != 200<<10+2 {
		t.Errorf("origin line %d, want %d", got, 200<<10+2)
	}
	if n := len(runs[0].Events[0].Content); n != 300<<10 {
		t.Errorf("first message %d bytes, want %d", n, 300<<10)
	}
	_, errs = readAll(t, "s.json", big, frame.Options{MaxRecordBytes: 100 << 10})
	want := []string{"s.json:2: the simulation: longer than the limit of 102400 bytes (raise it with --max-record-bytes); the rest of the file is not read"}
	if !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
}

// TestSniffDirectory: format auto claims both files of the directory
// format for tau-bench: the simulation by task_id and termination_reason,
// results.json by info with tasks (or the agent and user infos, when
// tasks is past the head).
func TestSniffDirectory(t *testing.T) {
	for _, head := range []string{dirSimulation, dirResults, `{"timestamp": "t", "info": {"agent_info": {}, "user_info": {}, "x": "` + strings.Repeat("y", 100)} {
		if !Sniff([]byte(head)) {
			t.Errorf("not claimed: %.60q", head)
		}
	}
	if Sniff([]byte(`{"messages": [], "task_id": "t"}`)) {
		t.Error("claimed a record with task_id but no termination_reason")
	}
}

// TestDirectoryIndex: a simulation results.json's simulation_index lists
// with no file in simulations/ would be a run missing without a word:
// results.json is refused naming it. A null index, or a file the index
// does not list, is not an error.
func TestDirectoryIndex(t *testing.T) {
	index := `"simulation_index": [{"id": "sim-a"}, {"id": "../sim-a"}, {"id": "sim-c", "trial": 1}]`
	results := `{"timestamp": "t", "info": {}, "tasks": [], ` + index + `}`
	dir := writeDir(t, map[string]string{"results.json": results, "simulations/sim-a.json": dirSimulation, "simulations/extra.json": dirSimulation})
	name := filepath.Join(dir, "results.json")
	_, errs := readAll(t, name, results, frame.Options{})
	want := []string{name + `:1: simulation_index lists 2 simulation(s) with no file in ` + filepath.Join(dir, "simulations") + ` ("../sim-a", "sim-c"): the directory is incomplete, and their runs would be missing`}
	if !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	for _, ok := range []string{`{"info": {}, "tasks": [], "simulation_index": null}`, `{"info": {}, "tasks": [], "simulation_index": [{"id": "sim-a"}]}`} {
		if runs, errs := readAll(t, name, ok, frame.Options{}); len(runs) != 0 || len(errs) != 0 {
			t.Errorf("%s: runs %d, errors %q; want none", ok, len(runs), errs)
		}
	}
	bad := `{"info": {}, "tasks": [], "simulation_index": [{"id": 3}]}`
	_, errs = readAll(t, name, bad, frame.Options{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0], name+`:1: simulation_index: want a list of {"id", ...}`) {
		t.Errorf("errors %q, want one about simulation_index", errs)
	}
}
