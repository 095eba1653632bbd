// Package celenv builds tenet's CEL environments (docs/language.md): the variables
// criteria and source expressions see, tenet's declared object types, and
// the stdlib. The compiler uses it to type-check; eval rebuilds the same
// environment from a bundle's declarations to plan the checked expressions.
package celenv

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/overloads"
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
	// ThreatModelType is the contract's threat model as criteria see it
	// (threat_model.injection_vectors, ...), so that reusable invariants
	// can name "an untrusted read" without knowing the contract's tools.
	ThreatModelType = "tenet.ThreatModel"
	PredType        = "tenet.Pred"
)

// Environment kinds, as recorded in bundle.Expr.Env.
const (
	KindCriterion = "criterion" // variables: events, calls, results, output, pre, post, meta, task, goal, params, pred, tools, threat_model
	KindSource    = "source"    // variables: meta, record
	// KindStep is a step guard: a criterion's variables plus the step's
	// own (call and args, or event) and earlier steps, listed in Expr.Vars.
	KindStep = "step"
)

// Universe holds every object type of a contract and of the contracts it
// imports, and builds one criterion environment per scope. A scope is a
// module: the root contract (path "") or an imported one (path "ns", or
// "ns.sub" for an import of an import). In a scope's environment `params`
// and `pred` are that module's own, with imported modules reachable as
// params.<ns> and pred.<ns>. Predicate types are added as the compiler
// checks them (DeclarePred); the checker looks fields up when it checks, so
// expressions checked afterwards see them.
type Universe struct {
	structs map[string]*Struct
	envs    map[string]*cel.Env
}

// ScopeParamsType and ScopePredType name a scope's params and pred types:
// tenet.Params and tenet.Pred for the root, tenet.Params.<path> and
// tenet.Pred.<path> for an import.
func ScopeParamsType(path string) string { return scoped(ParamsType, path) }

// ScopePredType: see ScopeParamsType.
func ScopePredType(path string) string { return scoped(PredType, path) }

func scoped(base, path string) string {
	if path == "" {
		return base
	}
	return base + "." + path
}

// Child is the path of namespace ns inside scope path.
func Child(path, ns string) string {
	if path == "" {
		return ns
	}
	return path + "." + ns
}

// NewUniverse declares tenet's built-in types and the typed views of tools
// (each reachable as tools.<name>, the list of its calls with args typed
// from its schema).
func NewUniverse(tools []bundle.Tool) *Universe {
	u := &Universe{structs: map[string]*Struct{}, envs: map[string]*cel.Env{}}
	for _, s := range append(builtinStructs(), toolStructs(tools)...) {
		u.structs[s.Name] = s
	}
	return u
}

// AddScope declares a scope's params (typed from their values, see
// ValueType) and an empty pred type.
func (u *Universe) AddScope(path string, params []Param) {
	pf := map[string]*types.Type{}
	for _, p := range params {
		pf[p.Name] = ValueType(p.Value)
	}
	u.structs[ScopeParamsType(path)] = &Struct{Name: ScopeParamsType(path), Fields: pf}
	u.structs[ScopePredType(path)] = &Struct{Name: ScopePredType(path), Fields: map[string]*types.Type{}}
}

// AddNamespace makes scope child reachable from scope parent as
// params.<ns> and pred.<ns>. Both scopes must have been added.
func (u *Universe) AddNamespace(parent, ns string) {
	child := Child(parent, ns)
	u.structs[ScopeParamsType(parent)].Fields[ns] = types.NewObjectType(ScopeParamsType(child))
	u.structs[ScopePredType(parent)].Fields[ns] = types.NewObjectType(ScopePredType(child))
}

// DeclarePred adds predicate name of type t to a scope's pred type.
func (u *Universe) DeclarePred(path, name string, t *types.Type) {
	u.structs[ScopePredType(path)].Fields[name] = t
}

// Env returns the criterion environment of a scope (built once).
func (u *Universe) Env(path string) (*cel.Env, error) {
	if env, ok := u.envs[path]; ok {
		return env, nil
	}
	env, err := newEnv(u.structs,
		cel.Variable("events", types.NewListType(types.NewObjectType(EventType))),
		cel.Variable("calls", types.NewListType(types.NewObjectType(CallType))),
		cel.Variable("results", types.NewListType(types.NewObjectType(EventType))),
		cel.Variable("output", types.StringType),
		cel.Variable("pre", types.DynType),
		cel.Variable("post", types.DynType),
		cel.Variable("meta", types.NewMapType(types.StringType, types.DynType)),
		cel.Variable("task", types.NewObjectType(TaskType)),
		cel.Variable("goal", types.NewObjectType(GoalType)),
		cel.Variable("params", types.NewObjectType(ScopeParamsType(path))),
		cel.Variable("pred", types.NewObjectType(ScopePredType(path))),
		cel.Variable("tools", types.NewObjectType(ToolsType)),
		cel.Variable("threat_model", types.NewObjectType(ThreatModelType)),
	)
	if err != nil {
		return nil, err
	}
	u.envs[path] = env
	return env, nil
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
		{Name: ThreatModelType, Fields: map[string]*types.Type{
			"injection_vectors": list(str), "adversary_sees": list(str), "attempt_budget": integer,
		}},
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
		// resource: the value of the argument the tool's resource names
		// (a string; "" when the tool names none or the value is not a string).
		"resource": str,
		// The request when the result's record of what ran differs from it
		// (else the same as tool and raw args), and how they disagree ("").
		"requested_tool": str, "requested_args": types.NewMapType(str, types.DynType), "mismatch": str,
	}
}

// Param is a contract constant as the environment sees it.
type Param struct {
	Name  string
	Value any // nil, bool, float64, string, []any, map[string]any
}

// NewSource returns the environment of source expressions, which read the
// raw transcript record: `meta` (its metadata object) and `record` (all of it).
func NewSource() (*cel.Env, error) {
	return newEnv(map[string]*Struct{},
		cel.Variable("meta", types.NewMapType(types.StringType, types.DynType)),
		cel.Variable("record", types.NewMapType(types.StringType, types.DynType)),
	)
}

// newEnv builds an environment whose provider knows structs (by name; the
// map is shared, not copied, so later declarations are seen).
func newEnv(byName map[string]*Struct, vars ...cel.EnvOption) (*cel.Env, error) {
	opts := []cel.EnvOption{
		stdlib.Library(),
		// Installed after the stdlib so the optional type it registers stays
		// in the base provider tenet's provider delegates to.
		func(e *cel.Env) (*cel.Env, error) {
			return cel.CustomTypeProvider(&provider{base: e.CELTypeProvider(), structs: byName})(e)
		},
		cel.ASTValidators(regexLiterals{}),
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

// MetricsType is the object type of `metrics` in gate requirements.
const MetricsType = "tenet.Metrics"

// KindGate is the environment of gate requirements: variables metrics
// (tenet.Metrics, one condition's metrics) and condition (string).
const KindGate = "gate"

// MetricsFields are tenet.Metrics' fields: docs/metrics.md's metrics of one
// condition, plus invariant violations and failure class counts.
func MetricsFields() map[string]*types.Type {
	i := types.IntType
	nd := types.NewNullableType(types.DoubleType)
	return map[string]*types.Type{
		"benign_tasks": i, "security_cases": i,
		// A rate over an empty set is null (|C| = 0 in a utility-only
		// evaluation): nullable, so a requirement can test "== null".
		"benign_utility": nd, "utility_under_attack": nd, "targeted_asr": nd,
		"side_effect_rate": nd, "secure_utility_in_scope": nd,
		// Counts of cases are doubles: with repetitions they are means.
		"joint_utility_attack": types.NewMapType(types.StringType, types.NewNullableType(types.DoubleType)),
		"exposed_cases":        nd, "conditional_asr_exposed": nd,
		"benign_solved_cases": nd, "conditional_asr_benign_solved": nd,
		// Over the goal tasks (goals run directly as user tasks), never T
		// or C: null when the condition has none.
		"goal_tasks": i, "goal_task_utility": nd,
		"runs": i, "violations": i, "undecided": i, "failures": types.NewMapType(types.StringType, i),
	}
}

// RenamedMetric returns the name now of a tenet.Metrics field that had
// another name before, so that a gate still written with the old name is
// told the new one (edit distance finds nothing: the names share no
// spelling). raw_attacked_utility became utility_under_attack, the name the
// agreement tables already used: one name per metric in every report.
func RenamedMetric(old string) (string, bool) {
	switch old {
	case "raw_attacked_utility":
		return "utility_under_attack", true
	}
	return "", false
}

// NewGate returns the environment of gate requirements.
func NewGate() (*cel.Env, error) {
	return newEnv(map[string]*Struct{MetricsType: {Name: MetricsType, Fields: MetricsFields()}},
		cel.Variable("metrics", types.NewObjectType(MetricsType)),
		cel.Variable("condition", types.StringType),
	)
}

// regexLiterals reports every matches() whose pattern is a string literal
// that Go's regexp (RE2) refuses, with the reason: eval compiles literal
// patterns when it plans a bundle, so such a contract would pass tenet
// check and then fail to load. (cel-go's ValidateRegexLiterals gives no
// reason, and checks the wrong argument of the global matches(s, re).)
type regexLiterals struct{}

// RegexErrorPrefix starts the message of a regexLiterals error.
const RegexErrorPrefix = "invalid regular expression: "

func (regexLiterals) Name() string { return "tenet.validator.regex_literals" }

func (regexLiterals) Validate(_ *cel.Env, _ cel.ValidatorConfig, a *ast.AST, iss *cel.Issues) {
	for _, e := range ast.MatchDescendants(ast.NavigateAST(a), ast.FunctionMatcher(overloads.Matches)) {
		call := e.AsCall()
		i := 1 // matches(s, re)
		if call.IsMemberFunction() {
			i = 0 // s.matches(re)
		}
		args := call.Args()
		if len(args) <= i || args[i].Kind() != ast.LiteralKind {
			continue
		}
		pattern, ok := args[i].AsLiteral().Value().(string)
		if !ok {
			continue
		}
		if _, err := regexp.Compile(pattern); err != nil {
			iss.ReportErrorAtID(args[i].ID(), "%s%s", RegexErrorPrefix, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	}
}
