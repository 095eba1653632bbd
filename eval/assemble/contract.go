package assemble

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// Given are the contracts of progs by name, version and bundle id, with
// nothing judged: what tenet report --contract knows of the contracts it
// was given (its Document lists none), for the history to record.
func Given(progs []*eval.Program) []report.Contract {
	var out []report.Contract
	for _, p := range progs {
		out = append(out, report.Contract{Name: p.Bundle.Manifest.Contract, Version: p.Bundle.Manifest.Version, Bundle: p.ID})
	}
	return out
}

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
	if res.OtherShards > 0 {
		c.Skipped = append(c.Skipped, report.Skipped{Reason: pipeline.OtherShardReason, Count: res.OtherShards})
	}
	return c
}

// Sources are where the programs' contracts are written (report.Source),
// one per program, in order; an invariant's line is that of its first
// criterion: its assert expression, else its first pattern.
func Sources(progs []*eval.Program) []report.Source {
	var out []report.Source
	for _, p := range progs {
		b := p.Bundle
		s := report.Source{Contract: b.Manifest.Contract, Dir: p.Dir}
		for _, inv := range b.Plan.Invariants {
			is := report.InvariantSource{Name: inv.Name, Description: inv.Description, Severity: inv.Severity}
			var r bundle.Range
			switch h := inv.Holds; {
			case h.Expr >= 0 && h.Expr < len(b.Exprs):
				r = b.Exprs[h.Expr].Range
			case len(h.Patterns) > 0 && h.Patterns[0].Pattern >= 0 && h.Patterns[0].Pattern < len(b.Plan.Patterns):
				r = b.Plan.Patterns[h.Patterns[0].Pattern].Range
			}
			is.File, is.Line, is.Column = r.File, r.Line, r.Column
			s.Invariants = append(s.Invariants, is)
		}
		out = append(out, s)
	}
	return out
}
