package report

import (
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/gates"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
)

// testInput is what the tests build a Document from: records, as tenet
// report reads them, the contracts' declarations and the programs whose
// gates apply. eval/assemble does the same for the commands; it imports
// this package, so these tests cannot use it.
type testInput struct {
	Command   string
	Version   string
	Inputs    []string
	Contracts []Contract
	Records   []runs.Record
	Declared  map[string]metrics.Declared
	Programs  []*eval.Program
	Metrics   metrics.Options
	MaxListed int
}

// testBuild computes in's metrics and gates and builds its Document.
func testBuild(in testInput) *Document {
	return buildWith(in, summary.Collect(in.Records, in.Declared, in.Metrics, in.MaxListed))
}

// buildWith evaluates in's gates on res and builds the Document.
func buildWith(in testInput, res summary.Results) *Document {
	gs, gerrs := gates.Evaluate(in.Programs, res.Conditions, res.Checks)
	return Build(Input{Command: in.Command, Version: in.Version, Inputs: in.Inputs, Contracts: in.Contracts,
		Results: res, Gates: gs, GateErrors: gerrs, MaxListed: in.MaxListed})
}
