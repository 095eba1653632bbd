// Package consistency checks that a loaded bundle's compiled forms are its
// texts (docs/bundle.md, "Consistency"): that every expression's checked
// AST, and every pattern's program and step references, are what its text
// compiles to. A bundle's sha256 proves integrity, not that the compiler
// made it; these checks pin what runs to what a reviewer reads.
//
// Contract: NewEnvs rebuilds the CEL environments from a bundle's
// declarations alone (eval plans its programs in the same ones);
// QuickCheck and CheckPattern are the checks eval.Plan makes on every
// load, CheckTexts runs them (and, full, the recompile-and-compare check)
// over a whole bundle without planning it, for inspect; Unparse renders
// what an expression runs. Nothing here evaluates an expression or
// changes the bundle.
//
// It may import compiler (the pattern compiler), compiler/bundle,
// compiler/celenv and cel-go; nothing of eval.
package consistency
