package authorize_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
)

// bankingCalls is the shipped banking contract's Authorizer and every
// top-level call of the banking runs of the shared AgentDojo traces, as a
// host would hand them over (id, tool, arguments).
func bankingCalls(tb testing.TB) (*authorize.Authorizer, []authorize.Call) {
	tb.Helper()
	p := evaltest.Program(tb, "../../contracts/agentdojo/banking")
	src, err := p.Source("")
	if err != nil {
		tb.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(shared.Dir(tb), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	var calls []authorize.Call
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			tb.Fatal(err)
		}
		r, err := transcript.Open(transcript.Auto, file, f, transcript.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		for {
			rn, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				tb.Fatal(err)
			}
			if sel, ok := p.PeekSelect(src, rn.Meta, rn.Record, nil); !ok || !sel {
				continue
			}
			for _, c := range rn.Calls {
				if c.Parent < 0 {
					calls = append(calls, authorize.Call{ID: c.ID, Tool: c.Tool, Args: c.Args, ArgsError: c.ArgsError})
				}
			}
		}
		f.Close()
	}
	if len(calls) != 823 { // TestAuthorizeIsTheAudit's banking total
		tb.Fatalf("%d banking calls, want 823", len(calls))
	}
	return authorize.New(p.Bundle, p.ID), calls
}

// BenchmarkAuthorize decides the 823 real banking calls round-robin under
// the shipped grant "default" (issue 18's target: p99 ≤ 5 µs). Besides
// ns/op it reports the distribution of single calls, each timed on its
// own: p50-ns, p99-ns and max-ns (the clock reads are in the figures).
//
//	go test ./eval/authorize -run '^$' -bench BenchmarkAuthorize -benchmem
func BenchmarkAuthorize(b *testing.B) {
	a, calls := bankingCalls(b)
	b.Run("serial", func(b *testing.B) {
		samples := make([]time.Duration, 0, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			if _, err := a.Authorize(calls[i%len(calls)], "default"); err != nil {
				b.Fatal(err)
			}
			samples = append(samples, time.Since(t0))
		}
		b.StopTimer()
		reportQuantiles(b, samples)
	})
	b.Run("parallel", func(b *testing.B) {
		var mu sync.Mutex
		var all []time.Duration
		var seed int
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			mu.Lock()
			i := seed * 97 // each goroutine starts elsewhere in the calls
			seed++
			mu.Unlock()
			var samples []time.Duration
			for pb.Next() {
				t0 := time.Now()
				if _, err := a.Authorize(calls[i%len(calls)], "default"); err != nil {
					b.Error(err)
					return
				}
				samples = append(samples, time.Since(t0))
				i++
			}
			mu.Lock()
			all = append(all, samples...)
			mu.Unlock()
		})
		b.StopTimer()
		reportQuantiles(b, all)
	})
}

// reportQuantiles reports the p50, p99 and max of samples.
func reportQuantiles(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	q := func(p float64) float64 {
		return float64(samples[min(len(samples)-1, int(p*float64(len(samples))))].Nanoseconds())
	}
	b.ReportMetric(q(0.50), "p50-ns")
	b.ReportMetric(q(0.99), "p99-ns")
	b.ReportMetric(float64(samples[len(samples)-1].Nanoseconds()), "max-ns")
}
