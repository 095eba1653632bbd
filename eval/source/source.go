package source

import (
	"fmt"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
)

// sourceActivation resolves the variables of source expressions.
type sourceActivation struct {
	meta, record map[string]any
}

func (a *sourceActivation) ResolveName(name string) (any, bool) {
	switch name {
	case "meta":
		return a.meta, true
	case "record":
		return a.record, true
	}
	return nil, false
}

func (a *sourceActivation) Parent() interpreter.Activation { return nil }

func (p *Program) evalSource(i int, act interpreter.Activation) (ref.Val, error) {
	v, _, err := p.progs[i].Eval(act)
	return v, err
}

// sourceString evaluates a string-valued source expression; null is allowed
// (and gives "") only when nullable.
func (p *Program) sourceString(i int, act interpreter.Activation, nullable bool) (string, error) {
	if i == bundle.NoExpr {
		return "", nil
	}
	v, err := p.evalSource(i, act)
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

// sourceCount evaluates an attempt or repetition number (default 1), from
// 1 to max (runs.MaxAttempt, runs.MaxRepetition: a larger one is bad input
// here, before anything is written). JSON numbers are doubles, so a whole
// double is accepted.
func (p *Program) sourceCount(i int, act interpreter.Activation, max int64) (int, error) {
	if i == bundle.NoExpr {
		return 1, nil
	}
	v, err := p.evalSource(i, act)
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

// sourceBool evaluates a given label: bool, or null for "not given".
func (p *Program) sourceBool(i int, act interpreter.Activation) (*bool, error) {
	if i == bundle.NoExpr {
		return nil, nil
	}
	v, err := p.evalSource(i, act)
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

// givenMisfit says why given labels break the runs file's rules
// (runs.Record.Validate), or "". Refusing the record here names its
// file:line; accepting it would write a runs file that tenet report refuses.
func givenMisfit(key runs.Key, g runs.Given) string {
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
