package agentdojo_test

import (
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/consistency"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// BenchmarkCheckTexts measures the two checks of an expression's text
// against its compiled form (docs/bundle.md, "Consistency") on the four
// AgentDojo bundles: quick, the one eval.Plan always makes (included in
// BenchmarkColdStart), and full, inspect --verify's.
func BenchmarkCheckTexts(b *testing.B) {
	var bundles []*bundle.Bundle
	for _, s := range suiteDirs {
		bundles = append(bundles, evaltest.Build(b, s).Bundle)
	}
	for _, mode := range []struct {
		name string
		full bool
	}{{"quick", false}, {"full", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, bun := range bundles {
					issues, err := consistency.CheckTexts(bun, mode.full)
					if err != nil || issues.Len() > 0 {
						b.Fatal(issues, err)
					}
				}
			}
		})
	}
}
