package stdlib

import (
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"

	"github.com/tenetlang/tenet/stdlib/bulk"
	"github.com/tenetlang/tenet/stdlib/fndoc"
)

// FunctionDoc, Signature and Example are the documentation records of
// package fndoc, under the names stdlib has always given them.
type (
	FunctionDoc = fndoc.FunctionDoc
	Signature   = fndoc.Signature
	Example     = fndoc.Example
)

// Functions returns the documentation of every tenet function and macro,
// sorted by name. The slice and its contents are freshly built on each call.
func Functions() []FunctionDoc {
	all := specs()
	docs := make([]FunctionDoc, 0, len(all))
	for _, s := range all {
		docs = append(docs, s.doc)
	}
	slices.SortFunc(docs, func(a, b FunctionDoc) int { return strings.Compare(a.Name, b.Name) })
	return docs
}

// spec is one tenet function: its documentation, its declaration (with
// bindings) and the cost models of its overloads.
type spec struct {
	doc    FunctionDoc
	decl   cel.EnvOption
	models []cost.OverloadModel
}

// specs lists every tenet function and macro: stdlib's own, then those of
// stdlib/bulk.
func specs() []spec {
	return append([]spec{
		numSpec(),
		truthySpec(),
		foldSpec(),
		approxSpec(),
		eqFoldSpec(),
		containsFoldSpec(),
		parseJSONSpec(),
		parseYAMLSpec(),
		parseTimeSpec(),
		argSpec(),
		unknownSpec(),
	}, bulkSpecs()...)
}

// bulkSpecs are the functions of stdlib/bulk as specs.
func bulkSpecs() (out []spec) {
	for _, f := range bulk.Functions() {
		out = append(out, spec{doc: f.Doc, decl: f.Decl, models: f.Models})
	}
	return out
}

// examplesOf returns the successful examples as cel.OverloadExamples text
// ("expr // result").
func examplesOf(d FunctionDoc) []string {
	var out []string
	for _, e := range d.Examples {
		if e.Error == "" {
			out = append(out, e.Expr+" // "+e.Result)
		}
	}
	return out
}
