// Package fndoc is the documentation record of a CEL function or macro:
// name, signatures, summary, semantics, errors, examples with their exact
// outcome, and cost. stdlib fills one per tenet function (stdlib.Functions),
// and docs/stdlib.md and the golden tests are generated from them. It holds
// data types only and imports no tenet package.
package fndoc

// FunctionDoc is the machine-readable documentation of one tenet function or
// macro. docs/stdlib.md and the golden tests are generated from it.
type FunctionDoc struct {
	// Name is the function's name as written in CEL, e.g. "num".
	Name string `json:"name"`
	// Kind is "function" or "macro".
	Kind string `json:"kind"`
	// Signatures lists the overloads (one entry for a macro).
	Signatures []Signature `json:"signatures"`
	// Summary is a one-line description.
	Summary string `json:"summary"`
	// Semantics describes the behaviour in full, one paragraph per entry.
	Semantics []string `json:"semantics"`
	// Errors lists when the function fails and with which message; "%s"-style
	// placeholders are not used: a message shown with <...> varies with the input.
	Errors []string `json:"errors"`
	// Examples are CEL expressions with their exact outcome. The first one
	// succeeds; examples with Error set document a failure.
	Examples []Example `json:"examples"`
	// Cost describes how the function is priced by cost estimation and
	// runtime cost tracking.
	Cost string `json:"cost"`
}

// Signature is one overload of a function (or the shape of a macro call).
type Signature struct {
	// Overload is the cel-go overload id, e.g. "tenet_num_dyn"; empty for a macro.
	Overload string `json:"overload,omitempty"`
	// Text is the signature as written in the docs, e.g. "num(dyn) -> double".
	Text string `json:"text"`
}

// Example is a CEL expression evaluated in an environment built with stdlib.Library
// and no variables, with either its result or its error.
type Example struct {
	// Expr is the CEL expression.
	Expr string `json:"expr"`
	// Result is a CEL expression (usually a literal) that Expr evaluates to,
	// with the same type; empty when Error is set.
	Result string `json:"result,omitempty"`
	// Error is the exact message of the error Expr produces: the runtime error,
	// or the first compile (parse or check) error's message. Empty when Expr
	// succeeds.
	Error string `json:"error,omitempty"`
}
