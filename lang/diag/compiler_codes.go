package diag

import "github.com/hashicorp/hcl/v2"

const (
	errSev  = hcl.DiagError
	warnSev = hcl.DiagWarning
)

// compilerCodes are the codes of diagnostics produced while checking a
// contract (package compiler).
var compilerCodes = []Info{
	{"cel-syntax", errSev, "CEL syntax error", "The criterion is not valid CEL; the message says what the parser expected. A CEL string literal cannot span lines: HCL turns \\n in a quoted .hcl string into a real newline, so write \\\\n to give CEL the escape."},
	{"cel-type", errSev, "CEL type error", "The criterion does not type-check: an operator or function is applied to values of types it does not accept (for example a string compared with a number). The message names the operator and the types."},
	{"invalid-regex", errSev, "Invalid regular expression", "A matches() pattern written as a string literal is not a valid RE2 regular expression (Go's regexp syntax: no backreferences or lookaround, repetition counts at most 1000); the message gives RE2's reason. A pattern that comes from the transcript is checked when the run is judged instead: an invalid one makes the criterion unknown."},
	{"int-double-compare", errSev, "int compared with double", "CEL never converts between int and double implicitly, so 1 == 1.0 does not type-check. Numbers from transcripts and params are doubles (write 10.0, not 10); sizes and indexes are ints (write 1, or convert with double(...)); tool arguments declared int are ints."},
	{"unknown-field", errSev, "Unknown field", "The field does not exist on the object's declared type: events, calls, typed tool arguments (tools.<name>), params and predicates are all typed, so a misspelt field is an error rather than a silent false. The message suggests the nearest field, or, for a metric a gate reads by its former name (raw_attacked_utility), the name it has now (utility_under_attack)."},
	{"unknown-reference", errSev, "Unknown variable or function", "The identifier is neither a variable of the criterion's environment (events, calls, results, output, pre, post, meta, task, goal, params, pred, tools; or meta and record in a source) nor a function; the message suggests the nearest name."},
	{"wrong-result-type", errSev, "Wrong result type", "The expression type-checks but gives the wrong type for its place: criteria must give bool, a source's task and condition string, attempt and repetition int, given labels bool or null."},
	{"unknown-predicate", errSev, "Unknown predicate", "pred.<name> names no predicate block; the message suggests the nearest."},
	{"predicate-cycle", errSev, "Predicate cycle", "Predicates may use other predicates, but not in a cycle: they are evaluated once per run in dependency order. The message names the cycle."},
	{"unknown-task", errSev, "Unknown task", "A cases block names a task id that no task block declares; the message suggests the nearest."},
	{"unknown-goal", errSev, "Unknown goal", "A cases or goal_tasks block names a goal id that no goal block declares; the message suggests the nearest."},
	{"goal-task-is-task", errSev, "Goal task with a task's id", "A goal_tasks block names a goal whose id is also a declared task's: a run mapped to that id could be either, so the two are never judged alike. Rename the task or the goal, or leave the goal out of goal_tasks."},
	{"duplicate-cases-label", errSev, "Duplicate cases label", "Two cases blocks have the same label: a report names an optional block by its label, so each label names one block."},
	{"duplicate-case", errSev, "Duplicate security case", "Two cases blocks declare the same (task, goal) pair; each security case is declared once, so that it is counted once."},
	{"unknown-tool", errSev, "Unknown tool", "A threat model's injection vector (or another reference to a tool) names no tool block; the message suggests the nearest."},
	{"unknown-operation", errSev, "Unknown operation", "A tool or grant names an operation outside the registry's vocabulary (default: read, update); declare it in registry { operations = [...] } or fix the spelling."},
	{"duplicate-operation", errSev, "Duplicate operation", "The registry lists an operation twice."},
	{"empty-name", errSev, "Empty name", "An operation or resource parameter name is the empty string."},
	{"unknown-resource-param", errSev, "Unknown resource parameter", "A tool's resource attribute must name one of its parameters: the one whose value is the resource the call acts on."},
	{"unknown-format", errSev, "Unknown transcript format", "A source names a transcript format tenet cannot read; the message lists the known formats."},
	{"unknown-grant", errSev, "Unknown grant", "A source names a grant no grant block declares."},
	{"invalid-number", errSev, "Invalid number", "A count or limit is out of range: attempt_budget, run_cost_limit and cost_budget must be at least 1, a test's record at least 1."},
	{"unsupported-param-value", errSev, "Unsupported parameter value", "A params value cannot be represented in CEL (for example a number that does not fit a double)."},
	{"missing-threat-model", errSev, "Missing threat model", "Every contract declares its threat model: which tools an adversary can inject through, the attempt budget, and the exposure criterion. Add a threat_model block. Not reported when a file has syntax errors, which may hide the block."},
	{"cost-over-budget", errSev, "Expression over cost budget", "The expression's worst-case cost estimate (cel-go cost units, computed with the size bounds in docs/language.md) exceeds the contract's cost_budget. Nested comprehensions over events or calls with string work inside, and parsing or regular expressions inside a comprehension, are the usual causes: parse a tool result once in a predicate, avoid nesting, or raise cost_budget in the contract block if the bound is acceptable."},
	{"bind-too-deep", errSev, "cel.bind nested too deeply", "cel.bind is nested in another bind's result so deeply that cel-go's static cost estimate would take too long: its work doubles with each level (25 levels took seconds, 30 minutes). tenet counts that work first, in time linear in the expression, and refuses an expression needing more than 2^22 steps (about 20 nested binds of small expressions). Bind several values at one level (a list or a map), or move an inner part into a predicate; real criteria nest two or three binds."},
	{"too-many-errors", errSev, "Too many errors", "The compiler reported 5,000 errors and stopped checking expressions: the expression this error points at and every later one are not checked (the checks that read no CEL still run). Each CEL error costs a search for a suggestion over every name, so a generated contract full of mistakes could take minutes; fix the errors reported and check again."},
	{"unused-param", warnSev, "Unused parameter", "No expression reads params.<name>. Remove it or use it."},
	{"unused-predicate", warnSev, "Unused predicate", "No criterion, invariant, gate or other predicate uses pred.<name>. Remove it or use it."},
	{"unused-tool", warnSev, "Unused tool", "No expression names the tool (tools.<name>, or its name in a string such as c.tool == 'name'), no threat model lists it and no grant or audit needs it. A registry may list every tool of a suite on purpose; this is a warning only."},
	{"grant-unused-operation", warnSev, "Grant on an operation no tool has", "A grant allows an operation that no declared tool performs, so the permission can never be used. Check the tool declarations or remove the allow block."},
	{"no-source", warnSev, "No source block", "Without a source block, tenet eval cannot map transcript records to runs. Add one (see docs/language.md) unless this contract is only imported by others. Not reported when a file has syntax errors, which may hide the block."},
	{"unknown-test-source", errSev, "Unknown source in test", "A test names a source block that does not exist."},
	{"unknown-invariant", errSev, "Unknown invariant or failure", "A test's expect names an invariant or failure class that is not declared; the message suggests the nearest."},
	{"duplicate-namespace", errSev, "Namespace clashes", "An import's namespace (use ... { as = \"ns\" }, or the directory's name) equals a parameter or predicate name of the importing contract, so params.<ns> or pred.<ns> would be ambiguous. Rename one."},
	{"tool-conflict", errSev, "Conflicting tool declarations", "A tool is declared by the contract and by a contract it imports (or by two imports) with different operations, resources or parameters. Tools name real tools, so every declaration of one must agree."},
	{"unknown-profile-param", errSev, "Unknown param in profile", "A profile block's params name a param the contract does not declare in its own params blocks (an import's params cannot be overridden); the message suggests the nearest."},
	{"profile-param-type", errSev, "Wrong type in profile", "A profile sets a param to a value whose CEL type differs from the declared value's (a string where a bool is declared): criteria were type-checked against the declared params, so a profile changes values, not types."},
	{"unknown-profile", errSev, "Unknown profile", "A test names a profile no profile block declares; the message suggests the nearest."},
	{"internal-error", errSev, "Internal error", "A bug in tenet: please report it with the contract that triggers it."},
}
