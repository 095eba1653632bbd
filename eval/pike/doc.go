// Package pike runs a contract's patterns (docs/patterns.md): a Pike VM
// over the bundle's pattern instruction set (bundle.PatternPlan's
// Program), matching a run's item stream — its messages and tool calls in
// the order Stream gives them.
//
// Contract: Run takes one pattern plan, the number of items, a thread
// budget and a Host, and returns the pattern's label (true with the item
// bound to each step, false, or unknown with its reason — never false for
// a result it could not decide) and nothing else. The VM knows nothing of
// CEL or of the program that runs it: the Host tests an item against a
// step's selector and evaluates the step's guard, and meters the run's
// time and cost. Guard results are memoized per item and the bindings the
// guard refers to; threads are deduplicated on the bindings guards read.
//
// Run is a Machine advanced over the items and finished; a Machine can
// also be advanced in steps, cloned and finished at any point with the
// same result (a session's run matched as it grows, eval.Live). Final
// says how much of a growing run's stream can no longer change.
//
// It may import compiler/bundle, eval/run and eval/runs; nothing of eval
// above it.
package pike
