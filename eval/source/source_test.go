package source

import (
	"testing"

	"cel.dev/cel-go/cel"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
)

// exprs plans each source text over meta and record, as the source
// environment declares them.
func exprs(t *testing.T, texts ...string) Exprs {
	t.Helper()
	env, err := cel.NewEnv(cel.Variable("meta", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("record", cel.MapType(cel.StringType, cel.DynType)))
	if err != nil {
		t.Fatal(err)
	}
	var out Exprs
	for _, text := range texts {
		a, iss := env.Compile(text)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, err := env.Program(a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, prg)
	}
	return out
}

func TestValues(t *testing.T) {
	x := exprs(t, "meta.task", "meta.goal", "record.n", "meta.flag", "''", "2.5", "1e30", "0")
	act := &Activation{Meta: map[string]any{"task": "t1", "goal": nil, "flag": true}, Record: map[string]any{"n": 3.0}}
	if s, err := x.String(0, act, false); s != "t1" || err != nil {
		t.Errorf("String(meta.task) = %q, %v", s, err)
	}
	if s, err := x.String(1, act, true); s != "" || err != nil {
		t.Errorf("String(null, nullable) = %q, %v", s, err)
	}
	for _, tt := range []struct {
		got  error
		want string
	}{
		{second(x.String(1, act, false)), "gave null_type, want string"},
		{second(x.String(4, act, false)), "gave an empty string"},
		{second(x.Count(5, act, 10)), "gave 2.5, want a whole number"},
		{second(x.Count(6, act, 10)), "gave 1e+30, want a number from 1 to 10"},
		{second(x.Count(7, act, 10)), "gave 0, want a number from 1 to 10"},
		{second(x.Count(0, act, 10)), "gave string, want int"},
		{second(x.Bool(0, act)), "gave string, want bool or null"},
	} {
		if tt.got == nil || tt.got.Error() != tt.want {
			t.Errorf("error %v, want %q", tt.got, tt.want)
		}
	}
	if n, err := x.Count(2, act, 10); n != 3 || err != nil {
		t.Errorf("Count(3.0) = %d, %v", n, err)
	}
	if n, err := x.Count(bundle.NoExpr, act, 10); n != 1 || err != nil {
		t.Errorf("Count(none) = %d, %v, want the default 1", n, err)
	}
	if b, err := x.Bool(3, act); b == nil || !*b || err != nil {
		t.Errorf("Bool(true) = %v, %v", b, err)
	}
	if b, err := x.Bool(1, act); b != nil || err != nil {
		t.Errorf("Bool(null) = %v, %v, want not given", b, err)
	}
	if TypeName(nil) != "nothing" {
		t.Errorf("TypeName(nil) = %q", TypeName(nil))
	}
}

func second[T any](_ T, err error) error { return err }

func TestGivenMisfit(t *testing.T) {
	yes, no := true, false
	benign := runs.Key{Task: "t"}
	attacked := runs.Key{Task: "t", Goal: "g"}
	if m := GivenMisfit(benign, runs.Given{Utility: &yes}); m != "" {
		t.Errorf("benign with utility: %q", m)
	}
	if m := GivenMisfit(benign, runs.Given{SideEffect: &no}); m == "" {
		t.Error("a benign run with a given side_effect is accepted")
	}
	if m := GivenMisfit(attacked, runs.Given{AttackSuccess: &yes, SideEffect: &no}); m == "" {
		t.Error("a successful attack without a side effect is accepted")
	}
	if m := GivenMisfit(attacked, runs.Given{AttackSuccess: &yes, SideEffect: &yes}); m != "" {
		t.Errorf("attacked, success with side effect: %q", m)
	}
}
