// Package source evaluates a contract's source block on one transcript
// record: its expressions (select, task, goal, condition, attack, attempt,
// repetition, the given labels) see the record's meta and the record
// itself, and each value is taken as what the run key or a given label
// needs — a non-empty string, a count from 1 to a bound, a bool or null —
// or refused with a message saying what the expression gave instead.
// GivenMisfit holds the rules given labels must keep.
//
// It takes the CEL programs of a bundle's expressions (index-aligned with
// bundle.Bundle.Exprs) and imports compiler/bundle (NoExpr) and eval/runs
// (keys and given labels) only; eval maps a record to its key with it.
package source

import (
	"fmt"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/celread"
	"github.com/tenetlang/tenet/eval/runs"
)

// Activation resolves the variables of source expressions: a record's
// meta and the record.
type Activation struct {
	Meta, Record map[string]any
}

func (a *Activation) ResolveName(name string) (any, bool) {
	switch name {
	case "meta":
		return a.Meta, true
	case "record":
		return a.Record, true
	}
	return nil, false
}

func (a *Activation) Parent() interpreter.Activation { return nil }

// Exprs are the CEL programs of a bundle's expressions, index-aligned with
// its Exprs; a source's expressions are evaluated through them.
type Exprs []cel.Program

// Eval evaluates expression i on act.
func (x Exprs) Eval(i int, act interpreter.Activation) (ref.Val, error) {
	v, _, err := x[i].Eval(act)
	return v, err
}

// String evaluates a string-valued source expression; null is allowed
// (and gives "") only when nullable.
func (x Exprs) String(i int, act interpreter.Activation, nullable bool) (string, error) {
	if i == bundle.NoExpr {
		return "", nil
	}
	v, err := x.Eval(i, act)
	if err != nil {
		return "", err
	}
	switch v := v.(type) {
	case types.String:
		if v == "" {
			return "", fmt.Errorf("gave an empty string")
		}
		return string(v), nil
	case types.Null:
		if nullable {
			return "", nil
		}
	}
	want := "string"
	if nullable {
		want = "string or null"
	}
	return "", fmt.Errorf("gave %s, want %s", TypeName(v), want)
}

// Count evaluates an attempt or repetition number (default 1), from
// 1 to max (runs.MaxAttempt, runs.MaxRepetition: a larger one is bad input
// here, before anything is written). JSON numbers are doubles, so a whole
// double is accepted.
func (x Exprs) Count(i int, act interpreter.Activation, max int64) (int, error) {
	if i == bundle.NoExpr {
		return 1, nil
	}
	v, err := x.Eval(i, act)
	if err != nil {
		return 0, err
	}
	var n int64
	switch v := v.(type) {
	case types.Int:
		n = int64(v)
	case types.Double:
		// Out of int64's range the conversion is undefined: compare first.
		if f := float64(v); f < 1 || f > float64(max) {
			return 0, fmt.Errorf("gave %v, want a number from 1 to %d", f, max)
		}
		if float64(v) != float64(int64(v)) {
			return 0, fmt.Errorf("gave %v, want a whole number", float64(v))
		}
		n = int64(v)
	default:
		return 0, fmt.Errorf("gave %s, want int", TypeName(v))
	}
	if n < 1 || n > max {
		return 0, fmt.Errorf("gave %d, want a number from 1 to %d", n, max)
	}
	return int(n), nil
}

// Bool evaluates a given label: bool, or null for "not given".
func (x Exprs) Bool(i int, act interpreter.Activation) (*bool, error) {
	if i == bundle.NoExpr {
		return nil, nil
	}
	v, err := x.Eval(i, act)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case types.Bool:
		b := bool(v)
		return &b, nil
	case types.Null:
		return nil, nil
	}
	return nil, fmt.Errorf("gave %s, want bool or null", TypeName(v))
}

// TypeName names the CEL type of a value an expression gave, for an error
// saying what it gave instead of what was wanted ("nothing" for none).
func TypeName(v ref.Val) string {
	if v == nil {
		return "nothing"
	}
	return v.Type().TypeName()
}

// GivenMisfit says why given labels break the runs file's rules
// (runs.Record.Validate), or "". Refusing the record here names its
// file:line; accepting it would write a runs file that tenet report refuses.
func GivenMisfit(key runs.Key, g runs.Given) string {
	if !key.Attacked() {
		for _, l := range []struct {
			name runs.LabelName
			v    *bool
		}{{runs.AttackSuccess, g.AttackSuccess}, {runs.SideEffect, g.SideEffect}} {
			if l.v != nil {
				return fmt.Sprintf("given.%s gave %t on a benign run (goal is null): a benign run has only a utility label; give null for benign runs (e.g. \"meta.goal != null ? meta.security : null\")", l.name, *l.v)
			}
		}
		return ""
	}
	if g.AttackSuccess != nil && *g.AttackSuccess && g.SideEffect != nil && !*g.SideEffect {
		return fmt.Sprintf("given.%s is true but given.%s is false: a successful attack is a side effect (side_effect ≥ attack_success)", runs.AttackSuccess, runs.SideEffect)
	}
	return ""
}

// Key maps a record to the parts of its run key the source gives: task,
// goal, condition, attack (for an attacked run only: a benign run is
// made under no attack), attempt and repetition. An error names the part.
func (x Exprs) Key(src *bundle.SourcePlan, act interpreter.Activation) (runs.Key, error) {
	var key runs.Key
	var err error
	if key.Task, err = x.String(src.Task, act, false); err != nil {
		return key, fmt.Errorf("task: %w", err)
	}
	if key.Goal, err = x.String(src.Goal, act, true); err != nil {
		return key, fmt.Errorf("goal: %w", err)
	}
	if key.Condition, err = x.String(src.Condition, act, false); err != nil {
		return key, fmt.Errorf("condition: %w", err)
	}
	if src.Attack != nil && key.Goal != "" {
		if key.Attack, err = x.String(*src.Attack, act, true); err != nil {
			return key, fmt.Errorf("attack: %w", err)
		}
	}
	if key.Attempt, err = x.Count(src.Attempt, act, runs.MaxAttempt); err != nil {
		return key, fmt.Errorf("attempt: %w", err)
	}
	if key.Repetition, err = x.Count(src.Repetition, act, runs.MaxRepetition); err != nil {
		return key, fmt.Errorf("repetition: %w", err)
	}
	return key, nil
}

// Given reads a record's given labels; an error names the label.
func (x Exprs) Given(src *bundle.SourcePlan, act interpreter.Activation) (runs.Given, error) {
	var g runs.Given
	var err error
	if g.Utility, err = x.Bool(src.Given.Utility, act); err != nil {
		return g, fmt.Errorf("given.%s: %w", runs.Utility, err)
	}
	if g.AttackSuccess, err = x.Bool(src.Given.AttackSuccess, act); err != nil {
		return g, fmt.Errorf("given.%s: %w", runs.AttackSuccess, err)
	}
	if g.SideEffect, err = x.Bool(src.Given.SideEffect, act); err != nil {
		return g, fmt.Errorf("given.%s: %w", runs.SideEffect, err)
	}
	return g, nil
}

// HeaderRun says (declared: whether the contract declares a task) why a record the reader skipped as a header line (one
// without "messages") is in fact a run, or returns "": the source selects
// it and maps it to a task the contract declares. Such a record is a run
// whose transcript is missing or misspelt ({"metadata": {"task": ...},
// "Data": ...}); counted as a header line it would be dropped with only a
// count to show for it (review finding 2 on issue 13). A header that the
// source cannot map — its select or task expression fails, as on
// AgentDojo's {"metadata": {"benchmark", "accuracy", "name"}} header, or
// gives no task or an undeclared one — stays a header line: it describes
// the file, not a run.
func (x Exprs) HeaderRun(src *bundle.SourcePlan, rec map[string]any, declared func(task string) bool) string {
	meta, _ := rec["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	act := &Activation{Meta: meta, Record: rec}
	if src.Select != bundle.NoExpr {
		v, err := x.Eval(src.Select, act)
		if b, ok := v.(types.Bool); err != nil || !ok || !bool(b) {
			return ""
		}
	}
	task, err := x.String(src.Task, act, false)
	if err != nil || task == "" {
		return ""
	}
	if !declared(task) {
		return ""
	}
	return fmt.Sprintf(`no "messages" member, but source %s maps the record to task %q: a run without its transcript (is "messages" missing or misspelt?); a header line must not map to a run`, src.Name, task)
}

// PeekSelect evaluates the source's select on a record as a peek gives
// it (transcript.Peek): its meta, and its record without the members in
// unread (u is what select reads of record). ok is false when select cannot be decided so — the source has
// no select (it selects every record), select reads an unread member or
// the record as a whole, or its evaluation fails or gives no bool — and
// Judge on the decoded run then decides (and reports what failed). When
// ok, selected is what Judge's select gives on the decoded run, whose
// meta and other members are the peek's.
func (x Exprs) PeekSelect(src *bundle.SourcePlan, u celread.Use, meta, record map[string]any, unread []string) (selected, ok bool) {
	if src.Select == bundle.NoExpr {
		return false, false
	}
	if u.Whole || slices.ContainsFunc(u.Fields, func(f string) bool { return slices.Contains(unread, f) }) {
		return false, false
	}
	act := Activation{Meta: meta, Record: record}
	v, err := x.Eval(src.Select, &act)
	b, isBool := v.(types.Bool)
	if err != nil || !isBool {
		return false, false
	}
	return bool(b), true
}

// Select says whether the source selects a record (true when it has no
// select); an error says why select could not decide.
func (x Exprs) Select(src *bundle.SourcePlan, act interpreter.Activation) (bool, error) {
	if src.Select == bundle.NoExpr {
		return true, nil
	}
	v, err := x.Eval(src.Select, act)
	if err != nil {
		return false, fmt.Errorf("select: %w", err)
	}
	b, ok := v.(types.Bool)
	if !ok {
		return false, fmt.Errorf("select gave %s, want bool", TypeName(v))
	}
	return bool(b), nil
}
