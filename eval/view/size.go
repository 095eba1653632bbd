package view

import (
	"encoding/json"
	"math"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/run"
)

// Size is a run's size as the criteria see it: the largest length of any
// list (in items), string (in bytes) or map (in entries) reachable from
// its CEL values — events, calls, results, the tools lists, every text
// field, arguments (as sent, as requested, and in their schema's shape,
// which is no larger), content blocks, meta, output, pre and post. A
// string the view derives (a call's resource) is one of these. The
// unmetered bounds of a bundle's expressions (compiler/costbound) are
// computed for runs of at most a given size: eval measures each run with
// Size to know which bound holds. It walks the decoded JSON values once
// and allocates nothing.
func Size(r *run.Run) uint64 {
	m := max(uint64(len(r.Events)), uint64(len(r.Calls)), uint64(len(r.Output)))
	str := func(s string) { m = max(m, uint64(len(s))) }
	for _, e := range r.Events {
		str(e.Role)
		str(e.Content)
		str(e.CallID)
		str(e.Tool)
		str(e.Error)
		str(e.FailedUnknown)
		m = max(m, uint64(len(e.Calls)), jsonSize(e.Blocks))
	}
	for _, c := range r.Calls {
		str(c.ID)
		str(c.Tool)
		str(c.Operation)
		str(c.ArgsError)
		str(c.Result)
		str(c.Error)
		str(c.OkUnknown)
		str(c.RequestedTool)
		str(c.Mismatch)
		m = max(m, jsonSize(c.Args), jsonSize(c.RequestedArgs))
	}
	return max(m, jsonSize(r.Meta), jsonSize(r.Pre), jsonSize(r.Post))
}

// SizeRung is the index in bundle.SizeRungs of the smallest rung holding
// the run's Size, or len(bundle.SizeRungs) when none does.
func SizeRung(r *run.Run) int {
	s := Size(r)
	for k, rung := range bundle.SizeRungs {
		if s <= rung {
			return k
		}
	}
	return len(bundle.SizeRungs)
}

// jsonSize is the largest size of a decoded JSON value and of every value
// it holds (a map's keys included).
func jsonSize(v any) uint64 {
	switch v := v.(type) {
	case string:
		return uint64(len(v))
	case []any:
		m := uint64(len(v))
		for _, e := range v {
			m = max(m, jsonSize(e))
		}
		return m
	case map[string]any:
		m := uint64(len(v))
		for k, e := range v {
			m = max(m, uint64(len(k)), jsonSize(e))
		}
		return m
	case nil, bool, float64, int, int64:
		return 0
	case json.Number:
		return uint64(len(v))
	}
	// A value of a shape no reader decodes to: its size is not known, so
	// the run is as large as can be (every expression metered).
	return math.MaxUint64
}
