// Package view is a run as contract expressions see it (docs/language.md,
// docs/patterns.md): the CEL values of its events, calls, results, output,
// pre, post, meta and tools, and the variables a criterion (Scope) or a
// step guard (Step) resolves.
//
// Contract: Decls.Of converts one run.Run into Values, lazily (a field no
// expression reads costs nothing) and without changing the run; the values
// behave exactly as the Go maps cel-go would make of the same data. A
// typed call's args are conformed to its tool's schema by eval/audit
// (ConformArgs), so an argument that does not fit reads as an error, never
// as a silently wrong value. Values of one run are not safe for
// concurrent use.
//
// It may import compiler/bundle, eval/run, eval/audit, eval/pike (the
// item stream a step's bindings index) and cel-go; nothing of eval above
// it.
package view
