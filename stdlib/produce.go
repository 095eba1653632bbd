package stdlib

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// Calls that build values.
//
// cel-go charges most calls that build a string or a list 1 (format, join,
// replace, strings.quote, lowerAscii, l + l, ...) or a scan of their input
// (s + t), whatever they allocate. Repeated by a comprehension, a doubling
// step (fold(s, output, i, '%s%s'.format([s, s]))) allocates 2^n bytes for a
// charge of n and runs the process out of memory under any run cost limit
// (review 2, finding 2). Two measures close this:
//
//   - Every call that builds a string, bytes or a list is charged, after it
//     returns, 1 plus a scan of the strings it reads plus the size of what it
//     built (a scan of a string's bytes, one per list element): the values a
//     run builds are then bounded by its cost limit (at most 10 bytes or one
//     list element per unit), and doubling meets the limit after about
//     log2(limit) steps.
//   - A charge comes after the allocation, so the calls whose one step can
//     build far more than their inputs hold (join or format of a list whose
//     elements are one string many times over, replace of '' by a long text,
//     split into single bytes, json.encode of shared values) check a bound of
//     what they would build first, and refuse with an error above
//     maxBuildBytes: the step is refused before it allocates. The bound is
//     computed without allocating and stops counting at the cap.
//
// Every other call that builds a value builds at most a constant times the
// bytes of its inputs (see docs/stdlib.md, "Calls that build values").

// maxBuildBytes bounds what one call may build, in bytes, estimated before
// it runs: 256 MiB, over twice what the default run cost limit (10^7) lets
// a run build in all (charged 0.1 per byte), and small enough that a step
// and its inputs stay well under the 2 GiB a hostile case may use.
const maxBuildBytes = 256 << 20

// elemBytes is what one list element is reckoned to take in a bound: a
// ref.Val interface and the value it points to.
const elemBytes = 32

// scalarText is the most text one scalar (number, bool, timestamp,
// duration, null, type) formats to, for a bound: a double printed in full
// ('%s'.format([1e308])) is over 300 characters; precision is capped at 100
// by ext.Strings.
const scalarText = 400

// escapeFactor bounds how many bytes quoting one byte of a string can take
// (\u00XX is 6 for 1).
const escapeFactor = 6

// textBound bounds the bytes v formats to as text (format's %s, json.encode,
// yaml.encode), quoted strings included, stopping once it reaches stop.
func textBound(v ref.Val, stop uint64) uint64 {
	if n, ok := strLen(v); ok {
		return cost.SafeAdd(cost.SafeMultiply(n, escapeFactor), 2)
	}
	switch x := v.(type) {
	case traits.Lister:
		n, ok := x.Size().(types.Int)
		if !ok {
			return stop
		}
		w := uint64(2)
		for i := types.Int(0); i < n && w < stop; i++ {
			w = cost.SafeAdd(w, cost.SafeAdd(2, textBound(x.Get(i), stop-w)))
		}
		return w
	case traits.Mapper:
		w := uint64(2)
		for it := x.Iterator(); it.HasNext() == types.True && w < stop; {
			k := it.Next()
			w = cost.SafeAdd(w, cost.SafeAdd(4, textBound(k, stop-w)))
			if val, found := x.Find(k); found && w < stop {
				w = cost.SafeAdd(w, textBound(val, stop-w))
			}
		}
		return w
	}
	return scalarText
}

// elemBound bounds the elements flatten builds from v: every list element
// at any depth, stopping once it reaches stop.
func elemBound(v ref.Val, stop uint64) uint64 {
	l, ok := v.(traits.Lister)
	if !ok {
		return 1
	}
	n, ok := l.Size().(types.Int)
	if !ok {
		return stop
	}
	w := uint64(n)
	for i := types.Int(0); i < n && w < stop; i++ {
		if _, nested := l.Get(i).(traits.Lister); nested {
			w = cost.SafeAdd(w, elemBound(l.Get(i), stop-min(w, stop)))
		}
	}
	return w
}

// intArg is argument i as an int, or -1 (no limit) when absent.
func intArg(args []ref.Val, i int) int64 {
	if i < len(args) {
		if n, ok := args[i].(types.Int); ok {
			return int64(n)
		}
	}
	return -1
}

// buildBound bounds, in bytes, what the call with overload id would build
// from args, or false for a call whose result is bounded by a constant
// times its inputs' bytes.
func buildBound(id string, args []ref.Val) (uint64, bool) {
	const stop = maxBuildBytes + 1
	switch id {
	case "string_format":
		if len(args) != 2 {
			return 0, false
		}
		w, _ := strLen(args[0])
		// Each verb formats one element; the format's own text is copied.
		// A string element is copied as it is (%s); anything else may be
		// quoted (a list's strings) or is a scalar.
		l, n, ok := listOf(args[1])
		if !ok {
			return 0, false
		}
		for i := types.Int(0); i < n && w < stop; i++ {
			e := l.Get(i)
			if m, ok := strLen(e); ok {
				w = cost.SafeAdd(w, m)
			} else {
				w = cost.SafeAdd(w, textBound(e, stop-w))
			}
		}
		return w, true
	case "list_join", "list_join_string":
		l, n, ok := listOf(args[0])
		if !ok {
			return 0, false
		}
		var sep uint64
		if len(args) == 2 {
			sep, _ = strLen(args[1])
		}
		w := cost.SafeMultiply(uint64(n), sep)
		for i := types.Int(0); i < n && w < stop; i++ {
			m, _ := strLen(l.Get(i))
			w = cost.SafeAdd(w, m)
		}
		return w, true
	case "json_encode_dyn", "yaml_encode_dyn":
		// YAML indents nested values: twice the JSON bound covers it.
		return cost.SafeMultiply(2, textBound(args[0], stop)), true
	case "strings_quote":
		n, _ := strLen(args[0])
		return cost.SafeAdd(cost.SafeMultiply(n, escapeFactor), 2), true
	case "string_replace_string_string", "string_replace_string_string_int":
		if len(args) < 3 {
			return 0, false
		}
		s, _ := strLen(args[0])
		old, _ := strLen(args[1])
		repl, _ := strLen(args[2])
		if repl <= old {
			return s, true
		}
		// At most one replacement per byte of s (plus one) for an empty
		// old, else one per len(old) bytes; the limit argument caps it.
		k := s/max(1, old) + 1
		if lim := intArg(args, 3); lim >= 0 {
			k = min(k, uint64(lim))
		}
		return cost.SafeAdd(s, cost.SafeMultiply(k, repl-old)), true
	case "string_split_string", "string_split_string_int":
		if len(args) < 2 {
			return 0, false
		}
		s, _ := strLen(args[0])
		sep, _ := strLen(args[1])
		k := s/max(1, sep) + 1
		if lim := intArg(args, 2); lim >= 0 {
			k = min(k, uint64(lim))
		}
		// The parts share s's bytes; each is a list element.
		return cost.SafeMultiply(k, elemBytes), true
	case "list_flatten", "list_flatten_int":
		return cost.SafeMultiply(elemBound(args[0], stop/elemBytes+1), elemBytes), true
	case "list_reverse", "list_slice", "list_distinct":
		// A list built by l + l holds its elements once but can be
		// copied whole by these.
		_, n, ok := listOf(args[0])
		if !ok {
			return 0, false
		}
		return cost.SafeMultiply(uint64(n), elemBytes), true
	}
	return 0, false
}

// guardedOverloads are the overloads whose bindings check buildBound
// before they run, by function name.
var guardedOverloads = map[string][]string{
	"format":        {"string_format"},
	"join":          {"list_join", "list_join_string"},
	"json.encode":   {"json_encode_dyn"},
	"yaml.encode":   {"yaml_encode_dyn"},
	"strings.quote": {"strings_quote"},
	"replace":       {"string_replace_string_string", "string_replace_string_string_int"},
	"split":         {"string_split_string", "string_split_string_int"},
	"flatten":       {"list_flatten", "list_flatten_int"},
	"reverse":       {"list_reverse"},
	"slice":         {"list_slice"},
	"distinct":      {"list_distinct"},
}

// guardBuilds redeclares the guarded overloads with bindings that refuse a
// call whose buildBound exceeds maxBuildBytes, and otherwise call cel-go's
// binding. cel-go allows an overload to be redefined with the same
// signature; the declarations, and so type-checking, cost estimates and
// bundles, are unchanged.
func guardBuilds() cel.EnvOption {
	return func(e *cel.Env) (*cel.Env, error) {
		fns := e.Functions()
		var opts []cel.EnvOption
		for _, name := range sortedKeys(guardedOverloads) {
			// A function an older version of its library does not declare
			// (cel.NewEnv(ext.Encoders(ext.EncodersVersion(1)), Library())
			// has no yaml.encode) cannot be called, so has nothing to guard.
			// TestGuardsInstalled checks that Library's own env has them all.
			f, ok := fns[name]
			if !ok {
				continue
			}
			bindings, err := f.Bindings()
			if err != nil {
				return nil, err
			}
			for _, id := range guardedOverloads[name] {
				var orig func(...ref.Val) ref.Val
				for _, b := range bindings {
					if b.Operator == id {
						orig = callOf(b.Unary, b.Binary, b.Function)
					}
				}
				var decl *overloadDeclInfo
				for _, o := range f.OverloadDecls() {
					if o.ID() == id {
						decl = &overloadDeclInfo{o.ArgTypes(), o.ResultType(), o.IsMemberFunction()}
					}
				}
				if decl == nil {
					continue
				}
				if orig == nil {
					return nil, fmt.Errorf("stdlib: guarded overload %s of %s has no binding", id, name)
				}
				opts = append(opts, cel.Function(name, decl.overload(id, guarded(name, id, orig))))
			}
		}
		for _, o := range opts {
			var err error
			if e, err = o(e); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
}

type overloadDeclInfo struct {
	args   []*types.Type
	result *types.Type
	member bool
}

func (d *overloadDeclInfo) overload(id string, fn func(...ref.Val) ref.Val) cel.FunctionOpt {
	if d.member {
		return cel.MemberOverload(id, d.args, d.result, cel.FunctionBinding(fn))
	}
	return cel.Overload(id, d.args, d.result, cel.FunctionBinding(fn))
}

// callOf turns a binding's unary, binary or variadic implementation into a
// variadic one.
func callOf(u func(ref.Val) ref.Val, b func(ref.Val, ref.Val) ref.Val, f func(...ref.Val) ref.Val) func(...ref.Val) ref.Val {
	return func(args ...ref.Val) ref.Val {
		switch {
		case len(args) == 1 && u != nil:
			return u(args[0])
		case len(args) == 2 && b != nil:
			return b(args[0], args[1])
		case f != nil:
			return f(args...)
		}
		return types.NewErr("no such overload")
	}
}

// guarded wraps orig with the buildBound check of overload id.
func guarded(name, id string, orig func(...ref.Val) ref.Val) func(...ref.Val) ref.Val {
	return func(args ...ref.Val) ref.Val {
		if n, ok := buildBound(id, args); ok && n > maxBuildBytes {
			return types.NewErr("%s: the result could take over %d bytes (one call may build at most %d MiB)", name, uint64(maxBuildBytes), maxBuildBytes>>20)
		}
		return orig(args...)
	}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Insertion sort: a handful of names, and no import for it.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// builtSize is the charge for the value a call built: a scan of a string's
// or bytes' length, one per element of a list or entry of a map, else 0.
func builtSize(v ref.Val) uint64 {
	if n, ok := strLen(v); ok {
		return scan(n)
	}
	if s, ok := v.(traits.Sizer); ok {
		if n, ok := s.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// trackBuild charges a call that builds a value 1, plus a scan of each
// string or bytes argument, plus builtSize of its result.
func trackBuild(args []ref.Val, result ref.Val) *uint64 {
	c := uint64(1)
	for _, a := range args {
		if n, ok := strLen(a); ok {
			c = cost.SafeAdd(c, scan(n))
		}
	}
	c = cost.SafeAdd(c, builtSize(result))
	return &c
}

// trackListAdd charges a + b on lists 1 plus the size of the shorter.
// cel-go concatenates lazily, so the work is constant, but the result's
// size is what later calls (join, reverse, sort) read. Charging the
// shorter operand bounds that size by the charges along the way (a list
// is at most the largest list literal or built list plus the sum of the
// shorter sides of the adds that made it), while the accumulator of map
// and filter (acc + [x] each step) stays at 2 per step rather than its
// growing size.
func trackListAdd(args []ref.Val, _ ref.Val) *uint64 {
	c := uint64(1)
	if len(args) == 2 {
		_, n, okA := listOf(args[0])
		_, m, okB := listOf(args[1])
		if okA && okB {
			c = cost.SafeAdd(1, uint64(max(0, min(n, m))))
		}
	}
	return &c
}

// buildCharges are the runtime charges of the calls that build a string,
// bytes or list (RuntimeCharges).
func buildCharges() []runtimeCharge {
	return []runtimeCharge{
		{Charge{[]string{overloads.AddString, overloads.AddBytes}, "s + t on strings or bytes",
			"1 plus a scan of s and of t plus a scan of the result (cel-go charges a scan of the result only)."}, trackBuild},
		{Charge{[]string{overloads.AddList}, "a + b on lists",
			"1 plus the size of the shorter list (cel-go charges 1: the concatenation is lazy, but reverse, sort or join then read every element). A list doubled n times is charged its final size; a comprehension appending one element per step (map, filter) 2 per step."}, trackListAdd},
		{Charge{[]string{"string_format"}, "s.format(args)",
			"1 plus a scan of s plus a scan of the result; refused before it runs when its text could exceed 256 MiB (each string argument's bytes, 6 bytes per byte of a string inside a list or map argument, 400 per scalar)."}, trackBuild},
		{Charge{[]string{"list_join", "list_join_string"}, "l.join(), l.join(sep)",
			"1 plus a scan of sep plus a scan of the result; refused before it runs when the result would exceed 256 MiB."}, trackBuild},
		{Charge{[]string{"json_encode_dyn", "yaml_encode_dyn"}, "json.encode(v), yaml.encode(v)",
			"1 plus a scan of the result; refused before it runs when the text could exceed 256 MiB (12 bytes per byte of each string in v, 800 per scalar)."}, trackBuild},
		{Charge{[]string{"strings_quote"}, "strings.quote(s)",
			"1 plus a scan of s plus a scan of the result; refused before it runs when 6 × len(s) exceeds 256 MiB."}, trackBuild},
		{Charge{[]string{"string_replace_string_string", "string_replace_string_string_int"}, "s.replace(old, new[, n])",
			"1 plus a scan of s, old and new plus a scan of the result; refused before it runs when the result could exceed 256 MiB (one replacement per len(old) bytes of s, per byte for an empty old, at most n)."}, trackBuild},
		{Charge{[]string{"string_split_string", "string_split_string_int"}, "s.split(sep[, n])",
			"1 plus a scan of s and sep plus one per part; refused before it runs when s could split into over 8 Mi parts (32 bytes each)."}, trackBuild},
		{Charge{[]string{"list_flatten", "list_flatten_int"}, "l.flatten(), l.flatten(depth)",
			"1 plus one per element of the result; refused before it runs when l holds over 8 Mi elements at all depths."}, trackBuild},
		{Charge{[]string{"list_reverse", "list_slice"}, "l.reverse(), l.slice(i, j)",
			"1 plus one per element of the result; refused before they run (and l.distinct() too) when l has over 8 Mi elements. (l.sort() has one binding for all its overloads, which cannot be wrapped per overload; the lists it copies are bounded by the cost limit, as l + l is charged.)"}, trackBuild},
		{Charge{[]string{"lists_range"}, "lists.range(n)",
			"1 plus n (ext.Lists refuses n over 10^6)."}, trackBuild},
		{Charge{[]string{"string_lower_ascii", "string_upper_ascii", "string_reverse", "string_trim", "string_substring_int", "string_substring_int_int", "string_char_at_int",
			overloads.StringToBytes, overloads.BytesToString, "base64_encode_bytes", "base64_encode_url_bytes", "base64_decode_string", "base64_decode_url_string"},
			"s.lowerAscii(), s.upperAscii(), s.reverse(), s.trim(), s.substring(...), s.charAt(i), bytes(s), string(b), base64.encode/decode(...)",
			"1 plus a scan of the input plus a scan of the result (each builds at most 4/3 of its input's bytes)."}, trackBuild},
	}
}
