package compiler

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
)

// registry records the operation vocabulary (default: read, update).
//
// With imports, the vocabulary is the union of every module's registry
// (a module without one contributes the default).
func (c *compiler) registry() {
	var ops []string
	seen := map[string]bool{}
	for _, s := range c.scopes {
		r := s.mod.Registry
		if r == nil {
			for _, op := range lang.DefaultOperations {
				if !seen[op] {
					seen[op] = true
					ops = append(ops, op)
				}
			}
			continue
		}
		dup := map[string]bool{}
		for _, op := range r.Operations {
			if op.Value == "" {
				c.errorf("empty-name", op.Range, "Empty operation", "An operation name cannot be empty.")
				continue
			}
			if dup[op.Value] {
				c.errorf("duplicate-operation", op.Range, "Duplicate operation", fmt.Sprintf("Operation %q is listed twice in the registry.", op.Value))
				continue
			}
			dup[op.Value] = true
			if !seen[op.Value] {
				seen[op.Value] = true
				ops = append(ops, op.Value)
			}
		}
	}
	c.b.Decls.Operations = append([]string(nil), ops...)
	sort.Strings(c.b.Decls.Operations)
}

func (c *compiler) hasOperation(op string) bool {
	for _, o := range c.b.Decls.Operations {
		if o == op {
			return true
		}
	}
	return false
}

// toolDecls checks each tool's operation against the registry and its
// resource against its parameters.
//
// Imported modules' tools join the contract's under their own names (they
// name real tools); two different declarations of one tool are an error.
func (c *compiler) toolDecls() {
	c.tools = map[string]*lang.Tool{}
	for _, s := range c.scopes {
		for _, t := range s.mod.Tools {
			if prev, ok := c.tools[t.Name.Value]; ok {
				if toolSignature(prev) != toolSignature(t) {
					c.errorf("tool-conflict", t.Name.Range, "Conflicting tool declarations",
						fmt.Sprintf("Tool %q is declared differently at %s:%d (operation, resource or parameters differ); an imported contract's tools must agree with the contract's.", t.Name.Value, prev.Range.Filename, prev.Range.Start.Line))
				}
				continue
			}
			c.toolDecl(t)
		}
	}
	sort.Slice(c.b.Decls.Tools, func(i, j int) bool { return c.b.Decls.Tools[i].Name < c.b.Decls.Tools[j].Name })
}

// toolSignature renders what must agree between two declarations of a tool.
func toolSignature(t *lang.Tool) string {
	sig := t.Operation.Value + "|"
	if t.Resource != nil {
		sig += t.Resource.Value
	}
	sig += "|"
	if t.Params != nil {
		sig += "{"
		for _, f := range t.Params {
			sig += f.String() + ";"
		}
		sig += "}"
	}
	return sig
}

func (c *compiler) toolDecl(t *lang.Tool) {
	{
		c.tools[t.Name.Value] = t
		if t.Operation.Value != "" && !c.hasOperation(t.Operation.Value) {
			c.errorf("unknown-operation", t.Operation.Range, "Unknown operation",
				fmt.Sprintf("Tool %q has operation %q, which is not in the registry's vocabulary (%s).%s", t.Name.Value, t.Operation.Value, strings.Join(c.b.Decls.Operations, ", "), didYouMean(t.Operation.Value, c.b.Decls.Operations)))
		}
		d := bundle.Tool{Name: t.Name.Value, Operation: t.Operation.Value, HasSchema: t.Params != nil}
		if t.Description != nil {
			d.Description = t.Description.Value
		}
		for _, f := range t.Params {
			d.Params = append(d.Params, fieldDecl(f))
		}
		if t.Resource != nil {
			d.Resource = t.Resource.Value
			if d.Resource == "" {
				c.errorf("empty-name", t.Resource.Range, "Empty resource parameter", fmt.Sprintf("Tool %q: resource names the parameter that holds the resource; leave the attribute out when there is none.", t.Name.Value))
			} else if t.Params != nil && !hasField(t.Params, d.Resource) {
				names := fieldNames(t.Params)
				c.errorf("unknown-resource-param", t.Resource.Range, "Unknown resource parameter",
					fmt.Sprintf("Tool %q names %q as its resource, but it has no such parameter.%s", t.Name.Value, d.Resource, didYouMean(d.Resource, names)))
			}
		}
		c.b.Decls.Tools = append(c.b.Decls.Tools, d)
	}
}

func hasField(fs []*lang.Field, name string) bool {
	for _, f := range fs {
		if f.Name.Value == name {
			return true
		}
	}
	return false
}

func fieldNames(fs []*lang.Field) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name.Value
	}
	return names
}

func fieldDecl(f *lang.Field) bundle.Field {
	return bundle.Field{Name: f.Name.Value, Type: typeDecl(f.Type), Optional: f.Optional}
}

func typeDecl(t *lang.Type) bundle.Type {
	if t == nil {
		return bundle.Type{Kind: bundle.KindAny}
	}
	d := bundle.Type{Kind: typeKinds[t.Kind]}
	if t.Elem != nil {
		e := typeDecl(t.Elem)
		d.Elem = &e
	}
	for _, f := range t.Fields {
		d.Fields = append(d.Fields, fieldDecl(f))
	}
	sort.Slice(d.Fields, func(i, j int) bool { return d.Fields[i].Name < d.Fields[j].Name })
	return d
}

// typeKinds maps a contract's type kinds to the bundle's.
var typeKinds = map[lang.TypeKind]bundle.Kind{
	lang.TypeAny: bundle.KindAny, lang.TypeString: bundle.KindString, lang.TypeInt: bundle.KindInt, lang.TypeDouble: bundle.KindDouble,
	lang.TypeBool: bundle.KindBool, lang.TypeList: bundle.KindList, lang.TypeMap: bundle.KindMap, lang.TypeObject: bundle.KindObject,
}

// grants checks that every allowed operation is in the registry.
func (c *compiler) grants() {
	for _, g := range c.mod.Grants {
		d := bundle.Grant{Name: g.Name.Value}
		for _, a := range g.Allows { // lang refuses two allow blocks for one operation
			if !c.hasOperation(a.Operation.Value) {
				c.errorf("unknown-operation", a.Operation.Range, "Unknown operation",
					fmt.Sprintf("Grant %q allows operation %q, which is not in the registry's vocabulary (%s).%s", g.Name.Value, a.Operation.Value, strings.Join(c.b.Decls.Operations, ", "), didYouMean(a.Operation.Value, c.b.Decls.Operations)))
			}
			al := bundle.Allow{Operation: a.Operation.Value}
			for _, r := range a.Resources {
				al.Resources = append(al.Resources, r.Value)
			}
			sort.Strings(al.Resources)
			d.Allows = append(d.Allows, al)
		}
		sort.Slice(d.Allows, func(i, j int) bool { return d.Allows[i].Operation < d.Allows[j].Operation })
		c.b.Decls.Grants = append(c.b.Decls.Grants, d)
	}
	sort.Slice(c.b.Decls.Grants, func(i, j int) bool { return c.b.Decls.Grants[i].Name < c.b.Decls.Grants[j].Name })
}

// params converts the params blocks to Go constants (numbers become float64:
// CEL double, like JSON numbers in transcripts).
func (c *compiler) params(s *scope) []celenv.Param {
	var out []celenv.Param
	s.params = map[string]any{}
	for _, p := range s.mod.Params {
		v, err := ctyToGo(p.Value)
		if err != nil {
			c.errorf("unsupported-param-value", p.Range, "Unsupported parameter value", fmt.Sprintf("Parameter %q: %v.", p.Name.Value, err))
			continue
		}
		out = append(out, celenv.Param{Name: p.Name.Value, Value: v})
		s.params[p.Name.Value] = v
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ctyToGo converts a wholly known HCL value to nil, bool, float64, string,
// []any or map[string]any.
func ctyToGo(v cty.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsWhollyKnown() {
		return nil, fmt.Errorf("the value is not known until evaluation")
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString(), nil
	case t == cty.Bool:
		return v.True(), nil
	case t == cty.Number:
		f, acc := v.AsBigFloat().Float64()
		if acc != big.Exact && (f > 1.7976931348623157e308 || f < -1.7976931348623157e308) {
			return nil, fmt.Errorf("the number %s does not fit in a double", v.AsBigFloat().String())
		}
		return f, nil
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			g, err := ctyToGo(e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case t.IsMapType() || t.IsObjectType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			g, err := ctyToGo(e)
			if err != nil {
				return nil, err
			}
			out[k.AsString()] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("values of type %s are not supported", t.FriendlyName())
}

// threatModel records the threat model; injection vectors must be registered tools.
func (c *compiler) threatModel() {
	tm := &c.b.Manifest.ThreatModel
	tm.AttemptBudget = 1
	tm.Exposure = bundle.NoExpr
	tm.AttemptUtility, tm.AttemptSideEffect, tm.AttemptExposed = "all", "any", "any"
	tm.AttackAggregates = attackAggregates(c.mod.AttackAggregates)
	t := c.mod.ThreatModel
	if t == nil {
		return
	}
	tm.Declared = true
	for _, v := range t.InjectionVectors {
		if _, ok := c.tools[v.Value]; !ok {
			c.errorf("unknown-tool", v.Range, "Unknown tool", fmt.Sprintf("Injection vector %q is not a declared tool.%s", v.Value, didYouMean(v.Value, sortedKeys(c.tools))))
		}
		tm.InjectionVectors = append(tm.InjectionVectors, v.Value)
	}
	for _, s := range t.AdversarySees {
		tm.AdversarySees = append(tm.AdversarySees, s.Value)
	}
	if t.AttemptBudget != nil {
		if t.AttemptBudget.Value < 1 {
			c.errorf("invalid-number", t.AttemptBudget.Range, "Invalid attempt budget", fmt.Sprintf("attempt_budget must be at least 1, not %d.", t.AttemptBudget.Value))
		} else {
			tm.AttemptBudget = int(t.AttemptBudget.Value)
		}
	}
	if t.Exposure != nil {
		tm.Exposure = c.checkBool(t.Exposure, "exposure", "threat_model")
	}
	for _, r := range []struct {
		from *lang.Str
		to   *string
	}{{t.AttemptUtility, &tm.AttemptUtility}, {t.AttemptSideEffect, &tm.AttemptSideEffect}, {t.AttemptExposed, &tm.AttemptExposed}} {
		if r.from != nil {
			*r.to = r.from.Value
		}
	}
}
