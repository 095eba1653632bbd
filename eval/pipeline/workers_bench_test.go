package pipeline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/synth"
)

// BenchmarkEvalWorkers measures end-to-end evaluation (framing, decoding,
// judging, collecting) of a synthetic banking corpus of 4,000 runs (~16 MB,
// internal/synth) by the banking contract, with 1, 2 and 4 workers. It
// reports MB/s (b.SetBytes) and runs/s. Issue 8's target: 2 workers ≥ 1.7×
// one worker, which needs 2 idle cores to show.
func BenchmarkEvalWorkers(b *testing.B) {
	p := evaltest.Program(b, filepath.Join("..", "..", "contracts", "agentdojo", "banking"))
	file := filepath.Join(b.TempDir(), "synth.jsonl")
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	st, err := synth.Write(f, 4000, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(st.Bytes)
			var judged int
			for b.Loop() {
				res, err := pipeline.EvalFiles(p, []string{file}, pipeline.Options{Workers: w})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Errors) > 0 {
					b.Fatal(res.Errors[0])
				}
				judged = len(res.Records)
			}
			b.ReportMetric(float64(judged)*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}
