package eval

import (
	"slices"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/source"
)

// PeekSelect evaluates the source's select on a record as a peek gives
// it (transcript.Peek): its meta, and its record without the members in
// unread. ok is false when select cannot be decided so — the source has
// no select (it selects every record), select reads an unread member or
// the record as a whole, or its evaluation fails or gives no bool — and
// Judge on the decoded run then decides (and reports what failed). When
// ok, selected is what Judge's select gives on the decoded run, whose
// meta and other members are the peek's.
func (p *Program) PeekSelect(src *bundle.SourcePlan, meta, record map[string]any, unread []string) (selected, ok bool) {
	if src.Select == bundle.NoExpr {
		return false, false
	}
	u := p.recordUse[src.Select]
	if u.Whole || slices.ContainsFunc(u.Fields, func(f string) bool { return slices.Contains(unread, f) }) {
		return false, false
	}
	act := source.Activation{Meta: meta, Record: record}
	v, err := source.Exprs(p.progs).Eval(src.Select, &act)
	b, isBool := v.(types.Bool)
	if err != nil || !isBool {
		return false, false
	}
	return bool(b), true
}
