package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/shared"
)

// bankingRuns compiles the banking contract and reads every banking run of
// the 12 AgentDojo agents into memory (so the benchmark measures judging,
// not reading). It returns the bundle and the runs.
func bankingRuns(b *testing.B) (*bundle.Bundle, string, []*run.Run) {
	b.Helper()
	// Decoded from the bundle's bytes, as eval reads it.
	bun, id, err := bundle.Decode(buildDir(b, filepath.Join("..", "contracts", "agentdojo", "banking")).Data)
	if err != nil {
		b.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(shared.Dir(b), "agentdojo", "traces", "*.jsonl"))
	var rs []*run.Run
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			b.Fatal(err)
		}
		rd, _ := transcript.Open("openai-messages", f, fh, transcript.Options{})
		for {
			r, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if r.Meta["suite_name"] == "banking" {
				rs = append(rs, r)
			}
		}
		fh.Close()
	}
	return bun, id, rs
}

// BenchmarkJudgeBanking measures judging (source mapping, predicates,
// every label) of the 384 banking runs, with the runtime cost limit
// (metered, as eval always runs) and without cost tracking, to show what
// tracking costs. Reported per run.
func BenchmarkJudgeBanking(b *testing.B) {
	bun, id, rs := bankingRuns(b)
	for _, tc := range []struct {
		name    string
		metered bool
	}{{"metered", true}, {"unmetered", false}} {
		b.Run(tc.name, func(b *testing.B) {
			p, err := plan(bun, id, tc.metered)
			if err != nil {
				b.Fatal(err)
			}
			src, _ := p.Source("")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := rs[i%len(rs)]
				if _, err := p.Judge(src, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// corpus is the AgentDojo traces in memory: each file's bytes and its
// non-blank lines (records, header lines included), with their total size.
type corpus struct {
	files []corpusFile
	lines [][]byte
	bytes int64
}

type corpusFile struct {
	name string
	data []byte
}

func loadCorpus(b *testing.B) *corpus {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join(shared.Dir(b), "agentdojo", "traces", "*.jsonl"))
	if len(files) == 0 {
		b.Skip("no AgentDojo traces")
	}
	c := &corpus{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		c.files = append(c.files, corpusFile{name: f, data: data})
		c.bytes += int64(len(data))
		for line := range bytes.SplitSeq(data, []byte{'\n'}) {
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines = append(c.lines, line)
			}
		}
	}
	return c
}

// agentdojoPrograms plans the four AgentDojo contracts through the bundle
// encoding, as `tenet eval DIR` does.
func agentdojoPrograms(b testing.TB) []*Program {
	b.Helper()
	var ps []*Program
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		p := compileDir(b, filepath.Join("..", "contracts", "agentdojo", s))
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkCorpus measures throughput over the 12 AgentDojo trace files
// (2,340 lines, 2,328 runs), one goroutine, one op = the whole corpus, so
// that MB/s and runs/s compare directly across sub-benchmarks:
//
//   - encoding-json: json.Unmarshal of every line into `any` (the yardstick);
//   - decode: tenet's openai-messages reader (framing and decoding into run.Run);
//   - judge: the four AgentDojo contracts on the decoded runs (each run is
//     judged by the contract whose source selects it; the other three only
//     evaluate their select);
//   - decode+judge: both, end to end, as `tenet eval` does per file.
func BenchmarkCorpus(b *testing.B) {
	c := loadCorpus(b)
	ps := agentdojoPrograms(b)
	srcs := make([]*bundle.SourcePlan, len(ps))
	for i, p := range ps {
		var err error
		if srcs[i], err = p.Source(""); err != nil {
			b.Fatal(err)
		}
	}
	readAll := func(b *testing.B, each func(*run.Run)) int {
		n := 0
		for _, f := range c.files {
			rd, err := transcript.Open("openai-messages", f.name, bytes.NewReader(f.data), transcript.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for {
				r, err := rd.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n++
				each(r)
			}
		}
		return n
	}
	judge := func(b *testing.B, r *run.Run) {
		judged := 0
		for i, p := range ps {
			j, err := p.Judge(srcs[i], r)
			if err != nil {
				b.Fatal(err)
			}
			if j.Skip == Judged {
				judged++
			}
		}
		if judged != 1 {
			b.Fatalf("%s:%d: judged by %d contracts, want 1", r.Origin.File, r.Origin.Line, judged)
		}
	}
	// Only the judge case keeps the decoded runs in memory; the others
	// stream, as tenet eval does, so that the collector does not mark a
	// decoded corpus they do not use.
	nruns := readAll(b, func(*run.Run) {})
	// report adds runs/s and, where the OS says, the process's CPU time per
	// op (user and system, GC included: steadier than wall time when other
	// work shares the machine). cpu0 is cpuTime() before the loop.
	report := func(b *testing.B, runs int, cpu0 int64) {
		b.ReportMetric(float64(runs*b.N)/b.Elapsed().Seconds(), "runs/s")
		if cpu0 >= 0 {
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
		}
	}

	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(c.bytes)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			for _, line := range c.lines {
				var v any
				if err := json.Unmarshal(line, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b, nruns, cpu0)
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(c.bytes)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			readAll(b, func(*run.Run) {})
		}
		report(b, nruns, cpu0)
	})
	b.Run("judge", func(b *testing.B) {
		var decoded []*run.Run
		readAll(b, func(r *run.Run) { decoded = append(decoded, r) })
		runtime.GC()
		b.SetBytes(c.bytes)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			for _, r := range decoded {
				judge(b, r)
			}
		}
		report(b, nruns, cpu0)
	})
	// judge-run-timeout is judge with tenet eval's default run time limit:
	// every expression is evaluated under the run's deadline
	// (cel-go's ContextEval), which costs a context per run and per
	// evaluation.
	b.Run("judge-run-timeout", func(b *testing.B) {
		var decoded []*run.Run
		readAll(b, func(r *run.Run) { decoded = append(decoded, r) })
		for _, p := range ps {
			p.RunTimeout = 20 * time.Second
		}
		defer func() {
			for _, p := range ps {
				p.RunTimeout = 0
			}
		}()
		runtime.GC()
		b.SetBytes(c.bytes)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			for _, r := range decoded {
				judge(b, r)
			}
		}
		report(b, nruns, cpu0)
	})
	b.Run("decode+judge", func(b *testing.B) {
		b.SetBytes(c.bytes)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			readAll(b, func(r *run.Run) { judge(b, r) })
		}
		report(b, nruns, cpu0)
	})
}
