package eval

import (
	"fmt"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/source"
)

// HeaderRun says why a record the reader skipped as a header line (one
// without "messages") is in fact a run, or returns "": the source selects
// it and maps it to a task the contract declares. Such a record is a run
// whose transcript is missing or misspelt ({"metadata": {"task": ...},
// "Data": ...}); counted as a header line it would be dropped with only a
// count to show for it (review finding 2 on issue 13). A header that the
// source cannot map — its select or task expression fails, as on
// AgentDojo's {"metadata": {"benchmark", "accuracy", "name"}} header, or
// gives no task or an undeclared one — stays a header line: it describes
// the file, not a run.
func (p *Program) HeaderRun(src *bundle.SourcePlan, rec map[string]any) string {
	meta, _ := rec["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	act := &source.Activation{Meta: meta, Record: rec}
	exprs := source.Exprs(p.progs)
	if src.Select != bundle.NoExpr {
		v, err := exprs.Eval(src.Select, act)
		if b, ok := v.(types.Bool); err != nil || !ok || !bool(b) {
			return ""
		}
	}
	task, err := exprs.String(src.Task, act, false)
	if err != nil || task == "" {
		return ""
	}
	if _, ok := p.tasks[task]; !ok {
		return ""
	}
	return fmt.Sprintf(`no "messages" member, but source %s maps the record to task %q: a run without its transcript (is "messages" missing or misspelt?); a header line must not map to a run`, src.Name, task)
}
