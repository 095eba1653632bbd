package assemble

import (
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
)

// unselectedOf is the Document's account of the records no contract
// selected (pipeline.AllUnselected). It never fails the evaluation: a
// directory of runs often holds suites or agents no contract of the
// collection covers, and the count says so (docs/cli.md, "Records no
// contract selects").
func unselectedOf(results []*pipeline.Result) *report.Unselected {
	u := pipeline.AllUnselected(results)
	out := &report.Unselected{Records: u.Records}
	for _, o := range u.First {
		out.First = append(out.First, report.UnselectedAt{File: o.File, Line: o.Line})
	}
	return out
}
