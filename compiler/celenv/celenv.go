// Package celenv builds tenet's CEL environments (DESIGN §3): the variables
// criteria and source expressions see, tenet's declared object types, and
// the stdlib. The compiler uses it to type-check; eval rebuilds the same
// environment from a bundle's declarations to plan the checked expressions.
package celenv

import (
	"fmt"
	"sort"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/stdlib"
)

// CELVersion is the cel-go module version tenet is built with; it is recorded
// in bundle headers. A test keeps it equal to go.mod.
const CELVersion = "v0.33.2"

// Names of tenet's object types.
const (
	EventType  = "tenet.Event"
	CallType   = "tenet.Call"
	TaskType   = "tenet.Task"
	GoalType   = "tenet.Goal"
	ParamsType = "tenet.Params"
	PredType   = "tenet.Pred"
)

// Environment kinds, as recorded in bundle.Expr.Env.
const (
	KindCriterion = "criterion" // variables: events, calls, results, output, pre, post, meta, task, goal, params, pred, tools
	KindSource    = "source"    // variables: meta, record
)

// Criterion is the environment of criteria (utility, success, side effects,
// exposure, predicates). Its tenet.Pred type grows as the compiler checks
// predicates in dependency order (DeclarePred).
type Criterion struct {
	Env     *cel.Env
	pred    *Struct
	structs []*Struct
}

func builtinStructs() []*Struct {
	list := types.NewListType
	str, integer, boolean, dyn := types.StringType, types.IntType, types.BoolType, types.DynType
	call := types.NewObjectType(CallType)
	return []*Struct{
		{Name: EventType, Fields: map[string]*types.Type{
			"index": integer, "role": str, "content": str, "blocks": list(dyn),
			"calls": list(call), "call_id": str, "tool": str, "error": str, "failed": boolean,
		}},
		{Name: CallType, Fields: callFields()},
		{Name: TaskType, Fields: map[string]*types.Type{"id": str, "prompt": str}},
		{Name: GoalType, Fields: map[string]*types.Type{"id": str, "summary": str}},
	}
}

// callFields are the fields of tenet.Call; a tool's typed call type has the
// same fields with a typed args.
func callFields() map[string]*types.Type {
	str, integer, boolean := types.StringType, types.IntType, types.BoolType
	return map[string]*types.Type{
		"index": integer, "event": integer, "id": str, "tool": str, "operation": str,
		"args": types.NewMapType(str, types.DynType), "args_error": str, "ok": boolean,
		"result": str, "error": str, "result_event": integer, "depth": integer, "parent": integer,
	}
}

// Param is a contract constant as the environment sees it.
type Param struct {
	Name  string
	Value any // nil, bool, float64, string, []any, map[string]any
}

// NewCriterion returns the criterion environment for a contract with the
// given params (typed from their values, see ValueType) and tools (each
// reachable as tools.<name>, the list of its calls with args typed from its
// schema). Predicates are added with DeclarePred.
func NewCriterion(params []Param, tools []bundle.Tool) (*Criterion, error) {
	structs := append(builtinStructs(), toolStructs(tools)...)
	pf := map[string]*types.Type{}
	for _, p := range params {
		pf[p.Name] = ValueType(p.Value)
	}
	pred := &Struct{Name: PredType, Fields: map[string]*types.Type{}}
	structs = append(structs, &Struct{Name: ParamsType, Fields: pf}, pred)
	env, err := newEnv(structs,
		cel.Variable("events", types.NewListType(types.NewObjectType(EventType))),
		cel.Variable("calls", types.NewListType(types.NewObjectType(CallType))),
		cel.Variable("results", types.NewListType(types.NewObjectType(EventType))),
		cel.Variable("output", types.StringType),
		cel.Variable("pre", types.DynType),
		cel.Variable("post", types.DynType),
		cel.Variable("meta", types.NewMapType(types.StringType, types.DynType)),
		cel.Variable("task", types.NewObjectType(TaskType)),
		cel.Variable("goal", types.NewObjectType(GoalType)),
		cel.Variable("params", types.NewObjectType(ParamsType)),
		cel.Variable("pred", types.NewObjectType(PredType)),
		cel.Variable("tools", types.NewObjectType(ToolsType)),
	)
	if err != nil {
		return nil, err
	}
	return &Criterion{Env: env, pred: pred, structs: structs}, nil
}

// DeclarePred adds field name of type t to tenet.Pred. The checker looks
// fields up when it checks, so expressions checked afterwards may use it.
func (c *Criterion) DeclarePred(name string, t *types.Type) { c.pred.Fields[name] = t }

// NewSource returns the environment of source expressions, which read the
// raw transcript record: `meta` (its metadata object) and `record` (all of it).
func NewSource() (*cel.Env, error) {
	return newEnv(nil,
		cel.Variable("meta", types.NewMapType(types.StringType, types.DynType)),
		cel.Variable("record", types.NewMapType(types.StringType, types.DynType)),
	)
}

func newEnv(structs []*Struct, vars ...cel.EnvOption) (*cel.Env, error) {
	byName := make(map[string]*Struct, len(structs))
	for _, s := range structs {
		byName[s.Name] = s
	}
	opts := []cel.EnvOption{
		stdlib.Library(),
		// Installed after the stdlib so the optional type it registers stays
		// in the base provider tenet's provider delegates to.
		func(e *cel.Env) (*cel.Env, error) {
			return cel.CustomTypeProvider(&provider{base: e.CELTypeProvider(), structs: byName})(e)
		},
	}
	env, err := cel.NewEnv(append(opts, vars...)...)
	if err != nil {
		return nil, fmt.Errorf("building CEL environment: %w", err)
	}
	return env, nil
}

// ValueType is the CEL type tenet gives a constant: bool, double (every
// number: JSON and HCL numbers are doubles), string, list(T) and map(string, T)
// with T the common element type or dyn, and dyn for null.
func ValueType(v any) *types.Type {
	switch v := v.(type) {
	case bool:
		return types.BoolType
	case float64:
		return types.DoubleType
	case string:
		return types.StringType
	case []any:
		return types.NewListType(commonType(v))
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		elems := make([]any, len(keys))
		for i, k := range keys {
			elems[i] = v[k]
		}
		return types.NewMapType(types.StringType, commonType(elems))
	default:
		return types.DynType
	}
}

func commonType(vs []any) *types.Type {
	if len(vs) == 0 {
		return types.DynType
	}
	t := ValueType(vs[0])
	for _, v := range vs[1:] {
		if !t.IsExactType(ValueType(v)) {
			return types.DynType
		}
	}
	return t
}

// FieldNames returns the field names of every declared object type (tenet's
// own, the tools' typed arguments, params and predicates), sorted and
// without duplicates, for did-you-mean suggestions.
func (c *Criterion) FieldNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, s := range c.structs {
		for n := range s.Fields {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// MetricsType is the object type of `metrics` in gate requirements.
const MetricsType = "tenet.Metrics"

// KindGate is the environment of gate requirements: variables metrics
// (tenet.Metrics, one condition's metrics) and condition (string).
const KindGate = "gate"

// MetricsFields are tenet.Metrics' fields: DESIGN §7's metrics of one
// condition, plus invariant violations and failure class counts.
func MetricsFields() map[string]*types.Type {
	i, d := types.IntType, types.DoubleType
	nd := types.NewNullableType(types.DoubleType)
	return map[string]*types.Type{
		"benign_tasks": i, "security_cases": i,
		"benign_utility": d, "raw_attacked_utility": d, "targeted_asr": d,
		"side_effect_rate": d, "secure_utility_in_scope": d,
		"joint_utility_attack": types.NewMapType(types.StringType, i),
		"exposed_cases":        i, "conditional_asr_exposed": nd,
		"benign_solved_cases": i, "conditional_asr_benign_solved": nd,
		"runs": i, "violations": i, "failures": types.NewMapType(types.StringType, i),
	}
}

// NewGate returns the environment of gate requirements.
func NewGate() (*cel.Env, error) {
	return newEnv([]*Struct{{Name: MetricsType, Fields: MetricsFields()}},
		cel.Variable("metrics", types.NewObjectType(MetricsType)),
		cel.Variable("condition", types.StringType),
	)
}
