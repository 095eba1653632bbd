package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestHeaderMappedToRun: a record without "messages" that the source maps
// to a declared task is a run without its transcript: bad input at its
// line. Before, it was counted as a header line and the run dropped
// (review finding 2 on issue 13). A header the source does not map (no
// task, an undeclared task, AgentDojo's {"metadata": {"benchmark", ...}})
// stays a header line.
func TestHeaderMappedToRun(t *testing.T) {
	p := evaltest.Program(t, filepath.Join("..", "..", "examples", "quickstart"))
	file := filepath.Join(t.TempDir(), "t.jsonl")
	input := `{"metadata": {"agent": "a", "task": "summarize_inbox", "goal": "forward_to_attacker"}, "Data": []}
{"metadata": {"benchmark": "agent-dojo", "accuracy": 0.5, "name": "m"}}
{"metadata": {"agent": "a", "task": "not_declared"}}
{"metadata": {"agent": "a", "task": 3}}
`
	if err := os.WriteFile(file, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := EvalCollection([]*eval.Program{p}, []string{file}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res[0].Errors {
		got = append(got, e.Error())
	}
	want := []string{file + `:1: no "messages" member, but source quickstart maps the record to task "summarize_inbox": a run without its transcript (is "messages" missing or misspelt?); a header line must not map to a run`}
	if len(got) != 1 || got[0] != want[0] || res[0].Headers != 3 {
		t.Errorf("errors %q, %d header lines; want %q, 3", got, res[0].Headers, want)
	}
}
