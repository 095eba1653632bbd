package compiler

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/cel"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
)

// scope is one module whose params and predicates criteria see: the
// contract itself (path "") or an import (path "ns", "ns.sub", ...).
type scope struct {
	path     string
	mod      *lang.Module
	index    int // in bundle.Decls.Scopes
	env      *cel.Env
	preds    map[string]*lang.Predicate
	params   map[string]any // by name, for exact size hints
	children []*scope
	names    []string // predNames, once listed
}

// name is how messages name a scope's declarations: "" for the contract,
// "ns." for an import.
func (s *scope) prefix() string {
	if s.path == "" {
		return ""
	}
	return s.path + "."
}

// buildScopes creates the scope tree from the module and its imports, in
// bundle order (root first, then imports sorted by path).
func (c *compiler) buildScopes() {
	var walk func(path string, m *lang.Module) *scope
	walk = func(path string, m *lang.Module) *scope {
		s := &scope{path: path, mod: m, preds: map[string]*lang.Predicate{}}
		for _, p := range m.Predicates {
			s.preds[p.Name.Value] = p
		}
		c.scopes = append(c.scopes, s)
		for _, imp := range m.Imports {
			if imp.Module == nil {
				continue
			}
			s.children = append(s.children, walk(celenv.Child(path, imp.Namespace), imp.Module))
		}
		return s
	}
	c.root = walk("", c.mod)
	sort.SliceStable(c.scopes, func(i, j int) bool { return c.scopes[i].path < c.scopes[j].path })
	for i, s := range c.scopes {
		s.index = i
	}
}

// declareScopes converts each scope's params, declares the scopes' types in
// the universe and links every import to its parent.
func (c *compiler) declareScopes() {
	c.b.Decls.Scopes = make([]bundle.Scope, len(c.scopes))
	for _, s := range c.scopes {
		params := c.params(s)
		c.universe.AddScope(s.path, params)
		d := bundle.Scope{Path: s.path}
		for _, p := range params {
			d.Params = append(d.Params, bundle.Param{Name: p.Name, Value: p.Value})
		}
		c.b.Decls.Scopes[s.index] = d
	}
	for _, s := range c.scopes {
		for _, ch := range s.children {
			ns := ch.path[len(s.prefix()):]
			if _, clash := s.params[ns]; clash {
				c.errorf("duplicate-namespace", c.useRange(s, ns), "Namespace clashes with a parameter",
					fmt.Sprintf("The import %q and a parameter of the same name would both be params.%s; rename one.", ns, ns))
			}
			if _, clash := s.preds[ns]; clash {
				c.errorf("duplicate-namespace", c.useRange(s, ns), "Namespace clashes with a predicate",
					fmt.Sprintf("The import %q and a predicate of the same name would both be pred.%s; rename one.", ns, ns))
			}
			c.universe.AddNamespace(s.path, ns)
			d := &c.b.Decls.Scopes[s.index]
			d.Namespaces = append(d.Namespaces, ns)
		}
		sort.Strings(c.b.Decls.Scopes[s.index].Namespaces)
	}
	for _, s := range c.scopes {
		env, err := c.universe.Env(s.path)
		if err != nil {
			c.errorf("internal-error", c.useRange(s, ""), "Internal error", err.Error())
			continue
		}
		s.env = env
	}
}

// useRange is the range of the use block that imports namespace ns into s.
func (c *compiler) useRange(s *scope, ns string) hcl.Range {
	for _, imp := range s.mod.Imports {
		if imp.Namespace == ns {
			return imp.Use.Range
		}
	}
	if s.mod.Contract != nil {
		return s.mod.Contract.Range
	}
	return hcl.Range{}
}

// postOrder lists scopes children first, so that an import's predicates are
// checked (and their types declared) before the predicates that use them.
func (c *compiler) postOrder() []*scope {
	var out []*scope
	var walk func(s *scope)
	walk = func(s *scope) {
		for _, ch := range s.children {
			walk(ch)
		}
		out = append(out, s)
	}
	walk(c.root)
	return out
}
