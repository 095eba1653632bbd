package assemble

import (
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// ContractOf describes the contract of p and what happened to the records
// it read (res, from pipeline.EvalFiles).
func ContractOf(p *eval.Program, res *pipeline.Result) report.Contract {
	m := p.Bundle.Manifest
	c := report.Contract{Name: m.Contract, Version: m.Version, Bundle: p.ID, Judged: res.Judged(), Headers: res.Headers}
	for _, s := range []eval.Skip{eval.NotSelected, eval.TaskNotDeclared, eval.GoalNotDeclared, eval.CaseNotDeclared} {
		n := res.Skipped[s]
		if n == 0 {
			continue
		}
		sk := report.Skipped{Reason: s.String(), Count: n}
		ids := res.SkippedIDs[s]
		for i, id := range pipeline.SortedIDs(ids) {
			if i == report.MaxSkippedIDs {
				sk.MoreIDs = len(ids) - i
				break
			}
			sk.IDs = append(sk.IDs, report.IDCount{ID: runs.Cut(id, report.MaxCellWidth), Count: ids[id]})
		}
		c.Skipped = append(c.Skipped, sk)
	}
	return c
}
