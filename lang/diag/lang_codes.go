package diag

import "github.com/hashicorp/hcl/v2"

// The codes of the diagnostics package lang and its subpackages report,
// each registered (with its documentation) in langCodes below; the
// identifier is the code in CamelCase.
const (
	HCLSyntax              Code = "hcl-syntax"
	NestingTooDeep         Code = "nesting-too-deep"
	ReadError              Code = "read-error"
	NoContractFiles        Code = "no-contract-files"
	MissingContract        Code = "missing-contract"
	UnknownBlock           Code = "unknown-block"
	UnknownAttribute       Code = "unknown-attribute"
	MissingAttribute       Code = "missing-attribute"
	MissingBlock           Code = "missing-block"
	DuplicateAttribute     Code = "duplicate-attribute"
	DuplicateBlock         Code = "duplicate-block"
	DuplicateName          Code = "duplicate-name"
	InvalidLabels          Code = "invalid-labels"
	InvalidName            Code = "invalid-name"
	ReservedWord           Code = "reserved-word"
	CriterionNotString     Code = "criterion-not-string"
	CriterionInterpolation Code = "criterion-interpolation"
	InvalidType            Code = "invalid-type"
	WrongValueType         Code = "wrong-value-type"
	InvalidValue           Code = "invalid-value"
	NotConstant            Code = "not-constant"
	ConflictingAttributes  Code = "conflicting-attributes"
	PatternSyntax          Code = "pattern-syntax"
	UnknownStep            Code = "unknown-step"
	UnusedStep             Code = "unused-step"
	StepShadowsVariable    Code = "step-shadows-variable"
	UseCycle               Code = "use-cycle"
	UseMissing             Code = "use-missing"
	UseDuplicate           Code = "use-duplicate"
	UseTooDeep             Code = "use-too-deep"
	StringTooLarge         Code = "string-too-large"
	InternalError          Code = "internal-error" // registered with the compiler's codes
)

// langCodes are the codes of diagnostics produced while reading contract
// files (package lang).
var langCodes = []Info{
	{Code: "hcl-syntax", Severity: hcl.DiagError, Title: "HCL syntax error",
		Doc: "The file is not valid HCL: an unterminated string or block, a missing `=` or newline, an invalid character or escape sequence, and the like. The message says what the parser expected where. Fix the syntax: while any file of a contract does not parse, its syntax errors are reported alone (what would be said of the rest comes mostly from the partial parse: blocks cut off by an unclosed brace, names whose uses were lost), and the contract's other problems once it parses."},
	{Code: "nesting-too-deep", Severity: hcl.DiagError, Title: "Nesting too deep",
		Doc: "Brackets, braces, parentheses or template sequences nest more than 128 levels deep. tenet refuses such a file before parsing it, so that hostile input cannot exhaust the parser's stack. No real contract needs this depth: flatten the value, or move it into a transcript or a param."},
	{Code: "string-too-large", Severity: hcl.DiagError, Title: "String too large",
		Doc: "A quoted string or heredoc has more than 10,000 literal parts (heredoc lines, or pieces between `$${` and `%%{` escapes), or more than one part and parts × bytes over 2^28 (268,435,456: 1,000 lines of 256 KiB in all, 10,000 lines of 26 KiB). HCL assembles a string part by part in time proportional to parts × bytes, so tenet refuses such a file before parsing it (a 20 MB heredoc took 87 s). Shorten the string or join its lines; a criterion is at most 100,000 code points anyway, and a one-line string is bounded only by the file size."},
	{Code: "read-error", Severity: hcl.DiagError, Title: "Cannot read contract directory or file",
		Doc: "The contract directory, or one of its *.tenet.hcl files, could not be read; the message gives the operating system's error (missing directory, permission denied). Check the path given on the command line and the permissions."},
	{Code: "no-contract-files", Severity: hcl.DiagError, Title: "No contract files",
		Doc: "The directory given as a contract holds no *.tenet.hcl file (subdirectories are not read). Name the directory that holds the contract's files, or check that they end in .tenet.hcl."},
	{Code: "missing-contract", Severity: hcl.DiagError, Title: "Missing contract block",
		Doc: "A contract directory needs exactly one `contract \"name\" { ... }` block, in any of its files; it names the contract in bundles, runs files and reports. Add one. A directory imported with `use` is a library and needs none."},
	{Code: "unknown-block", Severity: hcl.DiagError, Title: "Unsupported block type",
		Doc: "A block whose type is not expected where it is written: a misspelt block type (`contrct`), a block nested in the wrong block, or a block inside `params` (whose values are written as attributes). The message suggests the nearest valid block type when there is one."},
	{Code: "unknown-attribute", Severity: hcl.DiagError, Title: "Unsupported argument",
		Doc: "An attribute (or a key of a test's `expect` object) that the block does not define, usually misspelt. Unknown attributes are errors rather than ignored, so that a typo never silently drops a criterion. The message suggests the nearest valid name; docs/language.md lists every attribute of every block. A `forbid` pattern outside an invariant or a side_effect is reported with this code too, saying where forbid belongs."},
	{Code: "missing-attribute", Severity: hcl.DiagError, Title: "Missing required argument",
		Doc: "A block lacks an attribute it requires, such as a tool's `operation`, or none of the attributes that make its criterion: a task needs `utility` or `match`, a goal `success` or `match`, a side_effect `when`, `match` or `forbid`, an invariant `assert`, `match` or `forbid`, a failure `when` or `match`, a predicate `expr` or `match`, and a step `call` or `role`. The error points at the block's opening brace and names the accepted attributes; add one."},
	{Code: "missing-block", Severity: hcl.DiagError, Title: "Missing block",
		Doc: "A block lacks a nested block it requires, such as a grant without any `allow \"operation\" { resources = [...] }` block. Add the nested block."},
	{Code: "duplicate-attribute", Severity: hcl.DiagError, Title: "Duplicate argument",
		Doc: "An attribute is set twice in one block, or a key is given twice in one object (for example in a test's `expect`). Keep one of them."},
	{Code: "duplicate-block", Severity: hcl.DiagError, Title: "Duplicate block",
		Doc: "A block that may appear once (contract, threat_model and registry per contract, given per source) appears again, possibly in another file of the directory. The message says where the first one is; merge the two."},
	{Code: "duplicate-name", Severity: hcl.DiagError, Title: "Duplicate name",
		Doc: "Two declarations of the same kind share a name: two tools, predicates, params, tasks, goals, side effects, invariants, failures, gates, tests or sources, two `allow` blocks for one operation in a grant, two steps of one block, two fields of one object type, or two `use` blocks with one namespace. Names are shared by all files of the contract directory (step names are local to their block). The message says where the first declaration is; rename or remove one."},
	{Code: "invalid-labels", Severity: hcl.DiagError, Title: "Wrong number of block labels",
		Doc: "A block has too many or too few quoted labels after its type: `task {}` lacks the task's id, `threat_model \"x\" {}` has one too many, a cases block with `optional = true` has none (it needs one naming it). The message gives the expected labels."},
	{Code: "invalid-name", Severity: hcl.DiagError, Title: "Invalid name",
		Doc: "A name is empty, or a name that CEL refers to (a tool, predicate, param, side effect, invariant, failure or step name, a field of a tool's parameters or of an object type, a use namespace) is not an identifier: identifiers are made of ASCII letters, digits and underscores and do not start with a digit. A step may not be named `_`, which is any item in a pattern. Task, goal, source, grant, gate and test names may be any non-empty string. The message suggests a corrected spelling, such as send_money for send-money."},
	{Code: "reserved-word", Severity: hcl.DiagError, Title: "Reserved word",
		Doc: "CEL reserves the words as, break, const, continue, else, false, for, function, if, import, in, let, loop, namespace, null, package, return, true, var, void and while: none of them can be used as an identifier, so a tool, predicate, param, side effect, invariant, failure or step, a field of a tool's parameters or of an object type, or a use namespace with such a name could not be referred to from a criterion. Choose another name, for example by appending an underscore (var_)."},
	{Code: "criterion-not-string", Severity: hcl.DiagError, Title: "Criterion must be a string",
		Doc: "A criterion is a CEL expression written as an HCL string literal, quoted (utility = \"calls.size() > 0\") or as a heredoc (<<EOT ... EOT). A number, bool, list, object, null, bare reference or function call is refused even when it looks like valid CEL, because HCL would evaluate it before CEL could see it. Put the expression in quotes. A trace pattern (`match`, `forbid`) is a string in the same way."},
	{Code: "criterion-interpolation", Severity: hcl.DiagError, Title: "Criterion contains an HCL interpolation or directive",
		Doc: "HCL evaluates ${...} interpolations and %{...} template directives inside strings before tenet sees the text, so a criterion containing one would not be the CEL that was written. Criteria are literal text: write $${ for a literal ${ and %%{ for a literal %{; to use a contract constant in a criterion, declare it in a params block and write params.<name>. Trace patterns (`match`, `forbid`) are literal text in the same way."},
	{Code: "invalid-type", Severity: hcl.DiagError, Title: "Invalid type",
		Doc: "A tool parameter type or object field type is malformed: an unknown type name (lsit), a quoted type (\"string\"), a constructor without its argument (list) or with the wrong number of arguments, or optional(T) outside an object field or tool parameter. The types are string, int, double (or number), bool, any, list(T), map(T), object({name = T, ...}) and optional(T). The message suggests the nearest type name."},
	{Code: "wrong-value-type", Severity: hcl.DiagError, Title: "Incorrect attribute value type",
		Doc: "An attribute's value has the wrong type: a number where a string is expected, a single string where a list of strings is expected (write [\"a\"]), a fraction where a whole number is expected, or a test expectation that is neither true, false nor \"unknown\". The message names the attribute and the type it wants."},
	{Code: "invalid-value", Severity: hcl.DiagError, Title: "Invalid value",
		Doc: "An attribute has a value of the right type that is not allowed: an invariant severity other than low, medium, high or critical, a gate without requirements, a test with an empty transcript path, a record number below 1 or an empty expect, an absolute use path, a step role other than system, user, assistant or tool, an empty step call, or a constant HCL cannot compute (such as 1 + \"a\"). The message says which values are allowed, with the nearest one when there is one."},
	{Code: "not-constant", Severity: hcl.DiagError, Title: "Value is not a constant",
		Doc: "Values in a contract (params, names, numbers, lists) are constants: HCL variables (var.x) and function calls (upper(\"x\")) are not available. Write the value itself; computations over run data belong in CEL criteria."},
	{Code: "conflicting-attributes", Severity: hcl.DiagError, Title: "Conflicting arguments",
		Doc: "Two attributes that exclude each other are both set: a predicate with both `expr` and `match` (a predicate is one value: a CEL expression, or whether a trace pattern matched), or a step with both `call` and `role` (a step selects tool calls or messages, not both). Keep one; to combine a pattern with CEL, make two predicates and a third that uses both (`expr = \"pred.a && pred.b\"`), or test the other property in the step's `when`."},
	{Code: "pattern-syntax", Severity: hcl.DiagError, Title: "Invalid trace pattern",
		Doc: "A `match` or `forbid` pattern does not parse. The error points at the offending character inside the string (heredocs and escapes included) and says what is wrong: an empty pattern or group, a `|` with no alternative on one side, a `(` without its `)`, a `!` not followed by a step name, a repetition with nothing to repeat, applied to `^` or `$`, or following another one (write `(a*)?`), a `{n,m}` whose maximum is below its minimum or whose bounds exceed 100, or a character that is not part of the syntax (step names are identifiers). docs/patterns.md gives the grammar."},
	{Code: "unknown-step", Severity: hcl.DiagError, Title: "Unknown step",
		Doc: "A pattern names a step that its block does not declare. Steps are local to the block that holds the pattern: declare `step \"name\" { call = \"tool\" }` (or `role = \"user\"`) in the same block. The message suggests the nearest declared step; `_` is any item and `!name` any item that is not step name."},
	{Code: "unused-step", Severity: hcl.DiagWarning, Title: "Unused step",
		Doc: "A step block is named by none of its block's patterns (`match`, and in an invariant or side_effect `forbid`), or its block has no pattern, so the step has no effect: its selector and guard are never tried. Name it in a pattern or remove it. (A step is only reported when every pattern of its block parses.)"},
	{Code: "step-shadows-variable", Severity: hcl.DiagError, Title: "Step name shadows a variable",
		Doc: "Inside a step's `when` guard every earlier step of the pattern is a variable named after the step (`send.args.body.contains(read.result)`), so a step may not be named like a variable guards already see: the run's variables (events, calls, results, output, pre, post, meta, task, goal, params, pred, tools), a guard's own (call, args, event) or a CEL type name (bool, bytes, double, dyn, int, list, map, null_type, string, type, uint). Rename the step; the message suggests a name."},
	{Code: "use-cycle", Severity: hcl.DiagError, Title: "Import cycle",
		Doc: "Contract directories import each other with use blocks in a cycle (a directory importing itself counts). The message names the chain of directories, relative to the contract directory; the error is at the use block that closes the cycle. Move what both need into a third directory that both import."},
	{Code: "use-missing", Severity: hcl.DiagError, Title: "Imported directory not found",
		Doc: "A use block names a directory that does not exist, is not a directory, cannot be read, or holds no *.tenet.hcl file. The path is relative to the directory of the file holding the use block. The message suggests a sibling directory with a close name when there is one."},
	{Code: "use-duplicate", Severity: hcl.DiagError, Title: "Directory imported twice",
		Doc: "One contract imports the same directory with two use blocks under different namespaces, so every imported name would exist twice. Keep one use block and refer to the imported names through its namespace."},
	{Code: "use-too-deep", Severity: hcl.DiagError, Title: "Imports nest too deep",
		Doc: "A chain of use blocks is more than 32 directories deep. tenet refuses it so that a pathological layout cannot make loading unbounded. Import the shared directories directly rather than through long chains."},
}
