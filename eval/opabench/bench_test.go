package opabench

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/tenetlang/tenet/eval/transcript"
)

// BenchmarkBanking judges banking runs, one run per iteration (cycling
// through the corpus), with:
//
//	opa          the prepared query data.banking.verdict (banking.rego):
//	             utility of the run's task, the goal's success, the side
//	             effect, exposure, one invariant
//	tenet-subset the banking contract cut to the same criteria (no
//	             contracts/common but its no_send_after_untrusted_read, no
//	             audit): the same work as the Rego
//	tenet-full   the shipped banking contract as tenet eval judges with it,
//	             which does more: three invariants and the audit of every
//	             call against the grant
//
// each from decoded runs (decoded: OPA's input already an AST value, tenet's
// run already read) and from the JSONL record (json: OPA decodes with
// util.UnmarshalJSON and converts the value, as EvalInput does; tenet
// decodes with transcript.Decode). Corpora: the 384 AgentDojo banking runs
// (when the shared folder is there) and 1,024 synthetic runs. Reported per
// run: ns/run and runs/s (wall time), cpu-ns/run (CPU time).
func BenchmarkBanking(b *testing.B) {
	ctx := context.Background()
	pq := prepare(b)
	judges := []struct {
		name string
		j    judge
	}{{"tenet-subset", subsetJudge(b)}, {"tenet-full", fullJudge(b)}}
	for _, c := range corpora(b) {
		n := len(c.runs)
		b.Run(c.name+"/opa/decoded", func(b *testing.B) {
			measure(b, func(i int) error {
				_, err := Eval(ctx, pq, rego.EvalParsedInput(c.inputs[i%n]))
				return err
			})
		})
		b.Run(c.name+"/opa/json", func(b *testing.B) {
			measure(b, func(i int) error {
				var x any
				if err := util.UnmarshalJSON(c.lines[i%n], &x); err != nil {
					return err
				}
				_, err := Eval(ctx, pq, rego.EvalInput(x))
				return err
			})
		})
		for _, jd := range judges {
			b.Run(c.name+"/"+jd.name+"/decoded", func(b *testing.B) {
				measure(b, func(i int) error {
					_, err := jd.j.p.Judge(jd.j.src, c.runs[i%n])
					return err
				})
			})
			b.Run(c.name+"/"+jd.name+"/json", func(b *testing.B) {
				measure(b, func(i int) error {
					r, _, err := transcript.Decode(format, c.origin[i%n], c.lines[i%n])
					if err != nil {
						return err
					}
					_, err = jd.j.p.Judge(jd.j.src, r)
					return err
				})
			})
		}
	}
}

// measure runs judgeRun b.N times and reports wall time per run (ns/run,
// runs/s) and the process's CPU time per run (cpu-ns/run: every thread,
// the garbage collector's included), which other processes on a shared
// machine disturb less than wall time.
func measure(b *testing.B, judgeRun func(i int) error) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := judgeRun(i); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/run")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/run")
}
