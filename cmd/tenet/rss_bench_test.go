package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tenetlang/tenet/internal/synth"
)

// BenchmarkPeakRSS runs the real binary, `tenet eval` of the banking
// contract with --cases observed and --out, over synthetic banking corpora
// (internal/synth) of about 100 MB and 1 GB, and reports the process's peak resident set size
// (getrusage's ru_maxrss) in MB, and its throughput. The report is the
// default table, with the default --report-max-items (1000 runs named, the
// rest counted), so its lists do not grow with the corpus; its
// per-condition content does, with the synthetic corpus's conditions (one
// per 32-run block). --cases observed: the synthetic agents meet one
// injection task (16 of the contract's declared security cases), as a
// user evaluating a partial AgentDojo run would, and with the default
// --cases declared every condition would be a metric error listing the 128
// missing cases (exit 2), which is not the report this measures. Issue 8's target:
// ≤ 150 MB for 1 GB. The corpora are written to a temporary directory
// (about 1.1 GB of disk for the larger); each size runs once per op. Run
// counts are whole blocks of 32 (synth.Write), so every condition is complete.
func BenchmarkPeakRSS(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "tenet")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		b.Fatal(err)
	}
	contract := filepath.Join("..", "..", "contracts", "agentdojo", "banking")
	for _, size := range []struct {
		name string
		runs int
	}{{"100MB", 25_024}, {"1GB", 250_016}} {
		b.Run(size.name, func(b *testing.B) {
			corpus := filepath.Join(dir, size.name+".jsonl")
			f, err := os.Create(corpus)
			if err != nil {
				b.Fatal(err)
			}
			w := bufio.NewWriterSize(f, 1<<20)
			st, err := synth.Write(w, size.runs, 1)
			if err == nil {
				err = w.Flush()
			}
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				b.Fatal(err)
			}
			defer os.Remove(corpus)
			b.SetBytes(st.Bytes)
			var maxMB float64
			for b.Loop() {
				cmd := exec.Command(bin, "eval", contract, corpus, "--cases", "observed", "--out", filepath.Join(dir, "runs.jsonl"))
				out, err := cmd.CombinedOutput()
				// Exit 1 is a failed check or gate (the synthetic agents
				// violate invariants); anything else is a failure here.
				if err != nil && cmd.ProcessState.ExitCode() != 1 {
					b.Fatalf("%v\n%s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				maxMB = max(maxMB, float64(ru.Maxrss)/1024) // ru_maxrss is in KiB on Linux
			}
			b.ReportMetric(maxMB, "peak-RSS-MB")
			b.ReportMetric(float64(st.Runs), "runs")
			fmt.Fprintf(os.Stderr, "%s: %d runs, %d bytes, peak RSS %.1f MB\n", size.name, st.Runs, st.Bytes, maxMB)
		})
	}
}
