// Package lang reads tenet contracts: every *.tenet.hcl file of one directory,
// parsed with hashicorp/hcl/v2 into a syntax tree whose every node keeps its
// source range.
//
// lang knows HCL syntax and the shape of each block; it does not know CEL.
// Criteria are kept as CEL source text (Expr) together with a map from each
// byte of that text back to its position in the .hcl file, so the compiler can
// report CEL errors at file:line:col, heredocs and escapes included.
//
// Errors are hcl.Diagnostics with source ranges, each with a stable code
// (package lang/diag); unknown blocks, unknown attributes, duplicate names
// and malformed values are errors, never ignored, and every problem is
// reported in one pass. ParseDir also loads the directories that use
// blocks import.
//
// Around it: lang/diag holds the diagnostic codes and "did you mean"
// suggestions, lang/typeexpr reads type expressions, lang/pattern the trace
// pattern grammar, lang/internal/literal maps string literals back to the
// file, and lang/format lays a file out canonically (`tenet fmt`). lang
// imports only those and internal/readlimit; the compiler imports lang.
package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tenetlang/tenet/lang/pattern"
	"github.com/tenetlang/tenet/lang/typeexpr"
)

// FileSuffix is the suffix of contract source files.
const FileSuffix = ".tenet.hcl"

// Module is one contract: the blocks of every *.tenet.hcl file of a
// directory, in file-name order and, within a file, in source order.
type Module struct {
	// Dir is the directory the module was read from: as given by the
	// caller, or for an imported module the root's Dir joined with the
	// module's path relative to it.
	Dir string
	// Files are the source files sorted by name.
	Files []*SourceFile
	// SyntaxErrors is set when a file did not parse: the blocks after its
	// error are unknown, so a check that a block is missing would mislead.
	SyntaxErrors bool

	Contract    *Contract    // exactly one per module
	ThreatModel *ThreatModel // at most one
	Params      []*Param     // from every params block, in order
	Registry    *Registry    // at most one; nil means the default vocabulary
	Tools       []*Tool
	Grants      []*Grant
	Predicates  []*Predicate
	Tasks       []*Task
	Goals       []*Goal
	SideEffects []*SideEffect
	Cases       []*Cases
	GoalTasks   *GoalTasks // at most one
	Sources     []*Source
	Invariants  []*Invariant
	Failures    []*Failure
	Gates       []*Gate
	Tests       []*Test
	Uses        []*Use
	Profiles    []*Profile // profile blocks (profiles.go)
	// AttackAggregates are the attack_aggregate blocks (attacks.go).
	AttackAggregates []*AttackAggregate

	// Imports are the modules named by use blocks, loaded by ParseDir
	// (recursively; cycles are errors), in the order of the use blocks.
	// A use block that is in error (its directory missing, its namespace
	// invalid or taken, a cycle, ...) has no Import. Imported modules share
	// the root module's paths: their SourceFile.Path and range file names
	// are relative to the root module's directory ("../common/a.tenet.hcl"),
	// and a directory imported several times is loaded once (the same
	// *Module). ParseFiles does not load imports.
	Imports []*Import
}

// Imported returns every module m imports, directly or not, each once, in
// depth-first order of the use blocks.
func (m *Module) Imported() []*Module {
	var out []*Module
	seen := map[*Module]bool{m: true}
	var walk func(*Module)
	walk = func(x *Module) {
		for _, imp := range x.Imports {
			if imp.Module != nil && !seen[imp.Module] {
				seen[imp.Module] = true
				out = append(out, imp.Module)
				walk(imp.Module)
			}
		}
	}
	walk(m)
	return out
}

// SourceFile is one parsed contract file.
type SourceFile struct {
	// Path is slash-separated and relative to the directory of the root
	// module (the one given to ParseDir), which is Module.Dir except in
	// imported modules; it is also the hcl.Range Filename.
	Path  string
	Bytes []byte    // the file's contents
	HCL   *hcl.File // the parsed file, for diagnostic snippets
}

// Str is a string value with the range of its literal.
type Str struct {
	Value string
	Range hcl.Range
}

// Expr is a CEL expression written as an HCL string literal (quoted or heredoc).
//
// Text is the CEL source exactly as HCL evaluates the literal: escapes
// decoded, flush-heredoc indentation removed, NFC-normalized (cty normalizes
// every string). Offsets maps each byte of Text to its position in the file,
// so that a CEL error at byte i of Text is reported at Pos(i).
type Expr struct {
	Text  string
	Range hcl.Range // the whole literal, quotes or heredoc markers included
	// Offsets[i] is the file byte offset of Text[i]; it has len(Text)+1 entries,
	// the last being the offset just past the text.
	Offsets []int
	// Lines[k] is the byte offset in the file where line k+1 begins; it is
	// shared by every Expr of a file and used to turn offsets into hcl.Pos.
	Lines []int

	// src is the whole file (shared, not copied): Pos needs it to count
	// columns in characters as HCL does. Nil in an Expr built by hand, in
	// which case columns count bytes.
	src []byte
	// approx is set when the literal could not be mapped byte by byte (it
	// should not happen) and every offset is the literal's start instead.
	approx bool
}

// Contract is the `contract "name" { version, description }` block.
type Contract struct {
	Name        Str
	Version     *Str
	Description *Str
	// CostBudget bounds the static cost estimate of every expression;
	// nil means the compiler's default.
	CostBudget *Int
	// RunCostLimit bounds the cost actually spent evaluating one run;
	// nil means the compiler's default.
	RunCostLimit *Int
	Range        hcl.Range // the block's definition range (type and labels)
}

// ThreatModel is the `threat_model { ... }` block.
type ThreatModel struct {
	InjectionVectors []Str // tools whose output the adversary may alter
	AdversarySees    []Str // documentation only, kept in the bundle
	AttemptBudget    *Int  // attempts per security case; nil means 1
	// How a case's attempts combine (AttemptRules); nil means the default:
	// utility "all", side effect "any", exposed "any".
	AttemptUtility, AttemptSideEffect, AttemptExposed *Str
	Exposure                                          *Expr // CEL bool: did adversarial content reach the agent
	Range                                             hcl.Range
}

// Int is an integer value with the range of its literal.
type Int struct {
	Value int64
	Range hcl.Range
}

// Param is one attribute of a `params { ... }` block: a typed constant
// reachable in CEL as params.<name>.
type Param struct {
	Name  Str
	Value cty.Value // a known, wholly-known value (no unknowns, no marks)
	Range hcl.Range // the attribute's whole range
}

// Registry is the `registry { operations = [...] }` block.
type Registry struct {
	Operations []Str
	Range      hcl.Range
}

// DefaultOperations is the operation vocabulary when no registry block is given.
var DefaultOperations = []string{"read", "update"}

// Tool is a `tool "name" { ... }` block.
type Tool struct {
	Name        Str
	Description *Str
	Operation   Str      // must be in the registry's vocabulary
	Resource    *Str     // optional: which parameter names the resource
	Params      []*Field // parameter schema, sorted by name; nil when no params attribute
	Range       hcl.Range
}

// Grant is a `grant "name" { allow "op" { resources = [...] } }` block: the
// capability set K of (operation, resource) pairs a host holds.
type Grant struct {
	Name   Str
	Allows []*Allow
	Range  hcl.Range
}

// Allow is one `allow "operation" { resources = [...] }` block of a grant.
type Allow struct {
	Operation Str
	Resources []Str // "*" means every resource
	Range     hcl.Range
}

// Predicate is a `predicate "name" { expr = "..." }` block: a named CEL
// expression reachable as pred.<name>.
type Predicate struct {
	Name        Str
	Description *Str
	Expr        *Expr
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// Task is a `task "id" { ... }` block: a user task with its utility criterion.
type Task struct {
	ID          Str
	Prompt      *Str
	Description *Str
	Utility     *Expr // CEL bool
	// Variants replace Utility on runs they select (see Variant).
	Variants []*Variant
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// Goal is a `goal "id" { ... }` block: an injection task with its attack-success criterion.
type Goal struct {
	ID      Str
	Summary *Str
	Success *Expr // CEL bool
	// Variants replace Success on runs they select (see Variant).
	Variants []*Variant
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// SideEffect is a `side_effect "name" { when = "..." }` block: a frozen harm criterion.
type SideEffect struct {
	Name        Str
	Description *Str
	When        *Expr // CEL bool
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// Cases is a `cases { tasks = [...], goals = [...] }` block: the security
// cases are the cross product of the listed tasks and goals; "*" means all.
type Cases struct {
	// Label names the block (`cases "v1.2" { ... }`); "" when unlabelled.
	// An optional block needs one, so that reports can name it.
	Label Str
	Tasks []Str
	Goals []Str
	// Optional: a condition with no run of any of the block's cases
	// leaves them out of its C (docs/metrics.md).
	Optional bool
	Range    hcl.Range
}

// GoalTasks is a `goal_tasks { goals = [...] }` block: these goals are also
// run directly as user tasks (the goal's text as the prompt, no injection),
// each judged by the goal's success criterion as its utility.
type GoalTasks struct {
	Goals    []Str
	Optional bool // as for Cases: a condition with no goal-task run leaves them out
	Range    hcl.Range
}

// Source is a `source "name" { ... }` block: how a transcript record maps to a
// run. Every expression is CEL over the raw record (variables meta, record).
type Source struct {
	Name       Str
	Format     Str   // transcript format, e.g. "openai-messages"; "" (absent) or "auto": recognised per file
	Select     *Expr // bool: records this contract judges; nil means all
	Task       *Expr // string: task id
	Goal       *Expr // string or null: goal id; null means a benign run
	Attack     *Expr // string or null: the attack of an attacked run (evaluated for attacked runs only); nil: none named
	Condition  *Expr // string: the system under test
	Attempt    *Expr // int: nil means 1
	Repetition *Expr // int: nil means 1
	Grant      *Str  // the grant runs of this source use; nil means "default" when declared
	Given      *Given
	Range      hcl.Range
}

// Given is the `given { ... }` block of a source: labels another harness
// produced, kept for audit. Each expression yields bool or null.
type Given struct {
	Utility       *Expr
	AttackSuccess *Expr
	SideEffect    *Expr
	Range         hcl.Range
}

// The parameter types, read by package lang/typeexpr (see there).
type (
	TypeKind = typeexpr.Kind
	Type     = typeexpr.Type
	Field    = typeexpr.Field
)

// The parameter type kinds (docs/language.md).
const (
	TypeAny    = typeexpr.Any
	TypeString = typeexpr.String
	TypeInt    = typeexpr.Int
	TypeDouble = typeexpr.Double // also written `number`
	TypeBool   = typeexpr.Bool
	TypeList   = typeexpr.List
	TypeMap    = typeexpr.Map // map(T): string keys
	TypeObject = typeexpr.Object
)

// Invariant is an `invariant "name" { ... }` block: a property every run
// must have. In the assert form, Assert is a CEL bool that must be true.
type Invariant struct {
	Name        Str
	Description *Str
	Severity    *Str  // "low", "medium", "high" or "critical"; nil means "medium"
	Assert      *Expr // CEL bool
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// Failure is a `failure "name" { when = "..." }` block: a failure class
// (format missing, stale data, timeout, ...) a run belongs to when When is
// true. Failure classes are kept apart from utility and attack labels.
type Failure struct {
	Name        Str
	Description *Str
	When        *Expr // CEL bool
	// Trace holds the block's trace pattern (match / forbid) and its
	// steps; nil when the block has none.
	Trace *Trace
	Range hcl.Range
}

// Gate is a `gate "name" { require = [...] }` block: release requirements
// over each condition's metrics, evaluated after the metrics.
type Gate struct {
	Name        Str
	Description *Str
	Require     []*Expr // CEL bool over `metrics` and `condition`, one per requirement
	// Conditions restricts the gate to these conditions; empty means all.
	Conditions []Str
	Range      hcl.Range
}

// Test is a `test "name" { ... }` block: a contract unit test run by
// `tenet test`: judge one transcript record and compare labels.
type Test struct {
	Name       Str
	Transcript Str  // file path, relative to the directory of the file holding the block
	Record     *Int // 1-based number of the run among the file's records; nil means 1
	Source     *Str // source block; nil means the contract's only source
	// Task and Goal, when set, override the source's mapping, so that a
	// self-written transcript needs no metadata. Goal "" means benign.
	Task *Str
	Goal *Str
	// Profile, when set, names the profile block whose params the run is
	// judged under.
	Profile *Str
	Expect  []*Expectation
	Range   hcl.Range
}

// Expectation is one entry of a test's expect = { ... } object.
// Label is one of utility, attack_success, side_effect, exposed (Value:
// true, false or unknown), violations (invariant names) or failures
// (failure names).
type Expectation struct {
	Label Str
	// Bool is set for true/false; Unknown for the string "unknown".
	Bool    *bool
	Unknown bool
	// Names is set for violations and failures.
	Names []Str
	Range hcl.Range
}

// Use is a `use "path" { as = "name" }` block: import another contract
// directory's tools, predicates, params, invariants and failures.
// Predicates and params are reached as pred.<as>.<name> and
// params.<as>.<name>; tools keep their names (they name real tools).
type Use struct {
	Path  Str  // directory, relative to the directory of the file holding the block; slash-separated
	As    *Str // namespace; nil means the base name of Path
	Range hcl.Range

	// valid is set when the path and namespace are valid and unique, so
	// that ParseDir loads the directory.
	valid bool
}

// Import is a module loaded for a use block.
type Import struct {
	Use       *Use
	Namespace string // Use.As or the base name of Use.Path
	Module    *Module
}

// Trace is the trace-pattern part of a criterion block: its step blocks
// and its match and forbid patterns (docs/patterns.md). Match must match the run;
// forbid must not (in an invariant) or is the harm that happened (in a
// side_effect).
type Trace struct {
	Steps  []*Step
	Match  *Pattern // nil when absent
	Forbid *Pattern // nil when absent; only invariant and side_effect allow it
}

// Step is a `step "name" { call = "tool", role = "user", when = CEL }`
// block: one item of a run's item stream (a message or a tool call) that a
// pattern names. Exactly one of Call ("*" for any tool) and Role (one of
// Roles) is set. Trace.Steps holds only steps without errors, in source
// order, with distinct names that are identifiers, not reserved words, not
// "_" and not a variable guards see (RunVariables, GuardVariables,
// CELTypeNames).
type Step struct {
	Name  Str
	Call  *Str
	Role  *Str
	When  *Expr // CEL bool guard; nil means always
	Range hcl.Range
}

// Pattern is a trace pattern written as an HCL string: Expr holds its text
// and source offsets (like a criterion), Tree its parse. A node's Pos and
// End are byte offsets in Expr.Text: Expr.RangeOf(n.Pos, n.End) is its
// range in the file.
//
// Tree is nil when lang reported an error about the pattern: it does not
// parse, or it names a step that is not in its Trace's Steps (undeclared,
// or left out for an error of its own). A non-nil Tree names only steps of
// Trace.Steps.
type Pattern struct {
	Expr *Expr
	Tree *pattern.Node
}

// Variant is a `variant "name" { when = CEL, utility = CEL }` block of a
// task (success = CEL in a goal): a versioned form of the criterion. On a
// run, the first variant whose when holds replaces the block's criterion
// (its CEL attribute; the block's patterns still apply); when none holds,
// the block's own criterion is used. A benchmark whose task texts changed
// between versions keeps one block per task this way.
type Variant struct {
	Name      Str
	When      *Expr // CEL bool over the run: does this variant apply?
	Criterion *Expr // the variant's utility or success
	Range     hcl.Range
}
