package eval

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript"
)

// A match whose program is large (3,002 instructions) on a 100 kB output
// is charged len × program size, over the limit, and refused before it
// runs: the label is unknown at the cost limit, where it ran for seconds
// (26 s at 1 MB) and was false, unmetered (issue 17). A regex criterion of
// ordinary size is decided as before.
func TestRegexProgramSizeMeetsCostLimit(t *testing.T) {
	dir := t.TempDir()
	src := `contract "c" { version = "1" }
threat_model {}
task "heavy" { utility = "output.matches('(?:a?){1000}a{1000}')" }
task "plain" { utility = "output.matches('a+b$')" }
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tenet.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := compileDir(t, dir)
	s, err := p.Source("")
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Repeat(strings.Repeat("a", 999)+"b", 100)
	for _, c := range []struct {
		task string
		want string // "" known true
	}{
		{"heavy", "utility of task heavy (main.tenet.hcl:3:26): operation cancelled: actual cost limit exceeded (contract run_cost_limit 10000000)"},
		{"plain", ""},
	} {
		data, err := json.Marshal(map[string]any{"messages": []any{
			map[string]any{"role": "user", "content": "x"},
			map[string]any{"role": "assistant", "content": out},
		}, "metadata": map[string]any{"task": c.task, "agent": "a"}})
		if err != nil {
			t.Fatal(err)
		}
		rd, err := transcript.Open("openai-messages", "t.jsonl", bytes.NewReader(append(data, '\n')), transcript.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		j, err := p.Judge(s, r)
		if err != nil {
			t.Fatal(err)
		}
		l := j.Record.Utility
		if c.want == "" && (!l.Known || !l.Value) {
			t.Errorf("%s: %+v, want known", c.task, l)
		}
		if c.want != "" && (l.Known || l.Reason != c.want) {
			t.Errorf("%s: known %v, reason %q, want unknown: %s", c.task, l.Known, l.Reason, c.want)
		}
	}
}
