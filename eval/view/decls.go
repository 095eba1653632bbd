package view

import (
	"sync"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// Decls are what a run's view needs of a bundle, built once per bundle:
// its declared tools and the adapter that converts Go values to CEL values
// as the criterion environments do.
type Decls struct {
	adapter types.Adapter
	decls   []bundle.Tool           // in declaration order (the keys of `tools`)
	tools   map[string]*bundle.Tool // by name
	ops     map[string]string       // tool name → operation
	free    sync.Pool               // released *Values, whose arrays Of reuses
}

// NewDecls indexes a bundle's declared tools for its runs' views; tools
// is only read, and must outlive the views.
func NewDecls(adapter types.Adapter, tools []bundle.Tool) *Decls {
	p := &Decls{adapter: adapter, decls: tools, tools: map[string]*bundle.Tool{}, ops: map[string]string{}}
	for i, t := range tools {
		p.ops[t.Name] = t.Operation
		p.tools[t.Name] = &tools[i]
	}
	return p
}

// guardArgs is call i's `args` as a step guard reads it: conformed to its
// tool's schema when typed (a step naming the tool), as sent otherwise.
func (v *Values) guardArgs(i int, typed bool) any {
	cv := v.callVals[i]
	if typed {
		cv = v.typedVals[i]
	}
	args, _ := cv.raw("args")
	return args
}
