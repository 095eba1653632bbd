package lang

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/typeexpr"
)

// The schema of each block. Decoding goes through hcl.BodySchema so that
// HCL itself reports unknown blocks and attributes (with "Did you mean"),
// missing required attributes and wrong label counts, with ranges.

// fileSchema is the top level of a contract file.
var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "contract", LabelNames: []string{"name"}},
		{Type: "threat_model"},
		{Type: "params"},
		{Type: "registry"},
		{Type: "tool", LabelNames: []string{"name"}},
		{Type: "grant", LabelNames: []string{"name"}},
		{Type: "predicate", LabelNames: []string{"name"}},
		{Type: "task", LabelNames: []string{"id"}},
		{Type: "goal", LabelNames: []string{"id"}},
		{Type: LabelSideEffect, LabelNames: []string{"name"}},
		{Type: "cases"},
		{Type: "goal_tasks"},
		{Type: "source", LabelNames: []string{"name"}},
		{Type: "invariant", LabelNames: []string{"name"}},
		{Type: "failure", LabelNames: []string{"name"}},
		{Type: "gate", LabelNames: []string{"name"}},
		{Type: "test", LabelNames: []string{"name"}},
		{Type: "use", LabelNames: []string{"path"}},
		{Type: "profile", LabelNames: []string{"name"}},
		{Type: "attack_aggregate", LabelNames: []string{"name"}},
	},
}

// attrs builds attribute schemas: required names first, then optional ones.
func attrs(required []string, optional ...string) []hcl.AttributeSchema {
	var out []hcl.AttributeSchema
	for _, n := range required {
		out = append(out, hcl.AttributeSchema{Name: n, Required: true})
	}
	for _, n := range optional {
		out = append(out, hcl.AttributeSchema{Name: n})
	}
	return out
}

var (
	contractSchema    = &hcl.BodySchema{Attributes: attrs(nil, "version", "description", "cost_budget", "run_cost_limit")}
	threatModelSchema = &hcl.BodySchema{Attributes: attrs(nil, "injection_vectors", "adversary_sees", "attempt_budget", "exposure",
		"attempt_utility", "attempt_side_effect", "attempt_exposed")}
	registrySchema = &hcl.BodySchema{Attributes: attrs([]string{"operations"})}
	toolSchema     = &hcl.BodySchema{Attributes: attrs([]string{"operation"}, "description", "resource", "params")}
	grantSchema    = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "allow", LabelNames: []string{"operation"}}}}
	allowSchema    = &hcl.BodySchema{Attributes: attrs([]string{"resources"})}
	// The six criterion blocks take step blocks and match patterns;
	// only invariant and side_effect allow forbid, which the others
	// accept here to refuse with a precise message. Which attributes are
	// required is checked by hand: a criterion may be CEL, a pattern or
	// both.
	predicateSchema  = &hcl.BodySchema{Attributes: attrs(nil, "description", "expr", "match", "forbid"), Blocks: stepBlocks}
	taskSchema       = &hcl.BodySchema{Attributes: attrs(nil, "prompt", "description", LabelUtility, "match", "forbid"), Blocks: withVariants(stepBlocks)}
	goalSchema       = &hcl.BodySchema{Attributes: attrs(nil, "summary", "success", "match", "forbid"), Blocks: withVariants(stepBlocks)}
	sideEffectSchema = &hcl.BodySchema{Attributes: attrs(nil, "description", "when", "match", "forbid"), Blocks: stepBlocks}
	casesSchema      = &hcl.BodySchema{Attributes: attrs([]string{"tasks", "goals"}, "optional")}
	goalTasksSchema  = &hcl.BodySchema{Attributes: attrs([]string{"goals"}, "optional")}
	sourceSchema     = &hcl.BodySchema{
		Attributes: attrs([]string{"task", "condition"}, "format", "select", "goal", "attack", "attempt", "repetition", "grant"),
		Blocks:     []hcl.BlockHeaderSchema{{Type: "given"}},
	}
	givenSchema     = &hcl.BodySchema{Attributes: attrs(nil, LabelUtility, LabelAttackSuccess, LabelSideEffect)}
	invariantSchema = &hcl.BodySchema{Attributes: attrs(nil, "description", "severity", "assert", "match", "forbid"), Blocks: stepBlocks}
	failureSchema   = &hcl.BodySchema{Attributes: attrs(nil, "description", "when", "match", "forbid"), Blocks: stepBlocks}
	gateSchema      = &hcl.BodySchema{Attributes: attrs([]string{"require"}, "description", "conditions")}
	testSchema      = &hcl.BodySchema{Attributes: attrs([]string{"transcript", "expect"}, "record", "source", "task", "goal", "profile")}
	useSchema       = &hcl.BodySchema{Attributes: attrs(nil, "as")}
)

// decodeFile decodes the top-level blocks of one file into d.m.
func (d *decoder) decodeFile(body hcl.Body) {
	body, labelled := labelledCases(body)
	c := d.content(body, fileSchema)
	m := d.m
	for _, b := range append(c.Blocks, labelled...) {
		switch b.Type {
		// A duplicate is decoded too, so that the errors inside it are
		// reported, and then dropped.
		case "contract":
			if c := d.contract(b); d.single(b, "exactly one") {
				m.Contract = c
			}
		case "threat_model":
			if tm := d.threatModel(b); d.single(b, "at most one") {
				m.ThreatModel = tm
			}
		case "params":
			m.Params = append(m.Params, d.params(b)...)
		case "registry":
			if r := d.registry(b); d.single(b, "at most one") {
				m.Registry = r
			}
		case "tool":
			if t := d.tool(b); t != nil {
				m.Tools = append(m.Tools, t)
			}
		case "grant":
			if g := d.grant(b); g != nil {
				m.Grants = append(m.Grants, g)
			}
		case "predicate":
			if p := d.predicate(b); p != nil {
				m.Predicates = append(m.Predicates, p)
			}
		case "task":
			if t := d.task(b); t != nil {
				m.Tasks = append(m.Tasks, t)
			}
		case "goal":
			if g := d.goal(b); g != nil {
				m.Goals = append(m.Goals, g)
			}
		case LabelSideEffect:
			if s := d.sideEffect(b); s != nil {
				m.SideEffects = append(m.SideEffects, s)
			}
		case "cases":
			m.Cases = append(m.Cases, d.cases(b))
		case "goal_tasks":
			c := d.content(b.Body, goalTasksSchema)
			if g := (&GoalTasks{Goals: d.strList(c.Attributes["goals"]), Optional: d.flag(c.Attributes["optional"]), Range: b.DefRange}); d.single(b, "at most one") {
				m.GoalTasks = g
			}
		case "source":
			if s := d.source(b); s != nil {
				m.Sources = append(m.Sources, s)
			}
		case "invariant":
			if i := d.invariant(b); i != nil {
				m.Invariants = append(m.Invariants, i)
			}
		case "failure":
			if f := d.failure(b); f != nil {
				m.Failures = append(m.Failures, f)
			}
		case "gate":
			if g := d.gate(b); g != nil {
				m.Gates = append(m.Gates, g)
			}
		case "test":
			if t := d.test(b); t != nil {
				m.Tests = append(m.Tests, t)
			}
		case "use":
			if u := d.use(b); u != nil {
				m.Uses = append(m.Uses, u)
			}
		case "profile":
			if p := d.profile(b); p != nil {
				m.Profiles = append(m.Profiles, p)
			}
		case "attack_aggregate":
			if a := d.attackAggregate(b); a != nil {
				m.AttackAggregates = append(m.AttackAggregates, a)
			}
		}
	}
}

// content decodes body against schema, keeping HCL's diagnostics.
func (d *decoder) content(body hcl.Body, schema *hcl.BodySchema) *hcl.BodyContent {
	c, diags := body.Content(schema)
	d.addHCL(diags, diag.HCLSyntax)
	if c == nil {
		c = &hcl.BodyContent{}
	}
	return c
}

// single reports a second block of a kind that may appear once per module
// (how is "exactly one" or "at most one") and returns whether b is the
// first. Where the first was is recorded under the kind "block:<type>".
func (d *decoder) single(b *hcl.Block, how string) bool {
	if prev, seen := d.declared["block:"+b.Type][""]; seen {
		d.errorf(diag.DuplicateBlock, b.DefRange, fmt.Sprintf("Duplicate %s block", b.Type),
			"A contract has %s %s block; the first one is at %s.", how, b.Type, at(prev))
		return false
	}
	d.record("block:"+b.Type, "", b.DefRange)
	return true
}

func (d *decoder) record(kind, name string, rng hcl.Range) {
	if d.declared == nil {
		d.declared = map[string]map[string]hcl.Range{}
	}
	if d.declared[kind] == nil {
		d.declared[kind] = map[string]hcl.Range{}
	}
	d.declared[kind][name] = rng
}

// declare records a named declaration and reports a duplicate, which the
// caller then drops. Empty names are not recorded (they are already errors).
func (d *decoder) declare(kind string, name Str, def hcl.Range) bool {
	if name.Value == "" {
		return true
	}
	if prev, dup := d.declared[kind][name.Value]; dup {
		d.errorf(diag.DuplicateName, def, fmt.Sprintf("Duplicate %s %q", kind, name.Value),
			"%s %q was already declared at %s; each %s needs a distinct name.", aOrAn(kind), name.Value, at(prev), kind)
		return false
	}
	d.record(kind, name.Value, def)
	return true
}

// label returns the block's single label; ident requires a CEL identifier
// that is not a reserved word (names CEL refers to), otherwise any
// non-empty string is accepted.
func (d *decoder) label(b *hcl.Block, what string, ident bool) Str {
	if len(b.Labels) == 0 { // HCL has reported the missing label
		return Str{Range: b.DefRange}
	}
	s := Str{Value: b.Labels[0], Range: b.LabelRanges[0]}
	switch {
	case s.Value == "":
		d.errorf(diag.InvalidName, s.Range, fmt.Sprintf("Invalid %s %s", b.Type, what), "%s %s must not be empty.", aOrAn(b.Type), what)
	case ident:
		d.checkName(s, fmt.Sprintf("Invalid %s %s", b.Type, what), b.Type+" "+what)
	}
	return s
}

func (d *decoder) contract(b *hcl.Block) *Contract {
	c := d.content(b.Body, contractSchema)
	return &Contract{
		Name:         d.label(b, "name", false),
		Version:      d.str(c.Attributes["version"]),
		Description:  d.str(c.Attributes["description"]),
		CostBudget:   d.integer(c.Attributes["cost_budget"]),
		RunCostLimit: d.integer(c.Attributes["run_cost_limit"]),
		Range:        b.DefRange,
	}
}

func (d *decoder) threatModel(b *hcl.Block) *ThreatModel {
	c := d.content(b.Body, threatModelSchema)
	return &ThreatModel{
		InjectionVectors:  d.strList(c.Attributes["injection_vectors"]),
		AdversarySees:     d.strList(c.Attributes["adversary_sees"]),
		AttemptBudget:     d.integer(c.Attributes["attempt_budget"]),
		AttemptUtility:    d.oneOf(c.Attributes["attempt_utility"], "attempt rule", AttemptRules),
		AttemptSideEffect: d.oneOf(c.Attributes["attempt_side_effect"], "attempt rule", AttemptRules),
		AttemptExposed:    d.oneOf(c.Attributes["attempt_exposed"], "attempt rule", AttemptRules),
		Exposure:          d.criterion(c.Attributes["exposure"]),
		Range:             b.DefRange,
	}
}

// params decodes one params block; names are unique across all of them.
func (d *decoder) params(b *hcl.Block) []*Param {
	as, diags := b.Body.JustAttributes()
	d.addHCL(diags, diag.HCLSyntax)
	list := make([]*hcl.Attribute, 0, len(as))
	for _, a := range as {
		list = append(list, a)
	}
	// JustAttributes returns a map: restore source order.
	sort.Slice(list, func(i, j int) bool { return list[i].Range.Start.Byte < list[j].Range.Start.Byte })
	var out []*Param
	for _, a := range list {
		name := Str{Value: a.Name, Range: a.NameRange}
		d.checkName(name, "Invalid param name", "param name")
		if !d.declare("param", name, a.NameRange) {
			continue
		}
		val, ok := d.constValue(a.Expr)
		if !ok {
			continue
		}
		out = append(out, &Param{Name: name, Value: val, Range: a.Range})
	}
	return out
}

func (d *decoder) registry(b *hcl.Block) *Registry {
	c := d.content(b.Body, registrySchema)
	return &Registry{Operations: d.strList(c.Attributes["operations"]), Range: b.DefRange}
}

func (d *decoder) tool(b *hcl.Block) *Tool {
	c := d.content(b.Body, toolSchema)
	t := &Tool{
		Name:        d.label(b, "name", true),
		Description: d.str(c.Attributes["description"]),
		Operation:   d.reqStr(c.Attributes["operation"]),
		Resource:    d.str(c.Attributes["resource"]),
		Range:       b.DefRange,
	}
	if a := c.Attributes["params"]; a != nil {
		var more hcl.Diagnostics
		t.Params, more = typeexpr.ParseFields(a.Expr, "tool parameters", d.fieldName)
		d.diags = append(d.diags, more...)
	}
	if !d.declare("tool", t.Name, b.DefRange) {
		return nil
	}
	return t
}

func (d *decoder) grant(b *hcl.Block) *Grant {
	c := d.content(b.Body, grantSchema)
	g := &Grant{Name: d.label(b, "name", false), Range: b.DefRange}
	seen := map[string]hcl.Range{}
	for _, ab := range c.Blocks {
		ac := d.content(ab.Body, allowSchema)
		a := &Allow{
			Operation: d.label(ab, "operation", false),
			Resources: d.strList(ac.Attributes["resources"]),
			Range:     ab.DefRange,
		}
		if prev, dup := seen[a.Operation.Value]; dup {
			d.errorf(diag.DuplicateName, ab.DefRange, fmt.Sprintf("Duplicate allow %q", a.Operation.Value),
				"This grant already has an allow %q block at %s; list all its resources there.", a.Operation.Value, at(prev))
			continue
		}
		seen[a.Operation.Value] = ab.DefRange
		g.Allows = append(g.Allows, a)
	}
	if len(c.Blocks) == 0 {
		d.errorf(diag.MissingBlock, b.DefRange, "Missing allow block",
			"A grant holds one or more allow \"operation\" { resources = [...] } blocks.")
	}
	if !d.declare("grant", g.Name, b.DefRange) {
		return nil
	}
	return g
}

func (d *decoder) predicate(b *hcl.Block) *Predicate {
	c := d.content(b.Body, predicateSchema)
	p := &Predicate{
		Name:        d.label(b, "name", true),
		Description: d.str(c.Attributes["description"]),
		Expr:        d.criterion(c.Attributes["expr"]),
		Range:       b.DefRange,
	}
	p.Trace = d.trace(b, c, traceRules{})
	if e, m := c.Attributes["expr"], c.Attributes["match"]; e != nil && m != nil {
		d.errorf(diag.ConflictingAttributes, m.NameRange, "Conflicting arguments",
			"A predicate is either a CEL expression (expr) or a trace pattern (match, whose value is whether it matched the run), not both. Make two predicates, and combine them in a third: expr = \"pred.a && pred.b\".")
	} else {
		d.require(b, c, []string{"expr", "match"},
			"A predicate needs expr = \"<CEL expression>\" or match = \"<trace pattern>\" (a bool: whether the pattern matched the run).")
	}
	if !d.declare("predicate", p.Name, b.DefRange) {
		return nil
	}
	return p
}

func (d *decoder) task(b *hcl.Block) *Task {
	c := d.content(b.Body, taskSchema)
	t := &Task{
		ID:          d.label(b, "id", false),
		Prompt:      d.str(c.Attributes["prompt"]),
		Description: d.str(c.Attributes["description"]),
		Utility:     d.criterion(c.Attributes[LabelUtility]),
		Range:       b.DefRange,
	}
	t.Trace = d.trace(b, c, traceRules{})
	t.Variants = d.variants(c, LabelUtility)
	d.require(b, c, []string{LabelUtility, "match"},
		"A task needs utility = \"<CEL bool>\", match = \"<trace pattern>\", or both (utility then needs both to hold).")
	if !d.declare("task", t.ID, b.DefRange) {
		return nil
	}
	return t
}

func (d *decoder) goal(b *hcl.Block) *Goal {
	c := d.content(b.Body, goalSchema)
	g := &Goal{
		ID:      d.label(b, "id", false),
		Summary: d.str(c.Attributes["summary"]),
		Success: d.criterion(c.Attributes["success"]),
		Range:   b.DefRange,
	}
	g.Trace = d.trace(b, c, traceRules{})
	g.Variants = d.variants(c, "success")
	d.require(b, c, []string{"success", "match"},
		"A goal needs success = \"<CEL bool>\", match = \"<trace pattern>\", or both (the attack then succeeds when both hold).")
	if !d.declare("goal", g.ID, b.DefRange) {
		return nil
	}
	return g
}

func (d *decoder) sideEffect(b *hcl.Block) *SideEffect {
	c := d.content(b.Body, sideEffectSchema)
	s := &SideEffect{
		Name:        d.label(b, "name", true),
		Description: d.str(c.Attributes["description"]),
		When:        d.criterion(c.Attributes["when"]),
		Range:       b.DefRange,
	}
	s.Trace = d.trace(b, c, traceRules{forbid: true})
	d.require(b, c, []string{"when", "match", "forbid"},
		"A side effect needs when = \"<CEL bool>\", match = \"<trace pattern>\" or forbid = \"<trace pattern>\" (the harm happened when every one given holds, forbid counting when it matched).")
	if !d.declare(LabelSideEffect, s.Name, b.DefRange) {
		return nil
	}
	return s
}

func (d *decoder) cases(b *hcl.Block) *Cases {
	c := d.content(b.Body, casesSchema)
	cs := &Cases{
		Tasks:    d.strList(c.Attributes["tasks"]),
		Goals:    d.strList(c.Attributes["goals"]),
		Optional: d.flag(c.Attributes["optional"]),
		Range:    b.DefRange,
	}
	if len(b.Labels) >= 1 {
		cs.Label = d.label(b, "label", false)
	}
	if len(b.Labels) > 1 {
		d.errorf(diag.InvalidLabels, b.LabelRanges[1], "Extraneous label for cases",
			"A cases block takes at most one label, the name of its set (needed with optional = true); this one has %d.", len(b.Labels))
	}
	if cs.Optional && cs.Label.Value == "" && len(b.Labels) == 0 {
		d.errorf(diag.InvalidLabels, c.Attributes["optional"].Range, "Optional cases block without a label",
			"A cases block with optional = true needs a label naming it, as in cases \"v1.2\" { ... }: reports name the block when a condition did not run it.")
	}
	return cs
}

// labelledCases takes the cases blocks with labels out of a file body
// (HCL's schemas cannot make a label optional), so that the rest is checked
// against fileSchema as before; d.cases refuses more than one label (HCL's
// own message would say that none is expected).
func labelledCases(body hcl.Body) (hcl.Body, []*hcl.Block) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return body, nil
	}
	var labelled []*hcl.Block
	rest := *sb
	rest.Blocks = nil
	for _, b := range sb.Blocks {
		if b.Type == "cases" && len(b.Labels) >= 1 {
			labelled = append(labelled, b.AsHCLBlock())
			continue
		}
		rest.Blocks = append(rest.Blocks, b)
	}
	return &rest, labelled
}

func (d *decoder) source(b *hcl.Block) *Source {
	c := d.content(b.Body, sourceSchema)
	s := &Source{
		Name:       d.label(b, "name", false),
		Format:     d.reqStr(c.Attributes["format"]),
		Select:     d.criterion(c.Attributes["select"]),
		Task:       d.criterion(c.Attributes["task"]),
		Goal:       d.criterion(c.Attributes["goal"]),
		Attack:     d.criterion(c.Attributes["attack"]),
		Condition:  d.criterion(c.Attributes["condition"]),
		Attempt:    d.criterion(c.Attributes["attempt"]),
		Repetition: d.criterion(c.Attributes["repetition"]),
		Grant:      d.str(c.Attributes["grant"]),
		Range:      b.DefRange,
	}
	for _, gb := range c.Blocks {
		gc := d.content(gb.Body, givenSchema)
		g := &Given{
			Utility:       d.criterion(gc.Attributes[LabelUtility]),
			AttackSuccess: d.criterion(gc.Attributes[LabelAttackSuccess]),
			SideEffect:    d.criterion(gc.Attributes[LabelSideEffect]),
			Range:         gb.DefRange,
		}
		if s.Given != nil {
			d.errorf(diag.DuplicateBlock, gb.DefRange, "Duplicate given block",
				"A source has at most one given block; the first one is at %s.", at(s.Given.Range))
			continue
		}
		s.Given = g
	}
	if !d.declare("source", s.Name, b.DefRange) {
		return nil
	}
	return s
}
