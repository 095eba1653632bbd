package stdlib

import (
	"errors"
	"fmt"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// newEnv builds an environment with Library and the given extra options.
func newEnv(t testing.TB, opts ...cel.EnvOption) *cel.Env {
	t.Helper()
	env, err := cel.NewEnv(append([]cel.EnvOption{Library()}, opts...)...)
	if err != nil {
		t.Fatalf("cel.NewEnv: %v", err)
	}
	return env
}

// compileError is a parse or check failure; msg is the first error's message.
type compileError struct {
	msg  string
	full string
}

func (e *compileError) Error() string { return e.full }

// run compiles and evaluates expr with vars. A compile failure is returned as
// a *compileError, a runtime failure as the evaluation error.
func run(env *cel.Env, expr string, vars map[string]any, popts ...cel.ProgramOption) (ref.Val, error) {
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, &compileError{msg: iss.Errors()[0].Message, full: iss.Err().Error()}
	}
	prg, err := env.Program(ast, popts...)
	if err != nil {
		return nil, fmt.Errorf("program: %w", err)
	}
	if vars == nil {
		vars = map[string]any{}
	}
	out, _, err := prg.Eval(vars)
	return out, err
}

// errorMessage is the message of a compile error or the text of a runtime error.
func errorMessage(err error) string {
	var ce *compileError
	if errors.As(err, &ce) {
		return ce.msg
	}
	return err.Error()
}

// sameValue reports whether got equals want and has the same CEL type
// (1 and 1.0 are equal in CEL but are not the same result).
func sameValue(got, want ref.Val) bool {
	if got.Type() != want.Type() {
		return false
	}
	return got.Equal(want) == types.True
}

// expect is a table row: an expression and either its result (a CEL
// expression evaluated in the same environment) or its exact error message.
type expect struct {
	expr   string
	result string
	err    string
	vars   map[string]any
}

// check runs one expect row.
func check(t *testing.T, env *cel.Env, c expect) {
	t.Helper()
	got, err := run(env, c.expr, c.vars)
	if c.err != "" {
		if err == nil {
			t.Errorf("%s = %v, want error %q", c.expr, got, c.err)
			return
		}
		if msg := errorMessage(err); msg != c.err {
			t.Errorf("%s: error %q, want %q", c.expr, msg, c.err)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: unexpected error: %v", c.expr, err)
		return
	}
	want, err := run(env, c.result, nil)
	if err != nil {
		t.Fatalf("bad expected result %q: %v", c.result, err)
	}
	if !sameValue(got, want) {
		t.Errorf("%s = %v (%s), want %v (%s)", c.expr, got, typeName(got), want, typeName(want))
	}
}

func checkAll(t *testing.T, cases []expect) {
	t.Helper()
	env := newEnv(t, cel.Variable("v", cel.DynType), cel.Variable("m", cel.MapType(cel.StringType, cel.DynType)))
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) { check(t, env, c) })
	}
}
