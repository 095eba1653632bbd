package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/sourcetext"
	"github.com/tenetlang/tenet/lang/pattern"
)

// Trace patterns (docs/patterns.md): step blocks and match /
// forbid attributes in the six criterion blocks (predicate, task, goal,
// side_effect, invariant, failure).

// stepBlocks is the nested-block schema of a criterion block.
var stepBlocks = []hcl.BlockHeaderSchema{{Type: "step", LabelNames: []string{"name"}}}

var stepSchema = &hcl.BodySchema{Attributes: attrs(nil, "call", "role", "when")}

// Roles are the message roles a step's role selector may name.
var Roles = []string{"system", "user", "assistant", "tool"}

// RunVariables are the variables of every criterion and step guard;
// GuardVariables are a step guard's own (call and args in a call step,
// event in a role step); CELTypeNames are identifiers CEL declares for
// its types. A step is a variable in later steps' guards, named after the
// step, so no step may be named like any of them.
var (
	RunVariables   = []string{"events", "calls", "results", "output", "pre", "post", "meta", "task", "goal", "params", "pred", "tools"}
	GuardVariables = []string{"call", "args", "event"}
	CELTypeNames   = []string{"bool", "bytes", "double", "dyn", "int", "list", "map", "null_type", "string", "type", "uint"}
)

// traceRules says which pattern attributes a block kind allows.
type traceRules struct {
	forbid bool // forbid is allowed (invariant, side_effect)
}

// trace decodes the step blocks and the match and forbid patterns of a
// criterion block whose content is c; nil when it has none. Steps in
// error are left out of Trace.Steps, and a pattern that does not parse or
// names a step not in Trace.Steps has a nil Tree, so that the compiler
// never sees a step name it cannot resolve.
func (d *decoder) trace(b *hcl.Block, c *hcl.BodyContent, rules traceRules) *Trace {
	owner := b.Type
	if len(b.Labels) > 0 {
		owner += " " + quote(b.Labels[0])
	}
	tr := &Trace{}
	declared := map[string]hcl.Range{} // every step block's name, even one in error
	var order []string
	for _, sb := range c.Blocks {
		if sb.Type != "step" {
			continue
		}
		st, ok := d.step(sb)
		name := st.Name.Value
		if prev, dup := declared[name]; dup && name != "" {
			d.errorf(diag.DuplicateName, sb.DefRange, fmt.Sprintf("Duplicate step %q", name),
				"A step %q was already declared in this block at %s; the steps of a block need distinct names.", name, at(prev))
			continue
		}
		if name != "" {
			declared[name] = sb.DefRange
			order = append(order, name)
		}
		if ok {
			tr.Steps = append(tr.Steps, st)
		}
	}
	valid := map[string]bool{}
	for _, st := range tr.Steps {
		valid[st.Name.Value] = true
	}

	// Unused steps are only reported when every pattern decodes, parses
	// and names declared steps: otherwise the pattern the author meant is
	// unknown.
	certain := true
	tr.Match = d.pattern(c.Attributes["match"])
	if c.Attributes["match"] != nil && tr.Match == nil {
		certain = false
	}
	if a := c.Attributes["forbid"]; a != nil {
		certain = certain && rules.forbid
		if rules.forbid {
			tr.Forbid = d.pattern(a)
			certain = certain && tr.Forbid != nil
		} else {
			d.errorf(diag.UnknownAttribute, a.NameRange, "Unsupported argument",
				"%s has no forbid pattern: forbid (a pattern that must not match) belongs in an invariant or a side_effect. Here, write match = \"<pattern>\" for a pattern that must match.",
				aOrAn(strings.ReplaceAll(b.Type, "_", " ")))
		}
	}

	// Every step a pattern names must be declared; every declared step
	// should be named by some pattern.
	used := map[string]bool{}
	patterns := []*Pattern{tr.Match, tr.Forbid}
	if tr.Match != nil && tr.Forbid != nil && tr.Forbid.Expr.Range.Start.Byte < tr.Match.Expr.Range.Start.Byte {
		patterns = []*Pattern{tr.Forbid, tr.Match} // report in source order
	}
	for _, p := range patterns {
		if p == nil {
			continue
		}
		if p.Tree == nil {
			certain = false
			continue
		}
		resolved := true
		for _, ref := range pattern.Steps(p.Tree) {
			used[ref.Name] = true
			if _, ok := declared[ref.Name]; !ok {
				d.unknownStep(p, ref, owner, order)
				certain = false
			}
			if !valid[ref.Name] {
				resolved = false
			}
		}
		if !resolved {
			p.Tree = nil
		}
	}
	if certain {
		for _, st := range tr.Steps { // steps in error are not reported
			if used[st.Name.Value] {
				continue
			}
			what := "its block's match pattern"
			if rules.forbid {
				what = "its block's match or forbid pattern"
			}
			d.diags = append(d.diags, diag.New(diag.UnusedStep, st.Name.Range, "Unused step",
				fmt.Sprintf("Step %q is not named by %s, so it has no effect. Use it in the pattern, or remove it.", st.Name.Value, what)))
		}
	}
	if len(c.Blocks) == 0 && tr.Match == nil && tr.Forbid == nil {
		return nil
	}
	return tr
}

// unknownStep reports a step name a pattern uses that its block does not
// declare.
func (d *decoder) unknownStep(p *Pattern, ref pattern.Ref, owner string, declared []string) {
	detail := fmt.Sprintf("The pattern names %q, which is not a step of %s.", ref.Name, owner)
	switch sug := diag.Suggest(ref.Name, declared); {
	case sug != "":
		detail += fmt.Sprintf(" Did you mean %q?", sug)
	case len(declared) == 0:
		detail += fmt.Sprintf(" Declare the step in the same block, as in step %q { call = \"<tool>\" }.", ref.Name)
	default:
		detail += " Its steps are " + strings.Join(declared, ", ") + "."
	}
	d.errorf(diag.UnknownStep, p.Expr.RangeOf(ref.Pos, ref.End), "Unknown step", "%s", detail)
}

// pattern decodes a match or forbid attribute: a literal string, like a
// criterion, parsed as a trace pattern. A pattern that does not parse is
// reported at the offending token inside the string and has a nil Tree.
func (d *decoder) pattern(attr *hcl.Attribute) *Pattern {
	if attr == nil {
		return nil
	}
	e := d.literalAttr(sourcetext.Pattern, attr.Name, attr.Expr, false)
	if e == nil {
		return nil
	}
	p := &Pattern{Expr: e}
	tree, err := pattern.Parse(e.Text)
	if err != nil {
		subject := e.Range
		if err.End > err.Offset {
			subject = e.RangeOf(err.Offset, err.End)
		}
		d.errorf(diag.PatternSyntax, subject, "Invalid trace pattern",
			"The %s pattern does not parse: %s. A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.",
			attr.Name, err.Msg)
		return p
	}
	p.Tree = tree
	return p
}

// step decodes a step block; ok is false when it has an error (it is then
// left out of the trace).
func (d *decoder) step(b *hcl.Block) (*Step, bool) {
	errs := len(d.diags)
	c := d.content(b.Body, stepSchema)
	st := &Step{
		Name:  d.label(b, "name", false),
		Call:  d.str(c.Attributes["call"]),
		Role:  d.str(c.Attributes["role"]),
		When:  d.criterion(c.Attributes["when"]),
		Range: b.DefRange,
	}
	if len(b.Labels) > 0 && st.Name.Value != "" {
		d.stepName(st.Name)
	}
	call, role := c.Attributes["call"], c.Attributes["role"]
	switch {
	case call != nil && role != nil:
		d.errorf(diag.ConflictingAttributes, role.NameRange, "Conflicting step selectors",
			"A step selects either tool calls (call = \"<tool>\", or \"*\" for any tool) or messages (role = \"user\", ...), not both. Split it into two steps, or keep one selector and test the other in when.")
	case call == nil && role == nil:
		d.errorf(diag.MissingAttribute, b.Body.MissingItemRange(), "Missing step selector",
			"A step needs call = \"<tool>\" (a call of that tool; \"*\" for any tool) or role = \"system\", \"user\", \"assistant\" or \"tool\" (a message of that role).")
	}
	if st.Call != nil && st.Call.Value == "" {
		d.errorf(diag.InvalidValue, st.Call.Range, "Invalid step selector",
			"call names the tool whose calls the step selects, or is \"*\" for any tool; it must not be empty.")
	}
	if st.Role != nil && !contains(Roles, st.Role.Value) {
		detail := "The role " + quote(st.Role.Value) + " is not one of " + strings.Join(Roles, ", ") + "."
		if sug := diag.Suggest(strings.ToLower(st.Role.Value), Roles); sug != "" {
			detail += " Did you mean " + quote(sug) + "?"
		}
		d.errorf(diag.InvalidValue, st.Role.Range, "Invalid step role", "%s", detail)
	}
	return st, len(d.diags) == errs
}

// stepName checks a step's name: an identifier, not a reserved word, not
// "_" (any item in a pattern), not a variable a guard sees.
func (d *decoder) stepName(name Str) {
	if !d.checkName(name, "Invalid step name", "step name") {
		return
	}
	n := name.Value
	var why string
	switch {
	case n == "_":
		d.errorf(diag.InvalidName, name.Range, "Invalid step name",
			"\"_\" cannot name a step: in a pattern, _ is any item. Use another name.")
		return
	case contains(RunVariables, n):
		why = fmt.Sprintf("%q is a variable of every criterion and step guard", n)
	case contains(GuardVariables, n):
		why = fmt.Sprintf("%q is a variable of step guards (call and args in a call step, event in a role step)", n)
	case contains(CELTypeNames, n):
		why = fmt.Sprintf("%q is a CEL type name", n)
	default:
		return
	}
	d.errorf(diag.StepShadowsVariable, name.Range, "Step name shadows a variable",
		"%s, and a step is a variable named after it in the guards of later steps, so this step would hide it. Use another name, such as %q.", why, n+"_step")
}

// require reports a criterion block that has none of the attributes that
// make its criterion (what lists them, as the message says it).
func (d *decoder) require(b *hcl.Block, c *hcl.BodyContent, names []string, what string) {
	for _, n := range names {
		if c.Attributes[n] != nil {
			return
		}
	}
	d.errorf(diag.MissingAttribute, b.Body.MissingItemRange(), "Missing required argument", "%s", what)
}
