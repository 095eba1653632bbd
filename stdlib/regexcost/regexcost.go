// Package regexcost prices Go regular expressions for the CEL cost meter:
// a match is charged by text length × compiled program size, and refused
// before it runs when that alone exceeds the run cost limit.
package regexcost

import (
	"regexp"
	"regexp/syntax"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// Regular expressions.
//
// Go's regexp (RE2) runs in time linear in the text, but the factor is the
// compiled program's size: matching s against re steps through up to every
// instruction of re's program for each byte of s. A pattern such as
// (?:a?){1000}a{1000} compiles to thousands of instructions, so one call on
// a 1 MB text does billions of steps (issue 17: 26 s, past any run cost
// limit and --run-timeout, which cannot interrupt a call). matches is
// therefore charged by len(s) × the program's size (Work), and the
// call refuses before matching when that charge alone exceeds the run cost
// limit (Guards): cel-go's tracker charges a call only after it
// returns, too late to stop it.

// ProgSize is the number of instructions of pattern's compiled
// program (as regexp.Compile builds it: Perl syntax, simplified), and ok
// false when pattern does not compile.
func ProgSize(pattern string) (uint64, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return 0, false
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, false
	}
	return uint64(len(prog.Inst)), true
}

// scan is a string scan of n units: 0.1 per unit, rounded up (stdlib's
// and cel-go's rate).
func scan(n uint64) uint64 {
	return (n + 9) / 10
}

// Work is the charge of matching a text of n bytes against a program
// of size instructions: a scan (0.1 per unit, rounded up) of (n+1) × size,
// at least 1.
func Work(n, size uint64) uint64 {
	return max(1, scan(cost.SafeMultiply(cost.SafeAdd(n, 1), max(1, size))))
}

// maxCachedPatterns bounds a Sizes cache: patterns computed at runtime
// could otherwise grow it without end.
const maxCachedPatterns = 1024

// Sizes caches ProgSize per pattern for stdlib's trackers, which see
// only the pattern's text (compiling it again per call would double the
// work charged). It is per set of trackers, not global.
type Sizes struct {
	mu sync.Mutex
	m  map[string]uint64
}

// size is ProgSize(pattern), or 1 for a pattern that does not compile
// (the call fails without matching).
func (c *Sizes) Size(pattern string) uint64 {
	c.mu.Lock()
	n, ok := c.m[pattern]
	c.mu.Unlock()
	if ok {
		return n
	}
	n, ok = ProgSize(pattern)
	if !ok {
		n = 1
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]uint64{}
	}
	if len(c.m) < maxCachedPatterns {
		c.m[pattern] = n
	}
	c.mu.Unlock()
	return n
}

// Guards are the program options that make matches(s, re) and
// s.matches(re) refuse, with an error naming the cause, a call whose
// charge (Work) exceeds limit, the run cost limit, before matching:
// the run then ends unknown instead of running the match to its end. A
// literal pattern is compiled once, when the program is planned (replacing
// cel-go's own constant-pattern optimization, by overload id); any other
// pattern is compiled per call, as cel-go does.
func Guards(limit uint64) []cel.ProgramOption {
	constant := func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		size, _ := ProgSize(pattern)
		return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(vals ...ref.Val) ref.Val {
			if len(vals) != 2 {
				return types.NoSuchOverloadErr()
			}
			s, ok := vals[0].(types.String)
			if !ok {
				return types.NoSuchOverloadErr()
			}
			if err := regexOver(uint64(len(s)), size, limit); err != nil {
				return err
			}
			return types.Bool(re.MatchString(string(s)))
		}), nil
	}
	computed := func(i interpreter.Interpretable) (interpreter.Interpretable, error) {
		call, ok := i.(interpreter.InterpretableCall)
		if !ok || (call.OverloadID() != overloads.Matches && call.OverloadID() != overloads.MatchesString) || len(call.Args()) != 2 {
			return i, nil
		}
		if _, isConst := call.Args()[1].(interpreter.InterpretableConst); isConst {
			return i, nil // the regex optimization below
		}
		return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(vals ...ref.Val) ref.Val {
			if len(vals) != 2 {
				return types.NoSuchOverloadErr()
			}
			s, ok1 := vals[0].(types.String)
			p, ok2 := vals[1].(types.String)
			if !ok1 || !ok2 {
				return types.NoSuchOverloadErr()
			}
			re, err := regexp.Compile(string(p))
			if err != nil {
				return types.WrapErr(err)
			}
			size, _ := ProgSize(string(p))
			if err := regexOver(uint64(len(s)), size, limit); err != nil {
				return err
			}
			return types.Bool(re.MatchString(string(s)))
		}), nil
	}
	return []cel.ProgramOption{
		cel.CustomDecorator(computed),
		cel.OptimizeRegex(
			&interpreter.RegexOptimization{Function: overloads.Matches, OverloadID: overloads.Matches, RegexIndex: 1, Factory: constant},
			&interpreter.RegexOptimization{Function: overloads.Matches, OverloadID: overloads.MatchesString, RegexIndex: 1, Factory: constant},
		),
	}
}

// regexOver is the error of a match whose charge exceeds limit, or nil.
func regexOver(n, size, limit uint64) ref.Val {
	if w := Work(n, size); w > limit {
		return types.NewErr("matches: a text of %d bytes against a regular expression of %d instructions costs %d, over the run cost limit %d", n, size, w, limit)
	}
	return nil
}
