package stdlib

import (
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/tenetlang/tenet/stdlib/bulk"
	"github.com/tenetlang/tenet/stdlib/regexcost"
)

// Runtime charges.
//
// cel-go prices some calls below the work they do, and the difference is a
// way to hang the evaluator under any run cost limit: size(s) is charged 1
// but counts the code points of s; s == t is charged by the smaller operand,
// but the charge itself is computed by counting the code points of both;
// [a] == [b] and x in [a] are charged by the number of top-level elements
// but compare the elements' strings in full; int(s) is charged 1 but reads
// s. Repeated by a comprehension, each is unbounded work for a bounded
// charge (issue 13: a 48 MB record ran 600 s under a limit of 10^7).
//
// The trackers below replace the runtime charge of those calls so that each
// is charged at least the work it does, and computing the charge is itself
// cheap (string lengths in bytes, which Go knows without a scan; code
// points are never counted). They are runtime only: the static estimates a
// bundle records are unchanged, so bundles and their ids are too (see
// RuntimeCharges and docs/stdlib.md).

// Charge describes how one overload is charged at runtime, for
// docs/stdlib.md.
type Charge struct {
	// Overloads are the cel-go or tenet overload ids charged this way.
	Overloads []string `json:"overloads"`
	// Calls names the calls in CEL syntax, e.g. "size(s), s.size()".
	Calls string `json:"calls"`
	// Cost is the runtime charge.
	Cost string `json:"cost"`
}

// scan is a string scan of n bytes: 0.1 per byte, rounded up, as cel-go's
// StringScan prices a scan of n characters.
func scan(n uint64) uint64 {
	return (n + 9) / 10
}

// strLen is the length in bytes of a string or bytes value and ok, or 0 and
// false for any other value. It reads no character.
func strLen(v ref.Val) (uint64, bool) {
	switch v := v.(type) {
	case types.String:
		return uint64(len(v)), true
	case types.Bytes:
		return uint64(len(v)), true
	}
	return 0, false
}

// eqWork and eqWorkStop are bulk.EqWork and bulk.EqWorkStop: stdlib/bulk's
// functions price their comparisons as == is priced here.
var eqWork = bulk.EqWork

const eqWorkStop = bulk.EqWorkStop

// trackEquality charges == and != at 0.1 per unit of eqWork, at least 1:
// for two strings, cel-go's charge (a scan of the shorter), in bytes.
func trackEquality(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) == 2 {
		c = max(1, scan(eqWork(args[0], args[1], eqWorkStop)))
	}
	return &c
}

// trackInList charges x in list as cel-go does (one per element) plus 0.1
// per unit of eqWork of x with each element.
func trackInList(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) != 2 {
		return &c
	}
	l, ok := args[1].(traits.Lister)
	if !ok {
		return &c
	}
	n, ok := l.Size().(types.Int)
	if !ok {
		return &c
	}
	var w uint64
	for i := types.Int(0); i < n && w < eqWorkStop; i++ {
		w = cost.SafeAdd(w, eqWork(args[0], l.Get(i), eqWorkStop-w))
	}
	c = max(1, cost.SafeAdd(uint64(n), scan(w)))
	return &c
}

// trackKeyScan charges 1 plus a scan of argument i when it is a string or
// bytes (a map key that is hashed, a text that is parsed), else 1.
func trackKeyScan(i int) cost.FunctionTracker {
	return func(args []ref.Val, _ ref.Val) *uint64 {
		c := uint64(1)
		if i < len(args) {
			if n, ok := strLen(args[i]); ok {
				c = cost.SafeAdd(1, scan(n))
			}
		}
		return &c
	}
}

// trackStringCompare charges <, <=, > and >= on strings a scan of the
// shorter (cel-go's charge, in bytes), at least 1.
func trackStringCompare(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) == 2 {
		n, _ := strLen(args[0])
		m, _ := strLen(args[1])
		c = max(1, scan(min(n, m)))
	}
	return &c
}

// trackSearch charges s.indexOf(t) and s.lastIndexOf(t) 1 plus a scan of
// len(s) times max(1, len(t)) bytes: cel-go's charge (in characters) is 1
// for an empty t, which still converts s.
func trackSearch(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) >= 2 {
		n, _ := strLen(args[0])
		m, _ := strLen(args[1])
		c = cost.SafeAdd(1, scan(cost.SafeMultiply(n, max(1, m))))
	}
	return &c
}

// trackContains charges s.contains(t) a scan of s times a scan of t (at
// least 1 each), in bytes, or 1 when t is longer than s (the search then
// ends at once): cel-go's charge (0.01 per pair of characters) is 0 for an
// empty text, which its own tracker sizes by counting the code points of
// the other.
func trackContains(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) == 2 {
		n, _ := strLen(args[0])
		m, _ := strLen(args[1])
		if m <= n {
			c = max(1, cost.SafeMultiply(max(1, scan(n)), max(1, scan(m))))
		}
	}
	return &c
}

// listOf returns a list argument's elements' accessor and size, or ok false.
func listOf(v ref.Val) (traits.Lister, types.Int, bool) {
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, 0, false
	}
	n, ok := l.Size().(types.Int)
	return l, n, ok
}

// trackPairs charges the set operations that test each element of one
// list for membership in the other (sets.contains, sets.intersects,
// sets.equivalent, hasAny, hasAll, hasOnly, hasExactly): cel-go's charge, 1
// plus factor per pair of elements, plus factor times 0.1 per unit of
// comparison work of every pair (as for ==), which cel-go leaves out.
func trackPairs(factor uint64) cost.FunctionTracker {
	return func(args []ref.Val, _ ref.Val) *uint64 {
		c := uint64(1)
		if len(args) != 2 {
			return &c
		}
		a, n, okA := listOf(args[0])
		b, m, okB := listOf(args[1])
		if !okA || !okB {
			return &c
		}
		var w uint64
		for i := types.Int(0); i < n && w < eqWorkStop; i++ {
			x := a.Get(i)
			for j := types.Int(0); j < m && w < eqWorkStop; j++ {
				w = cost.SafeAdd(w, eqWork(x, b.Get(j), eqWorkStop-w))
			}
		}
		c = cost.SafeAdd(1, cost.SafeMultiply(factor, cost.SafeAdd(cost.SafeMultiply(uint64(n), uint64(m)), scan(w))))
		return &c
	}
}

// trackSelfPairs charges l.distinct() and the sorts of strings and bytes,
// which compare elements of one list (argument i) pairwise: 1 plus 2.1 per
// pair (cel-go's factor for strings), plus 0.1 per unit of comparison work
// of every pair, which cel-go leaves out.
func trackSelfPairs(i int) cost.FunctionTracker {
	return func(args []ref.Val, _ ref.Val) *uint64 {
		c := uint64(1)
		if i >= len(args) {
			return &c
		}
		l, n, ok := listOf(args[i])
		if !ok {
			return &c
		}
		var w uint64
		for x := types.Int(0); x < n && w < eqWorkStop; x++ {
			ex := l.Get(x)
			for y := x + 1; y < n && w < eqWorkStop; y++ {
				w = cost.SafeAdd(w, eqWork(ex, l.Get(y), eqWorkStop-w))
			}
		}
		pairs := cost.SafeMultiply(uint64(n), uint64(n))
		c = cost.SafeAdd(1, cost.SafeAdd(cost.SafeAdd(pairs, pairs), scan(pairs)), scan(w))
		return &c
	}
}

// trackCappedScan charges 1 plus a scan of each argument in args of at most
// limit bytes (num, approx, parseTime refuse longer texts after reading
// their length). The code points of a text up to limit bytes are counted,
// as the static model does; a longer text counts as limit.
func trackCappedScan(limit int, args ...int) cost.FunctionTracker {
	return func(vals []ref.Val, _ ref.Val) *uint64 {
		c := uint64(1)
		for _, i := range args {
			if i >= len(vals) {
				continue
			}
			var n uint64
			switch v := vals[i].(type) {
			case types.String:
				if len(v) > limit {
					n = uint64(limit)
				} else {
					n = uint64(utf8.RuneCountInString(string(v)))
				}
			case types.Bytes:
				n = uint64(min(len(v), limit))
			case traits.Sizer:
				// A list or map is refused at once; cel-go's model reads its size.
				if s, ok := v.Size().(types.Int); ok && s > 0 {
					n = uint64(min(int(s), limit))
				}
			default:
				n = 1
			}
			c = cost.SafeAdd(c, scan(n))
		}
		return &c
	}
}

// trackShorterScan charges 1 plus a scan of the shorter of two strings, in
// bytes (eqFold compares them up to the shorter).
func trackShorterScan(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) == 2 {
		n, _ := strLen(args[0])
		m, _ := strLen(args[1])
		c = cost.SafeAdd(1, scan(min(n, m)))
	}
	return &c
}

// runtimeCharge is one row of the runtime charges: the overloads, their
// documentation, and the tracker that charges them.
type runtimeCharge struct {
	Charge
	track cost.FunctionTracker
}

func runtimeCharges() []runtimeCharge {
	sizes := &regexcost.Sizes{}
	return append([]runtimeCharge{
		{Charge{[]string{overloads.SizeString, overloads.SizeStringInst}, "size(s), s.size() on a string",
			"1 plus a scan of s (0.1 per byte, rounded up); cel-go charges 1 and counts every code point."}, trackKeyScan(0)},
		{Charge{[]string{overloads.Equals, overloads.NotEquals}, "a == b, a != b",
			"0.1 per unit of comparison work, rounded up, at least 1: two strings or bytes, the shorter length in bytes (as cel-go, in bytes); two lists or maps of the same size, the work of every pair of elements (per map key, its length plus the values' work); of different sizes, the smaller size. cel-go charges lists and maps by their top-level size only."}, trackEquality},
		{Charge{[]string{overloads.InList}, "x in list",
			"the list's size (as cel-go) plus 0.1 per unit of comparison work of x with every element (as for ==)."}, trackInList},
		{Charge{[]string{overloads.InMap}, "k in map",
			"1 plus a scan of k when it is a string (its hash reads it all); cel-go charges 1."}, trackKeyScan(0)},
		{Charge{[]string{overloads.StringToInt, overloads.StringToUint, overloads.StringToDouble, overloads.StringToBool, overloads.StringToTimestamp, overloads.StringToDuration},
			"int(s), uint(s), double(s), bool(s), timestamp(s), duration(s)",
			"1 plus a scan of s; cel-go charges 1."}, trackKeyScan(0)},
		{Charge{[]string{overloads.LessString, overloads.LessEqualsString, overloads.GreaterString, overloads.GreaterEqualsString},
			"<, <=, >, >= on strings",
			"a scan of the shorter string in bytes, at least 1 (cel-go's charge, computed without counting the code points of the longer)."}, trackStringCompare},
		{Charge{[]string{overloads.ContainsString}, "s.contains(t)",
			"a scan of s times a scan of t, each at least 1, in bytes; 1 when t is longer than s (cel-go's charge is 0 for an empty s or t)."}, trackContains},
		{Charge{[]string{overloads.Matches, overloads.MatchesString}, "matches(s, re), s.matches(re)",
			"a scan (0.1 per unit, rounded up, at least 1) of len(s) plus one, in bytes, times the number of instructions of re's compiled program (Go's regexp steps through the program for each byte; cel-go charges a quarter of re's length). A call whose charge alone exceeds the run cost limit fails before matching."}, func(args []ref.Val, _ ref.Val) *uint64 { return trackMatches(sizes, args) }},
		{Charge{[]string{"string_index_of_string", "string_index_of_string_int", "string_last_index_of_string", "string_last_index_of_string_int"},
			"s.indexOf(t), s.lastIndexOf(t)",
			"1 plus a scan of len(s) × max(1, len(t)) bytes; cel-go charges 1 for an empty t."}, trackSearch},
		{Charge{[]string{"list_sets_contains_list", "list_sets_intersects_list", "list_hasAny_list", "list_hasAll_list", "list_hasOnly_list"},
			"sets.contains(a, b), sets.intersects(a, b), a.hasAny(b), a.hasAll(b), a.hasOnly(b)",
			"1 plus, per pair of elements of a and b, 1 (cel-go's charge) and 0.1 per unit of their comparison work (as for ==)."}, trackPairs(1)},
		{Charge{[]string{"list_sets_equivalent_list", "list_hasExactly_list"},
			"sets.equivalent(a, b), a.hasExactly(b)",
			"twice the above: the lists are compared both ways."}, trackPairs(2)},
		{Charge{[]string{"list_distinct", "list_string_sort", "list_bytes_sort"},
			"l.distinct(), l.sort() of strings or bytes",
			"1 plus 2.1 per pair of elements (cel-go's charge for strings) plus 0.1 per unit of comparison work of every pair (as for ==)."}, trackSelfPairs(0)},
		{Charge{[]string{"list_string_sortByAssociatedKeys", "list_bytes_sortByAssociatedKeys"},
			"l.sortBy(x, key) with string or bytes keys",
			"as l.sort() over the keys."}, trackSelfPairs(1)},
		{Charge{[]string{overloadNum}, "num(x)",
			"1 plus a scan of at most 256 characters (the static model), computed without reading a longer text."}, trackCappedScan(maxNumberText, 0)},
		{Charge{[]string{overloadApprox}, "approx(a, b, tol)",
			"1 plus a scan of at most 256 characters per argument (the static model), computed without reading a longer text."}, trackCappedScan(maxNumberText, 0, 1, 2)},
		{Charge{[]string{overloadParseTime}, "parseTime(s)",
			"1 plus a scan of at most 64 characters (the static model), computed without reading a longer text."}, trackCappedScan(maxTimeText, 0)},
		{Charge{[]string{overloadEqFold}, "eqFold(s, t)",
			"1 plus a scan of the shorter string, in bytes."}, trackShorterScan},
		{Charge{[]string{overloadArg}, "arg(m, key, default)",
			"1 plus a scan of key (it is hashed to look it up); the static model charges 1."}, trackKeyScan(1)},
	}, append(bulkCharges(), buildCharges()...)...)
}

// bulkCharges are the runtime charges of stdlib/bulk's functions.
func bulkCharges() (out []runtimeCharge) {
	for _, f := range bulk.Functions() {
		for _, c := range f.Charges {
			out = append(out, runtimeCharge{Charge{c.Overloads, c.Calls, c.Cost}, c.Track})
		}
	}
	return out
}

// RuntimeCharges lists the calls whose runtime charge tenet sets in place
// of cel-go's or of the static model's (see trackers).
func RuntimeCharges() []Charge {
	rs := runtimeCharges()
	out := make([]Charge, len(rs))
	for i, r := range rs {
		out[i] = r.Charge
	}
	return out
}

// trackerOptions registers the runtime charges with cel-go's cost tracker.
// They come after the environment's cost models, so they replace them.
func trackerOptions() []cost.TrackerOption {
	var opts []cost.TrackerOption
	for _, r := range runtimeCharges() {
		for _, id := range r.Overloads {
			opts = append(opts, cost.OverloadTracker(id, r.track))
		}
	}
	return opts
}

// programOptions are Library's program options: the runtime charges, which
// apply whenever cost tracking is on (cel.CostTracking or cel.CostLimit).
func programOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.CostTrackerOptions(trackerOptions()...)}
}
