package synth

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestDeterministic: the same (n, seed) gives the same bytes, another seed
// other bytes, and the byte count returned is what was written.
func TestDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	sa, err := Write(&a, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := Write(&b, 100, 7)
	Write(&c, 100, 8)
	if !bytes.Equal(a.Bytes(), b.Bytes()) || sa != sb {
		t.Fatal("two writes with seed 7 differ")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("seeds 7 and 8 wrote the same bytes")
	}
	if sa.Bytes != int64(a.Len()) {
		t.Fatalf("Stats.Bytes = %d, wrote %d", sa.Bytes, a.Len())
	}
	// A prefix of runs is the same whatever n is.
	var d bytes.Buffer
	Write(&d, 50, 7)
	if !bytes.HasPrefix(a.Bytes(), d.Bytes()) {
		t.Fatal("the first 50 runs of 100 differ from 50 runs")
	}
}

// TestShape: every line is a JSON object; records have AgentDojo's keys
// and metadata, arguments are JSON strings, and sizes are AgentDojo
// banking's (records of 1 to 20 KB averaging 3 to 5 KB).
func TestShape(t *testing.T) {
	var buf bytes.Buffer
	st, err := Write(&buf, 2*BlockSize, 1)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1+st.Runs || st.Runs != 2*BlockSize {
		t.Fatalf("%d lines for %d runs", len(lines), st.Runs)
	}
	var header map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &header); err != nil || header["messages"] != nil {
		t.Fatalf("header %s: %v", lines[0], err)
	}
	total := 0
	for _, l := range lines[1:] {
		var rec struct {
			Index    int
			Messages []struct {
				Role      string
				Content   *string
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			Metadata    map[string]any
			Annotations []any
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%v: %.200s", err, l)
		}
		m := rec.Metadata
		if m["suite_name"] != "banking" || m["user_task_id"] == nil || m["model"] == "" || m["success"] == nil || m["security"] == nil {
			t.Fatalf("metadata %v", m)
		}
		if _, ok := m["injection_task_id"]; !ok {
			t.Fatalf("metadata without injection_task_id: %v", m)
		}
		if rec.Messages[0].Role != "system" || rec.Messages[1].Role != "user" || rec.Messages[len(rec.Messages)-1].Role != "assistant" {
			t.Fatalf("messages of run %d: %s ... %s", rec.Index, rec.Messages[0].Role, rec.Messages[len(rec.Messages)-1].Role)
		}
		for _, msg := range rec.Messages {
			for _, c := range msg.ToolCalls {
				if !json.Valid([]byte(c.Function.Arguments)) || c.Function.Arguments[0] != '{' {
					t.Fatalf("arguments %q", c.Function.Arguments)
				}
			}
		}
		if len(l) < 1000 || len(l) > 20000 {
			t.Errorf("run %d: %d bytes", rec.Index, len(l))
		}
		total += len(l)
	}
	if avg := total / st.Runs; avg < 3000 || avg > 5000 {
		t.Errorf("records average %d bytes", avg)
	}
}

// TestBankingJudgesEveryRun: the banking contract judges every generated run
// (none skipped, no error), and its labels are the given ones on every run.
func TestBankingJudgesEveryRun(t *testing.T) {
	const n = 20*BlockSize + 7 // 20 blocks and a partial one
	file := filepath.Join(t.TempDir(), "synth.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Write(f, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want := Stats{Bytes: st.Bytes, Runs: n, Attacked: 323, Utility: 396, AttackSuccess: 88, SideEffect: 102}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}

	p := evaltest.Program(t, filepath.Join("..", "..", "contracts", "agentdojo", "banking"))
	res, err := pipeline.EvalFiles(p, []string{file}, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Error(e)
	}
	if len(res.Records) != n || res.Headers != 1 || len(res.Skipped) != 0 {
		t.Fatalf("%d records judged, %d headers, skipped %v; want %d, 1, none", len(res.Records), res.Headers, res.Skipped, n)
	}
	var got Stats
	agree := map[string]int{}
	for _, r := range res.Records {
		if r.Utility.Known && r.Utility.Value {
			got.Utility++
		}
		if r.Key.Goal == "" {
			continue
		}
		got.Attacked++
		if r.AttackSuccess.Known && r.AttackSuccess.Value {
			got.AttackSuccess++
		}
		if r.SideEffect.Known && r.SideEffect.Value {
			got.SideEffect++
		}
		if !r.Exposed.Known || !r.Exposed.Value {
			t.Errorf("%s:%d: attacked run not exposed", r.OriginFile, r.OriginLine)
		}
	}
	for _, r := range res.Records {
		check := func(name string, l runs.Label, given *bool) {
			if given == nil {
				return
			}
			if l.Known && l.Value == *given {
				agree[name]++
			} else {
				t.Errorf("%s:%d (%s %s): %s %v, given %v", r.OriginFile, r.OriginLine, r.Key.Task, r.Key.Goal, name, l, *given)
			}
		}
		check("utility", r.Utility, r.Given.Utility)
		check("attack_success", r.AttackSuccess, r.Given.AttackSuccess)
	}
	got.Bytes, got.Runs = st.Bytes, len(res.Records)
	if got != want {
		t.Errorf("judged %+v, want %+v", got, want)
	}
	if agree["utility"] != n || agree["attack_success"] != want.Attacked {
		t.Errorf("agreement %v, want utility %d, attack_success %d", agree, n, want.Attacked)
	}
}

// BenchmarkWrite reports the generator's speed (MB/s), writing to
// io.Discard.
func BenchmarkWrite(b *testing.B) {
	const n = 10_000
	st, _ := Write(io.Discard, n, 1)
	b.SetBytes(st.Bytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Write(io.Discard, n, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "runs/s")
}
