// Package bundle defines tenet's compiled contract format (docs/bundle.md),
// its deterministic encoding, and the vocabulary the compiler and eval
// share through it: the pattern instruction set (Op) with its Validate rules
// and Disassemble, the parameter type kinds (Kind), and CheckValue, the one
// test of a JSON value against a parameter type. It imports no other tenet
// package: the compiler writes bundles, eval and the CLI read them.
//
// A bundle file is the 8-byte Magic followed by a CBOR envelope
// {1: format version, 2: sha256 of payload, 3: payload}; the payload is the
// core-deterministic CBOR encoding (RFC 8949 §4.2.1) of Bundle. The bundle id
// is "sha256:" + hex(sha256(payload)). Readers check, in order: magic, format
// version, hash; only then do they decode the payload.
package bundle

// Magic starts every bundle file (PNG-style: a high byte, a name, line-ending
// bytes that catch text-mode transfer damage).
const Magic = "\x89TNB\r\n\x1a\n"

// FormatVersion is the version of the payload schema this package reads and writes.
// Version 2 added Expr.Unmetered (issue 17).
const FormatVersion = 2

// SizeRungs is the ladder of run sizes over which an expression's static
// cost bound is computed (Expr.Unmetered): a run's size is the largest
// length of any list, string or map it holds (eval measures it), and every
// value an unmetered expression reads is bounded by it or by the bundle's
// own constants. Changing the ladder changes the meaning of
// Expr.Unmetered: a new FormatVersion.
// A factor of 4 between rungs, up to the default record limit.
var SizeRungs = [...]uint64{1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26}

// NoExpr marks an absent expression index.
const NoExpr = -1

// Bundle is a compiled, checked contract: everything eval needs, from its
// bytes alone.
type Bundle struct {
	Header   Header   `cbor:"header"`
	Manifest Manifest `cbor:"manifest"`
	Decls    Decls    `cbor:"decls"`
	Exprs    []Expr   `cbor:"exprs"`
	Plan     Plan     `cbor:"plan"`
}

// Header records which tools produced the bundle.
type Header struct {
	FormatVersion   int    `cbor:"format_version"`
	CompilerVersion string `cbor:"compiler_version"` // tenet's version
	CELVersion      string `cbor:"cel_version"`      // the cel-go module version
}

// Manifest describes the contract and its sources.
type Manifest struct {
	Contract    string       `cbor:"contract"`
	Version     string       `cbor:"version"`
	Description string       `cbor:"description"`
	Files       []FileDigest `cbor:"files"` // sorted by path
	ThreatModel ThreatModel  `cbor:"threat_model"`
}

// FileDigest is one source file's path (slash-separated, relative to the
// contract directory) and the hex sha256 of its bytes.
type FileDigest struct {
	Path   string `cbor:"path"`
	SHA256 string `cbor:"sha256"`
}

// ThreatModel is the contract's threat model.
type ThreatModel struct {
	Declared         bool     `cbor:"declared"` // false when the contract has no threat_model block
	InjectionVectors []string `cbor:"injection_vectors"`
	AdversarySees    []string `cbor:"adversary_sees"`
	AttemptBudget    int      `cbor:"attempt_budget"`
	// How the attempts of one security case combine into its labels: each
	// "any", "all", "first" or "last". Attack success is always "any".
	AttemptUtility    string `cbor:"attempt_utility"`
	AttemptSideEffect string `cbor:"attempt_side_effect"`
	AttemptExposed    string `cbor:"attempt_exposed"`
	Exposure          int    `cbor:"exposure"` // index in Bundle.Exprs, or NoExpr
	// AttackAggregates are the attack_aggregate blocks, sorted by name
	// (absent from a bundle that has none, whose bytes are as before).
	AttackAggregates []AttackAggregate `cbor:"attack_aggregates,omitempty"`
}

// AttackAggregate is an attack_aggregate block: how a security case's
// labels under the attacks a condition ran combine (docs/metrics.md
// "Attacks as conditions"); each rule "any", "all", "first" or "last".
type AttackAggregate struct {
	Name          string `cbor:"name"`
	AttackSuccess string `cbor:"attack_success"`
	Utility       string `cbor:"utility"`
	SideEffect    string `cbor:"side_effect"`
	Exposed       string `cbor:"exposed"`
}

// Decls are the declarations needed to rebuild the CEL environment and to
// audit tool calls.
type Decls struct {
	Operations []string `cbor:"operations"` // the registry's vocabulary
	Tools      []Tool   `cbor:"tools"`      // sorted by name
	Grants     []Grant  `cbor:"grants"`     // sorted by name
	// Scopes are the modules whose params and predicates criteria see:
	// Scopes[0] is the contract itself, the others the contracts it
	// imports (use blocks), sorted by path.
	Scopes []Scope `cbor:"scopes"`
	// Profiles are the contract's profile blocks, sorted by name
	// (profiles.go). Omitted when empty, so that a contract without them
	// keeps its bundle bytes and id.
	Profiles []Profile `cbor:"profiles,omitempty"`
}

// Scope is one module's params and predicates. Path is "" for the contract
// itself and "ns" (or "ns.sub" for an import of an import) for an import;
// in a scope's expressions params.<ns> and pred.<ns> reach its imports.
type Scope struct {
	Path       string   `cbor:"path"`
	Params     []Param  `cbor:"params"`     // sorted by name
	Predicates []Pred   `cbor:"predicates"` // sorted by name
	Namespaces []string `cbor:"namespaces"` // the imports it names, sorted
}

// Tool is a registered tool.
type Tool struct {
	Name        string  `cbor:"name"`
	Description string  `cbor:"description"`
	Operation   string  `cbor:"operation"`
	Resource    string  `cbor:"resource"` // parameter naming the resource; "" when none
	HasSchema   bool    `cbor:"has_schema"`
	Params      []Field `cbor:"params"` // sorted by name
}

// Field is a typed parameter or object member.
type Field struct {
	Name     string `cbor:"name"`
	Type     Type   `cbor:"type"`
	Optional bool   `cbor:"optional"`
}

// Type is a parameter type (kind.go; stored as the kind's name: "any",
// "string", "int", "double", "bool", "list", "map", "object").
type Type struct {
	Kind   Kind    `cbor:"kind"`
	Elem   *Type   `cbor:"elem,omitempty"`   // list, map
	Fields []Field `cbor:"fields,omitempty"` // object, sorted by name
}

// Param is a contract constant. Value is made of nil, bool, float64, string,
// []any and map[string]any only (HCL numbers become float64: CEL double).
type Param struct {
	Name  string `cbor:"name"`
	Value any    `cbor:"value"`
}

// Grant is a capability set: (operation, resource) pairs.
type Grant struct {
	Name   string  `cbor:"name"`
	Allows []Allow `cbor:"allows"` // sorted by operation
}

// Allow grants an operation on resources ("*": every resource).
type Allow struct {
	Operation string   `cbor:"operation"`
	Resources []string `cbor:"resources"` // sorted
}

// Pred is a predicate: its name, checked result type and expression.
type Pred struct {
	Name string `cbor:"name"`
	// Type is the predicate's CEL result type as a deterministic protobuf
	// google.api.expr.v1alpha1.Type.
	Type []byte `cbor:"type"`
	Expr int    `cbor:"expr"` // index in Bundle.Exprs, or NoExpr for a pattern predicate
	// Pattern is, for a predicate written with match, its pattern's index
	// in Plan.Patterns (the predicate is then a bool); else NoExpr.
	Pattern int `cbor:"pattern"`
}

// Expr is one checked CEL expression.
type Expr struct {
	Kind  string `cbor:"kind"`  // what it computes, e.g. "utility", "success", "predicate", "source.task"
	Owner string `cbor:"owner"` // the block it belongs to, e.g. the task id
	Env   string `cbor:"env"`   // "criterion", "source" or "gate": which CEL environment checks it
	// Scope is, for criterion and step expressions, the index in
	// Decls.Scopes of the module whose params and predicates it sees.
	Scope int `cbor:"scope"`
	// Vars are the variables a step guard sees besides the scope's (the
	// step's call and args or event, and earlier steps), each with its type
	// as a deterministic protobuf google.api.expr.v1alpha1.Type.
	Vars  []Var  `cbor:"vars"`
	Text  string `cbor:"text"`
	Range Range  `cbor:"range"`
	// ResultType is the checked result type in CEL notation, e.g. "bool".
	ResultType string `cbor:"result_type"`
	// Cost is the static worst-case cost estimate (cel-go cost units) under
	// the size bounds of compiler.MaxListItems and friends.
	Cost uint64 `cbor:"cost"`
	// Unmetered holds, for a criterion or step expression that may be
	// evaluated without cel-go's runtime cost tracker, its static cost
	// bound over runs of size at most SizeRungs[k], for k = 0, 1, ... as
	// long as the bound is below the run cost limit (compiler/costbound).
	// A run whose size is at most SizeRungs[len(Unmetered)-1] evaluates the
	// expression unmetered and is charged the bound of its rung against the
	// run's unmetered allowance; any other run, and every expression whose
	// list is empty, is metered.
	Unmetered []uint64 `cbor:"unmetered"`
	// Checked is the deterministic protobuf encoding of the checked AST
	// (google.api.expr.v1alpha1.CheckedExpr).
	Checked []byte `cbor:"checked"`
}

// Range is a source range: file path relative to the contract directory and
// 1-based line and column (columns count bytes, as HCL does).
type Range struct {
	File      string `cbor:"file"`
	Line      int    `cbor:"line"`
	Column    int    `cbor:"column"`
	EndLine   int    `cbor:"end_line"`
	EndColumn int    `cbor:"end_column"`
}

// Plan says which expression produces which label.
type Plan struct {
	Predicates  []PredRef        `cbor:"predicates"` // every predicate, in evaluation (dependency) order
	Tasks       []TaskPlan       `cbor:"tasks"`      // sorted by id
	Goals       []GoalPlan       `cbor:"goals"`      // sorted by id
	SideEffects []SideEffectPlan `cbor:"side_effects"`
	Cases       []Case           `cbor:"cases"` // sorted by (task, goal)
	// GoalTasks are the goals also run directly as user tasks (the
	// goal_tasks block), sorted; a run mapped to one of them with no goal
	// is judged by the goal's success criterion as its utility.
	GoalTasks []string `cbor:"goal_tasks,omitempty"`
	// Optional are the case sets a condition may lack as a whole (cases
	// blocks with optional = true, and an optional goal_tasks block), by
	// label; the sets of a contract without them are absent, so its bundle
	// bytes are as before.
	Optional   []OptionalSet   `cbor:"optional,omitempty"`
	Sources    []SourcePlan    `cbor:"sources"`
	Invariants []InvariantPlan `cbor:"invariants"` // sorted by name
	Failures   []FailurePlan   `cbor:"failures"`   // sorted by name
	Gates      []GatePlan      `cbor:"gates"`      // sorted by name
	Patterns   []PatternPlan   `cbor:"patterns"`
	// RunCostLimit bounds the CEL cost spent evaluating one run (cel-go cost
	// units); once spent, the run's remaining labels are unknown.
	RunCostLimit uint64 `cbor:"run_cost_limit"`
}

// OptionalSet is one optional cases block (Cases) or the optional
// goal_tasks block (GoalTasks, Label "goal_tasks").
type OptionalSet struct {
	Label     string   `cbor:"label"`
	Cases     []Case   `cbor:"cases,omitempty"`      // sorted by (task, goal)
	GoalTasks []string `cbor:"goal_tasks,omitempty"` // sorted
}

// PredRef names predicate Pred of scope Scope (indexes in Decls.Scopes and
// its Predicates).
type PredRef struct {
	Scope int `cbor:"scope"`
	Pred  int `cbor:"pred"`
}

// TaskPlan is a user task.
type TaskPlan struct {
	ID      string    `cbor:"id"`
	Prompt  string    `cbor:"prompt"`
	Utility Criterion `cbor:"utility"`
	// Variants, tried in order, replace Utility's expression on the runs
	// whose When holds (its patterns still apply).
	Variants []VariantPlan `cbor:"variants"`
}

// GoalPlan is an injection goal.
type GoalPlan struct {
	ID       string        `cbor:"id"`
	Summary  string        `cbor:"summary"`
	Success  Criterion     `cbor:"success"`
	Variants []VariantPlan `cbor:"variants"` // as TaskPlan.Variants
}

// SideEffectPlan is a side-effect criterion.
type SideEffectPlan struct {
	Name string    `cbor:"name"`
	When Criterion `cbor:"when"`
}

// Case is a security case: a (task, goal) pair.
type Case struct {
	Task string `cbor:"task"`
	Goal string `cbor:"goal"`
}

// SourcePlan maps transcript records to runs. Expression fields are indexes
// in Bundle.Exprs or NoExpr.
type SourcePlan struct {
	Name       string `cbor:"name"`
	Format     string `cbor:"format"`
	Select     int    `cbor:"select"`
	Task       int    `cbor:"task"`
	Goal       int    `cbor:"goal"`
	Condition  int    `cbor:"condition"`
	Attempt    int    `cbor:"attempt"`
	Repetition int    `cbor:"repetition"`
	Grant      string `cbor:"grant"`
	Given      Given  `cbor:"given"`
	// Attack is the index of the attack expression (string or null,
	// evaluated for attacked runs), nil when the source has none (and the
	// bundle's bytes are as before).
	Attack *int `cbor:"attack,omitempty"`
}

// Given are the expressions that read another harness's labels.
type Given struct {
	Utility       int `cbor:"utility"`
	AttackSuccess int `cbor:"attack_success"`
	SideEffect    int `cbor:"side_effect"`
}

// InvariantPlan is a property every run must have (assert form: Assert is
// a bool expression that must be true).
type InvariantPlan struct {
	Name        string    `cbor:"name"`
	Description string    `cbor:"description"`
	Severity    string    `cbor:"severity"` // low, medium, high or critical
	Holds       Criterion `cbor:"holds"`    // assert ∧ match matched ∧ forbid did not match
}

// FailurePlan is a failure class: a run belongs to it when When is true.
type FailurePlan struct {
	Name        string    `cbor:"name"`
	Description string    `cbor:"description"`
	When        Criterion `cbor:"when"`
}

// GatePlan is a set of release requirements over each condition's metrics.
type GatePlan struct {
	Name        string   `cbor:"name"`
	Description string   `cbor:"description"`
	Conditions  []string `cbor:"conditions"` // empty: every condition
	Require     []int    `cbor:"require"`    // expr indexes, env "gate"
}

// Criterion is how a label is computed: the conjunction (Kleene AND: false
// wins over unknown) of a CEL expression and pattern results. Expr is
// NoExpr when the block has no CEL attribute; Patterns may be empty.
type Criterion struct {
	Expr     int          `cbor:"expr"`
	Patterns []PatternUse `cbor:"patterns"`
}

// PatternUse is a pattern in a criterion: it must match, or (Negate, an
// invariant's forbid) must not.
type PatternUse struct {
	Pattern int  `cbor:"pattern"` // index in Plan.Patterns
	Negate  bool `cbor:"negate"`
}

// PatternPlan is a compiled trace pattern: its steps and its program for
// the Pike VM (docs/patterns.md, docs/bundle.md).
type PatternPlan struct {
	Owner string     `cbor:"owner"` // e.g. "invariant no_send_after_read (forbid)"
	Text  string     `cbor:"text"`
	Range Range      `cbor:"range"`
	Scope int        `cbor:"scope"` // index in Decls.Scopes: whose params and predicates guards see
	Steps []StepPlan `cbor:"steps"`
	// Program is the bytecode; execution starts at instruction 0.
	Program []Inst `cbor:"program"`
	// Keyed lists the steps some guard refers to: their bindings are part
	// of a VM thread's identity (the others are not, which keeps matching
	// linear in the run's length).
	Keyed []int `cbor:"keyed"`
}

// StepPlan is a step: which items it selects and its guard.
type StepPlan struct {
	Name string `cbor:"name"`
	Call string `cbor:"call"` // tool name, "*" for any call, "" for a role step
	Role string `cbor:"role"` // message role, "" for a call step
	When int    `cbor:"when"` // guard: expr index (env "step"), or NoExpr
	// Refs lists the earlier steps (indexes) the guard refers to.
	Refs []int `cbor:"refs"`
}

// Inst is one VM instruction (op.go; Op is stored as its name). Op is one of:
//
//	step X     consume an item matching step X (selector and guard), binding it to X
//	not X      consume an item that does not match step X
//	any        consume any item
//	split X Y  continue at X and at Y (X preferred)
//	jmp X      continue at X
//	bol        succeed only before the first item
//	eol        succeed only after the last item
//	match      the pattern matched
type Inst struct {
	Op Op  `cbor:"op"`
	X  int `cbor:"x"`
	Y  int `cbor:"y"`
}

// Var is an extra variable of a step guard's environment.
type Var struct {
	Name string `cbor:"name"`
	Type []byte `cbor:"type"`
}

// VariantPlan is a versioned form of a task's or goal's criterion.
type VariantPlan struct {
	Name string `cbor:"name"`
	When int    `cbor:"when"` // expr index: does the variant apply to the run?
	Expr int    `cbor:"expr"` // expr index: the criterion's expression for those runs
}
