package eval

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/compiler"
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
	_, bun, diags := compiler.CompileDir(filepath.Join("..", "contracts", "agentdojo", "banking"), compiler.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	data, id, err := bundle.Encode(bun)
	if err != nil {
		b.Fatal(err)
	}
	bun, id, err = bundle.Decode(data)
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
