package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/sourcetext"
)

// ExpectLabels are the keys a test's expect object may hold: four labels
// whose value is true, false or "unknown", then two lists of names.
var ExpectLabels = append(LabelNames(), "violations", "failures")

// listLabels are the expect keys whose value is a list of names
// (invariants and failures).
var listLabels = map[string]bool{"violations": true, "failures": true}

func (d *decoder) test(b *hcl.Block) *Test {
	c := d.content(b.Body, testSchema)
	t := &Test{
		Name:       d.label(b, "name", false),
		Transcript: d.reqStr(c.Attributes["transcript"]),
		Record:     d.integer(c.Attributes["record"]),
		Source:     d.str(c.Attributes["source"]),
		Task:       d.str(c.Attributes["task"]),
		Goal:       d.str(c.Attributes["goal"]),
		Profile:    d.str(c.Attributes["profile"]),
		Expect:     d.expect(c.Attributes["expect"]),
		Range:      b.DefRange,
	}
	if t.Transcript.Value == "" && t.Transcript.Range != (hcl.Range{}) { // given, but empty
		d.errorf(diag.InvalidValue, t.Transcript.Range, "Empty transcript path",
			"A test names the transcript file it judges, relative to the directory of this file: transcript = \"testdata/run.json\".")
	}
	if t.Record != nil && t.Record.Value < 1 {
		d.errorf(diag.InvalidValue, t.Record.Range, "Invalid record number",
			"record is the 1-based number of the run among the transcript file's records, so it is at least 1, not %d.", t.Record.Value)
		t.Record = nil
	}
	if t.Task != nil && t.Task.Value == "" {
		d.errorf(diag.InvalidValue, t.Task.Range, "Empty task id",
			"task, when given, is the id of a declared task; leave it out to take the task from the transcript record.")
		t.Task = nil
	}
	if !d.declare("test", t.Name, b.DefRange) {
		return nil
	}
	return t
}

// expect decodes a test's expect object, in source order.
func (d *decoder) expect(attr *hcl.Attribute) []*Expectation {
	if attr == nil {
		return nil
	}
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		d.errorf(diag.WrongValueType, attr.Expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute \"expect\": an object of expected labels is required, like { utility = true, violations = [] }; found %s.",
			sourcetext.Describe(attr.Expr))
		return nil
	}
	if len(pairs) == 0 {
		d.errorf(diag.InvalidValue, attr.Expr.Range(), "Empty expect",
			"A test expects at least one label, like expect = { utility = true }. The labels are %s.", labelList())
		return nil
	}
	var out []*Expectation
	seen := map[string]hcl.Range{}
	for _, kv := range pairs {
		keyRng := kv.Key.Range()
		key, kd := kv.Key.Value(nil)
		if kd.HasErrors() {
			d.addHCL(kd, diag.InvalidValue)
			continue
		}
		if key.IsNull() || !key.IsKnown() || key.Type() != cty.String {
			d.errorf(diag.UnknownAttribute, keyRng, "Unknown expectation",
				"A key of expect is a label name. The labels are %s.", labelList())
			continue
		}
		name := key.AsString()
		if !contains(ExpectLabels, name) {
			detail := quote(name) + " is not a label a test can expect."
			if s := diag.Suggest(name, ExpectLabels); s != "" {
				detail += " Did you mean " + quote(s) + "?"
			} else {
				detail += " The labels are " + labelList() + "."
			}
			d.errorf(diag.UnknownAttribute, keyRng, "Unknown expectation", "%s", detail)
			continue
		}
		if prev, dup := seen[name]; dup {
			d.errorf(diag.DuplicateAttribute, keyRng, "Duplicate expectation",
				"The label %q is already expected at %s.", name, at(prev))
			continue
		}
		seen[name] = keyRng
		e := &Expectation{Label: Str{Value: name, Range: keyRng}, Range: hcl.RangeBetween(keyRng, kv.Value.Range())}
		if listLabels[name] {
			names, ok := d.strListExpr(name, kv.Value)
			if !ok {
				continue
			}
			e.Names = names
		} else if !d.expectValue(name, kv.Value, e) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// expectValue decodes the value of a bool-or-unknown label into e.
func (d *decoder) expectValue(name string, expr hcl.Expression, e *Expectation) bool {
	val, ok := d.constValue(expr)
	if !ok {
		return false
	}
	want := "expect." + name + " must be true, false or \"unknown\""
	switch {
	case !val.IsNull() && val.Type() == cty.Bool:
		b := val.True()
		e.Bool = &b
		return true
	case !val.IsNull() && val.Type() == cty.String:
		s := val.AsString()
		if s == "unknown" {
			e.Unknown = true
			return true
		}
		detail := want + ", not the string " + quote(s) + "."
		switch sug := diag.Suggest(strings.ToLower(s), []string{"true", "false", "unknown"}); sug {
		case "true", "false":
			detail += " Write " + sug + " without quotes."
		case "unknown":
			detail += " Did you mean \"unknown\"?"
		}
		d.errorf(diag.InvalidValue, expr.Range(), "Invalid expectation", "%s", detail)
	default:
		got := "null"
		if !val.IsNull() {
			got = val.Type().FriendlyName()
		}
		d.errorf(diag.WrongValueType, expr.Range(), "Invalid expectation", "%s, not %s.", want, got)
	}
	return false
}

// labelList renders ExpectLabels for messages.
func labelList() string {
	return strings.Join(ExpectLabels[:len(ExpectLabels)-1], ", ") + " and " + ExpectLabels[len(ExpectLabels)-1]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
