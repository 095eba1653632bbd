// Package livestate is what a session's pending-call checks (eval.Live)
// keep between two checks: the committed final prefix of the session's
// run (a copy of each of its items, so that a later run can be checked to
// extend it) and, per pattern, a VM machine advanced over that prefix or a
// part of it, with the predicate values its guards read then. Which
// patterns can be kept so is decided from their guards' checked
// expressions: a guard reading a variable that grows with the run is
// matched from the first item at every check (docs/patterns.md,
// "Checking a session as it runs").
package livestate

import (
	"math"
	"reflect"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/demand"
	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
)

// Growing are the criterion variables whose value changes as a run grows.
var Growing = map[string]bool{"events": true, "calls": true, "results": true, "output": true, "pre": true, "post": true, "meta": true, "tools": true}

// State is one session's state. Resets counts the runs that did not
// extend the committed prefix (Reset); Rescans the patterns matched from
// the first item although a machine was committed for them, because a
// predicate value their guards read changed or the run no longer shares
// the items the machine consumed.
type State struct {
	prefix          []item
	pats            []pattern
	Resets, Rescans int
}

// item is a committed item as it was: a copy of its event or call.
type item struct {
	event *run.Event
	call  *run.Call
}

type pattern struct {
	m     *pike.Machine
	full  bool   // a guard reads a growing variable, or pred as a whole
	reads []Read // the predicate values its guards read
	vals  []any  // their values when m was committed
}

// Read is a predicate a guard reads (pred.[ns.]name): its scope's index
// in Decls.Scopes and its name.
type Read struct {
	Scope int
	Name  string
}

// New analyses the guards of b's patterns (asts: the checked expressions,
// index-aligned with b.Exprs; scopeIndex: scope path → index).
func New(b *bundle.Bundle, scopeIndex map[string]int, asts []*cel.Ast) *State {
	s := &State{pats: make([]pattern, len(b.Plan.Patterns))}
	for pi := range s.pats {
		pt, sp := &b.Plan.Patterns[pi], &s.pats[pi]
		for _, st := range pt.Steps {
			switch {
			case st.When == bundle.NoExpr:
			case asts[st.When] == nil:
				sp.full = true
			default:
				demand.Reads(b, scopeIndex, asts[st.When], pt.Scope, func(sc int, name string) {
					sp.reads = append(sp.reads, Read{sc, name})
				}, func() { sp.full = true }, func(name string) { sp.full = sp.full || Growing[name] })
			}
		}
	}
	return s
}

// Full says whether pattern pi is matched from the first item at every
// check: a guard of its reads a growing variable or pred as a whole.
func (s *State) Full(pi int) bool { return s.pats[pi].full }

// FullRescan lists the owners of the patterns of b (the bundle s was made
// from) that are matched from the first item at every check (Full): those
// of the predicates need says (demand.Invariants) and of the invariants.
func (s *State) FullRescan(b *bundle.Bundle, need []bool) []string {
	var out []string
	add := func(pi int) {
		if s.Full(pi) {
			out = append(out, b.Plan.Patterns[pi].Owner)
		}
	}
	for i, pr := range b.Plan.Predicates {
		if pd := b.Decls.Scopes[pr.Scope].Predicates[pr.Pred]; need[i] && pd.Pattern != bundle.NoExpr {
			add(pd.Pattern)
		}
	}
	for _, inv := range b.Plan.Invariants {
		for _, u := range inv.Holds.Patterns {
			add(u.Pattern)
		}
	}
	return out
}

// Reads lists the predicates pattern pi's guards read.
func (s *State) Reads(pi int) []Read { return s.pats[pi].reads }

// Common is the number of leading items of r's stream items that are the
// committed ones, unchanged (every field equal).
func (s *State) Common(r *run.Run, items []pike.Item) int {
	for i, it := range s.prefix {
		if i >= len(items) {
			return i
		}
		c, e := items[i].Call, items[i].Event
		if c >= 0 && (it.call == nil || !sameCall(it.call, r.Calls[c])) ||
			c < 0 && (it.event == nil || !sameEvent(it.event, r.Events[e])) {
			return i
		}
	}
	return len(s.prefix)
}

// sameCall and sameEvent compare every field.
func sameCall(a, b *run.Call) bool {
	return a.Index == b.Index && a.Event == b.Event && a.ID == b.ID && a.Tool == b.Tool && a.Operation == b.Operation &&
		a.ArgsError == b.ArgsError && a.Ok == b.Ok && a.Result == b.Result && a.Error == b.Error &&
		a.ResultEvent == b.ResultEvent && a.Depth == b.Depth && a.Parent == b.Parent && a.OkUnknown == b.OkUnknown &&
		a.RequestedTool == b.RequestedTool && a.Mismatch == b.Mismatch &&
		sameMap(a.Args, b.Args) && sameMap(a.RequestedArgs, b.RequestedArgs)
}

func sameEvent(a, b *run.Event) bool {
	return a.Index == b.Index && a.Role == b.Role && a.Content == b.Content && a.CallID == b.CallID &&
		a.Tool == b.Tool && a.Error == b.Error && a.Failed == b.Failed && a.FailedUnknown == b.FailedUnknown &&
		slices.Equal(a.Calls, b.Calls) && (len(a.Blocks) == 0 && len(b.Blocks) == 0 || reflect.DeepEqual(a.Blocks, b.Blocks))
}

// sameMap compares decoded JSON objects: the same map (a session that
// keeps its calls) at once, others by content. nil and empty are the same
// to criteria (args {}).
func sameMap(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() || reflect.DeepEqual(a, b)
}

// Committed is the length of the committed prefix.
func (s *State) Committed() int { return len(s.prefix) }

// Reset forgets the committed prefix and machines: the session's history
// was rewritten.
func (s *State) Reset() {
	s.Resets++
	s.prefix = nil
	for i := range s.pats {
		s.pats[i].m = nil
	}
}

// Extend commits r's items up to final (pike.Final), which must extend
// the committed prefix (Common is its length).
func (s *State) Extend(r *run.Run, items []pike.Item, final int) {
	for i := len(s.prefix); i < final; i++ {
		var it item
		if c := items[i].Call; c >= 0 {
			cp := *r.Calls[c]
			it.call = &cp
		} else {
			ev := *r.Events[items[i].Event]
			it.event = &ev
		}
		s.prefix = append(s.prefix, it)
	}
}

// Start returns the machine to match pattern pi of a run with: a clone of
// the committed one asking h, when the run shares the items it consumed
// (common) and the predicate values its guards read are the same (vals),
// else a new machine.
func (s *State) Start(pi int, pt *bundle.PatternPlan, h pike.Host, max, common int, vals []any) *pike.Machine {
	sp := &s.pats[pi]
	if m := sp.m; m != nil && !sp.full && m.Pos() <= common && sameVals(vals, sp.vals) {
		m = m.Clone()
		m.SetHost(h)
		return m
	}
	if sp.m != nil {
		s.Rescans++
	}
	return pike.NewMachine(pt, h, max)
}

// Commit keeps a clone of m, advanced over committed items only, as
// pattern pi's machine, with the predicate values its guards read.
func (s *State) Commit(pi int, m *pike.Machine, vals []any) {
	if !s.pats[pi].full {
		s.pats[pi].m, s.pats[pi].vals = m.Clone(), vals
	}
}

// sameVals says whether predicate values are the same, so that guards
// reading them give what they gave: equal scalars of the same type, or
// lists of such; anything else (a map, an error) counts as changed.
func sameVals(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameVal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameVal(a, b any) bool {
	x, ok := a.(ref.Val)
	y, ok2 := b.(ref.Val)
	if !ok || !ok2 {
		return a == nil && b == nil
	}
	if x.Type() != y.Type() {
		return false
	}
	switch xv := x.(type) {
	case types.Bool, types.Int, types.Uint, types.String:
		return x == y
	case types.Double:
		return math.Float64bits(float64(xv)) == math.Float64bits(float64(y.(types.Double)))
	case traits.Lister:
		yl, ok := y.(traits.Lister)
		if !ok || xv.Size() != yl.Size() {
			return false
		}
		n, _ := xv.Size().(types.Int)
		for i := types.Int(0); i < n; i++ {
			if !sameVal(xv.Get(i), yl.Get(i)) {
				return false
			}
		}
		return true
	}
	return false
}
