package beampipe

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
)

// BenchmarkBeamVsEval judges the same inputs with the banking contract
// each iteration twice, in this process: the Beam pipeline on Prism
// (match, frame, judge, shards, report) and tenet eval
// (eval/assemble.Evaluate with a runs file), each loading the bundle. It
// reports each one's records/s and their ratio (eval-over-beam: how many
// times faster tenet eval is), in wall time and in the process's CPU time
// (getrusage: every thread, which the machine's other work disturbs less;
// -cpu-s). The Prism figure includes its per-pipeline
// start (job submission, the in-process worker, the stages' fusion).
//
//   - traces: the 12 AgentDojo trace files (2,340 records: 384 banking
//     runs judged, the other suites' records left unselected by a peek,
//     12 headers);
//   - runfiles: AgentDojo's banking run files of the 12 agents (one
//     record per file, every one judged).
func BenchmarkBeamVsEval(b *testing.B) {
	root := sharedDir(b)
	b.Run("traces", func(b *testing.B) {
		benchBoth(b, filepath.Join(root, "agentdojo", "traces", "*.jsonl"), 2340)
	})
	b.Run("runfiles", func(b *testing.B) {
		glob := filepath.Join(root, "agentdojo", "runs", "*", "banking", "*", "*", "*.json")
		files, _ := filepath.Glob(glob)
		benchBoth(b, glob, len(files))
	})
}

func benchBoth(b *testing.B, glob string, records int) {
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		b.Fatalf("no inputs at %s", glob)
	}
	bundle := banking(b)
	var beamTime, evalTime, beamCPU, evalCPU time.Duration
	dir := b.TempDir()
	b.ResetTimer()
	for i := range b.N {
		o := Options{Contracts: bundle, Input: glob, Out: filepath.Join(dir, fmt.Sprint("runs", i)),
			Report: filepath.Join(dir, fmt.Sprint("report", i, ".json")), Cases: metrics.CasesObserved, MaxListed: report.DefaultMaxListed}
		start, cpu := time.Now(), cpuTime()
		if err := runBeam(b, o); err != nil {
			b.Fatal(err)
		}
		beamTime, beamCPU = beamTime+time.Since(start), beamCPU+cpuTime()-cpu
		start, cpu = time.Now(), cpuTime()
		tenetEval(b, o, files, filepath.Join(dir, "eval.jsonl"))
		evalTime, evalCPU = evalTime+time.Since(start), evalCPU+cpuTime()-cpu
	}
	n := float64(b.N * records)
	b.ReportMetric(n/beamTime.Seconds(), "beam-records/s")
	b.ReportMetric(n/evalTime.Seconds(), "eval-records/s")
	b.ReportMetric(beamTime.Seconds()/evalTime.Seconds(), "eval-over-beam")
	b.ReportMetric(n/beamCPU.Seconds(), "beam-records/cpu-s")
	b.ReportMetric(n/evalCPU.Seconds(), "eval-records/cpu-s")
	b.ReportMetric(beamCPU.Seconds()/evalCPU.Seconds(), "eval-over-beam-cpu")
	b.ReportMetric(0, "ns/op")
}
