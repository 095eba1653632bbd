package eval

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/source"
)

// HeaderRun says why a record the reader skipped as a header line (one
// without "messages") is in fact a run, or returns "" (source.Exprs.HeaderRun).
func (p *Program) HeaderRun(src *bundle.SourcePlan, rec map[string]any) string {
	return source.Exprs(p.progs).HeaderRun(src, rec, func(task string) bool { _, ok := p.tasks[task]; return ok })
}

// PeekSelect evaluates the source's select on a record as a peek gives it
// (source.Exprs.PeekSelect): ok is false when select cannot be decided so,
// and Judge on the decoded run then decides; when ok, selected is what
// Judge's select gives on the decoded run.
func (p *Program) PeekSelect(src *bundle.SourcePlan, meta, record map[string]any, unread []string) (selected, ok bool) {
	return source.Exprs(p.progs).PeekSelect(src, p.recordUse[src.Select], meta, record, unread)
}
