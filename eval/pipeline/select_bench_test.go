package pipeline_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
)

// BenchmarkSelectBeforeDecoding measures the evaluation pipeline (framing,
// peeking, decoding, judging, collecting; one worker) over the 12 AgentDojo
// trace files: "banking", one contract, which selects a sixth of the
// records (the others are left undecoded since issue 17), and "four", the
// four AgentDojo contracts (every record selected by one, so decoded),
// next to "encoding-json", encoding/json decoding every line into generic
// values (the yardstick of docs/performance.md). One op is the corpus; it
// reports the process's CPU time per op (cpu-ms/op), which other work on
// the machine disturbs less than wall time. Run with -cpu 1.
func BenchmarkSelectBeforeDecoding(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(b), "agentdojo", "traces", "*.jsonl"))
	if len(files) == 0 {
		b.Fatal("no trace files")
	}
	var size int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += fi.Size()
	}
	contracts := filepath.Join("..", "..", "contracts", "agentdojo")
	banking := []*eval.Program{evaltest.Program(b, filepath.Join(contracts, "banking"))}
	var four []*eval.Program
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		four = append(four, evaltest.Program(b, filepath.Join(contracts, s)))
	}
	measure := func(b *testing.B, op func()) {
		b.SetBytes(size)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			op()
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	}
	b.Run("encoding-json", func(b *testing.B) {
		measure(b, func() {
			for _, f := range files {
				fh, err := os.Open(f)
				if err != nil {
					b.Fatal(err)
				}
				s := bufio.NewScanner(fh)
				s.Buffer(nil, 64<<20)
				for s.Scan() {
					var v any
					if err := json.Unmarshal(s.Bytes(), &v); err != nil && len(s.Bytes()) > 0 {
						b.Fatal(err)
					}
				}
				fh.Close()
			}
		})
	})
	for _, tc := range []struct {
		name     string
		programs []*eval.Program
		judged   int
	}{{"banking", banking, 384}, {"four", four, 2328}} {
		b.Run(tc.name, func(b *testing.B) {
			measure(b, func() {
				results, err := pipeline.EvalCollection(tc.programs, files, pipeline.Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				judged := 0
				for _, r := range results {
					judged += len(r.Records)
					r.Close()
				}
				if judged != tc.judged {
					b.Fatalf("%d runs judged, want %d", judged, tc.judged)
				}
			})
		})
	}
}
