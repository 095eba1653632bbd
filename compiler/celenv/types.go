package celenv

import (
	"slices"
	"sync"

	"cel.dev/cel-go/cel"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// Struct is a declared CEL object type: a name and typed fields.
//
// Values of these types are plain Go maps at run time (map[string]any keyed by
// field name); the declaration exists so that the checker rejects unknown
// fields and mistyped comparisons, as Kubernetes does for schema-typed CEL.
type Struct struct {
	Name   string
	Fields map[string]*types.Type
}

// FieldNames returns the struct's field names, sorted.
func (s *Struct) FieldNames() []string {
	names := make([]string, 0, len(s.Fields))
	for n := range s.Fields {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// provider is a types.Provider that knows tenet's declared object types and
// delegates everything else to the environment's previous provider.
type provider struct {
	base    types.Provider
	structs map[string]*Struct

	// watch, when set, records the fields looked up in vain (see
	// WatchFieldMisses).
	mu    sync.Mutex
	watch *[]FieldMiss
}

// FieldMiss is a field the type checker looked for, in vain, on an object
// type: the checker then reports "undefined field".
type FieldMiss struct {
	Type  string // the object type's name
	Field string // the field looked for
	on    *Struct
}

// Fields returns the type's fields, sorted (nil for a type tenet did not
// declare). They are listed when asked for, not when the checker misses:
// a reference to no predicate misses on the pred type, whose fields are
// every predicate, and listing them for each such miss made checking
// quadratic (4,000 of them took seconds); most misses are reported in
// tenet's own words and never need them.
func (m FieldMiss) Fields() []string {
	if m.on == nil {
		return nil
	}
	return m.on.FieldNames()
}

// WatchFieldMisses records the fields env's type checker looks up in vain
// until the returned function is called; that function returns them in
// the order the checker looked (its order of "undefined field" errors).
// The checker reports an undefined field without naming the type it was
// looked for on; this says which type it was, for suggestions from its own
// fields. Environments tenet did not build record nothing.
func WatchFieldMisses(env *cel.Env) func() []FieldMiss {
	p, ok := env.CELTypeProvider().(*provider)
	if !ok {
		return func() []FieldMiss { return nil }
	}
	var misses []FieldMiss
	p.mu.Lock()
	p.watch = &misses
	p.mu.Unlock()
	return func() []FieldMiss {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.watch == &misses {
			p.watch = nil
		}
		return misses
	}
}

// missed records a field looked up in vain on type name, when watched.
func (p *provider) missed(name, field string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watch == nil {
		return
	}
	*p.watch = append(*p.watch, FieldMiss{Type: name, Field: field, on: p.structs[name]})
}

var _ types.Provider = (*provider)(nil)

func (p *provider) EnumValue(name string) ref.Val { return p.base.EnumValue(name) }

func (p *provider) FindIdent(name string) (ref.Val, bool) { return p.base.FindIdent(name) }

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if _, ok := p.structs[name]; ok {
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.base.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if s, ok := p.structs[name]; ok {
		return s.FieldNames(), true
	}
	return p.base.FindStructFieldNames(name)
}

// FindStructFieldType returns the field's type. IsSet and GetFrom are left
// nil on purpose: the interpreter then selects fields from the run-time Go
// map by key, which is what tenet's values are.
func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if s, ok := p.structs[name]; ok {
		t, ok := s.Fields[field]
		if !ok {
			p.missed(name, field)
			return nil, false
		}
		return &types.FieldType{Type: t}, true
	}
	ft, ok := p.base.FindStructFieldType(name, field)
	if !ok {
		p.missed(name, field)
	}
	return ft, ok
}

// NewValue refuses to construct tenet's types: criteria read runs, they do
// not build events.
func (p *provider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if _, ok := p.structs[name]; ok {
		return types.NewErr("values of type %s cannot be constructed in an expression", name)
	}
	return p.base.NewValue(name, fields)
}
