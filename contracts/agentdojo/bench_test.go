package agentdojo_test

import (
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
)

// suiteDirs are the four AgentDojo contracts, the collection that
// `tenet eval contracts/agentdojo` evaluates.
var suiteDirs = []string{"banking", "slack", "travel", "workspace"}

// BenchmarkBuild measures `tenet build` of the four AgentDojo contracts
// (parse, check, compile, encode and hash each bundle), per op all four.
// Target (issue 8): ≤ 1 s.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range suiteDirs {
			if _, diags := compiler.BuildDir(s, compiler.Options{Formats: transcript.Formats()}); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	}
}

// BenchmarkColdStart measures what `tenet eval X.tnb` does before reading
// its first transcript, for the four AgentDojo bundles: verify each
// bundle's sha256 and format, decode it, validate it, rebuild its CEL
// environments and plan every expression (eval.Load). Per op all four
// ("all"), or one suite's;
// bundle bytes are in memory (file reads are the OS's cost). Target
// (issue 8): ≤ 30 ms.
func BenchmarkColdStart(b *testing.B) {
	var data [][]byte
	size := 0
	for _, s := range suiteDirs {
		built, diags := compiler.BuildDir(s, compiler.Options{Formats: transcript.Formats()})
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		data = append(data, built.Data)
		size += len(built.Data)
	}
	b.Run("all", func(b *testing.B) {
		b.ReportMetric(float64(size), "bundle-bytes")
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range data {
				if _, err := eval.Load(d); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	// consistent: as `tenet eval` plans a bundle it compiled, or took from
	// the compile cache (eval.PlanConsistent: no text checks, each
	// expression planned on first use; here none is used).
	b.Run("consistent", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range data {
				bd, id, err := bundle.Decode(d)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := eval.PlanConsistent(bd, id); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for i, s := range suiteDirs {
		b.Run(s, func(b *testing.B) {
			b.ReportMetric(float64(len(data[i])), "bundle-bytes")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eval.Load(data[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
