package lang

import (
	"strings"
	"testing"
)

// TestDiagnostics checks the exact summary, detail and range of each error
// the front end reports. Every snippet follows header, so it starts on line 2.
func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "unknown block",
			src:  `contrct "x" {}`,
			want: []string{`[unknown-block] main.tenet.hcl:2:1-2:8: Unsupported block type: Blocks of type "contrct" are not expected here. Did you mean "contract"?`},
		},
		{
			name: "missing required attributes of invariant failure gate test",
			src: `invariant "a" {}
failure "f" {}
gate "release" {}
test "t" {}
use "../common" {}`,
			want: []string{
				`[missing-attribute] main.tenet.hcl:2:15-2:15: Missing required argument: An invariant needs assert = "<CEL bool that must hold>", match = "<trace pattern that must match>" or forbid = "<trace pattern that must not match>"; any of them may be combined, and the invariant holds when every one given does.`,
				`[missing-attribute] main.tenet.hcl:3:13-3:13: Missing required argument: A failure needs when = "<CEL bool>", match = "<trace pattern>", or both (the run then belongs to the class when both hold).`,
				`[missing-attribute] main.tenet.hcl:4:16-4:16: Missing required argument: The argument "require" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:5:10-5:10: Missing required argument: The argument "transcript" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:5:10-5:10: Missing required argument: The argument "expect" is required, but no definition was found.`,
			},
		},
		{
			name: "unknown attribute with suggestion",
			src: `task "t" {
  utility = "true"
  promt   = "hi"
}`,
			want: []string{`[unknown-attribute] main.tenet.hcl:4:3-4:8: Unsupported argument: An argument named "promt" is not expected here. Did you mean "prompt"?`},
		},
		{
			name: "top-level attribute",
			src:  `version = "1"`,
			want: []string{`[unknown-attribute] main.tenet.hcl:2:1-2:8: Unsupported argument: An argument named "version" is not expected here.`},
		},
		{
			name: "duplicate task",
			src: `task "t" { utility = "true" }
task "u" { utility = "true" }
task "t" { utility = "false" }`,
			want: []string{`[duplicate-name] main.tenet.hcl:4:1-4:9: Duplicate task "t": A task "t" was already declared at main.tenet.hcl:2:1; each task needs a distinct name.`},
		},
		{
			name: "duplicate tool predicate goal side_effect grant source",
			src: `tool "x" { operation = "read" }
tool "x" { operation = "read" }
predicate "p" { expr = "true" }
predicate "p" { expr = "true" }
goal "g" { success = "true" }
goal "g" { success = "true" }
side_effect "s" { when = "true" }
side_effect "s" { when = "true" }
grant "k" {
  allow "read" { resources = ["*"] }
}
grant "k" {
  allow "read" { resources = ["*"] }
}
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.model"
}
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.model"
}`,
			want: []string{
				`[duplicate-name] main.tenet.hcl:3:1-3:9: Duplicate tool "x": A tool "x" was already declared at main.tenet.hcl:2:1; each tool needs a distinct name.`,
				`[duplicate-name] main.tenet.hcl:5:1-5:14: Duplicate predicate "p": A predicate "p" was already declared at main.tenet.hcl:4:1; each predicate needs a distinct name.`,
				`[duplicate-name] main.tenet.hcl:7:1-7:9: Duplicate goal "g": A goal "g" was already declared at main.tenet.hcl:6:1; each goal needs a distinct name.`,
				`[duplicate-name] main.tenet.hcl:9:1-9:16: Duplicate side_effect "s": A side_effect "s" was already declared at main.tenet.hcl:8:1; each side_effect needs a distinct name.`,
				`[duplicate-name] main.tenet.hcl:13:1-13:10: Duplicate grant "k": A grant "k" was already declared at main.tenet.hcl:10:1; each grant needs a distinct name.`,
				`[duplicate-name] main.tenet.hcl:21:1-21:11: Duplicate source "s": A source "s" was already declared at main.tenet.hcl:16:1; each source needs a distinct name.`,
			},
		},
		{
			name: "missing required attributes",
			src: `task "t" {}
goal "g" { summary = "x" }
side_effect "s" {}
predicate "p" {}
tool "x" {}
cases { tasks = ["*"] }
registry {}
source "s" {}`,
			want: []string{
				`[missing-attribute] main.tenet.hcl:2:10-2:10: Missing required argument: A task needs utility = "<CEL bool>", match = "<trace pattern>", or both (utility then needs both to hold).`,
				`[missing-attribute] main.tenet.hcl:3:12-3:12: Missing required argument: A goal needs success = "<CEL bool>", match = "<trace pattern>", or both (the attack then succeeds when both hold).`,
				`[missing-attribute] main.tenet.hcl:4:17-4:17: Missing required argument: A side effect needs when = "<CEL bool>", match = "<trace pattern>" or forbid = "<trace pattern>" (the harm happened when every one given holds, forbid counting when it matched).`,
				`[missing-attribute] main.tenet.hcl:5:15-5:15: Missing required argument: A predicate needs expr = "<CEL expression>" or match = "<trace pattern>" (a bool: whether the pattern matched the run).`,
				`[missing-attribute] main.tenet.hcl:6:10-6:10: Missing required argument: The argument "operation" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:7:9-7:9: Missing required argument: The argument "goals" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:8:10-8:10: Missing required argument: The argument "operations" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:9:12-9:12: Missing required argument: The argument "task" is required, but no definition was found.`,
				`[missing-attribute] main.tenet.hcl:9:12-9:12: Missing required argument: The argument "condition" is required, but no definition was found.`,
			},
		},
		{
			name: "interpolation in a criterion",
			src:  `task "t" { utility = "output == '${params.x}'" }`,
			want: []string{`[criterion-interpolation] main.tenet.hcl:2:34-2:45: Criterion contains an HCL interpolation: The utility criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`},
		},
		{
			name: "interpolation alone is a template wrap",
			src:  `goal "g" { success = "${x}" }`,
			want: []string{`[criterion-interpolation] main.tenet.hcl:2:23-2:27: Criterion contains an HCL interpolation: The success criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`},
		},
		{
			name: "directive in a heredoc criterion",
			src: `side_effect "s" {
  when = <<EOT
a %{ if true }b%{ endif } c
EOT
}`,
			want: []string{`[criterion-interpolation] main.tenet.hcl:4:3-4:15: Criterion contains an HCL template directive: The when criterion is CEL source text, but HCL would evaluate this %{...} template directive before CEL sees it. Write %%{ for a literal %{.`},
		},
		{
			name: "interpolation and directive in one criterion",
			src:  `predicate "p" { expr = "${a} %{ for x in y }${x}%{ endfor }" }`,
			want: []string{
				`[criterion-interpolation] main.tenet.hcl:2:25-2:29: Criterion contains an HCL interpolation: The expr criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`,
				`[criterion-interpolation] main.tenet.hcl:2:30-2:45: Criterion contains an HCL template directive: The expr criterion is CEL source text, but HCL would evaluate this %{...} template directive before CEL sees it. Write %%{ for a literal %{.`,
			},
		},
		{
			name: "non-string criteria",
			src: `goal "a" { success = 3 }
goal "b" { success = true }
goal "c" { success = ["x"] }
goal "d" { success = calls }
goal "e" { success = null }
goal "f" { success = { a = 1 } }
goal "g" { success = ("x") }`,
			want: []string{
				`[criterion-not-string] main.tenet.hcl:2:22-2:23: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found a number.`,
				`[criterion-not-string] main.tenet.hcl:3:22-3:26: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found a bool.`,
				`[criterion-not-string] main.tenet.hcl:4:22-4:27: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found a list.`,
				`[criterion-not-string] main.tenet.hcl:5:22-5:27: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found a bare reference (put the CEL expression in quotes).`,
				`[criterion-not-string] main.tenet.hcl:6:22-6:26: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found null.`,
				`[criterion-not-string] main.tenet.hcl:7:22-7:31: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found an object.`,
				`[criterion-not-string] main.tenet.hcl:8:22-8:27: Criterion must be a string: The success criterion is a CEL expression written as an HCL string, quoted (success = "...") or as a heredoc (<<EOT); found a parenthesized expression (write the string literal without parentheses).`,
			},
		},
		{
			name: "malformed types",
			src: `tool "x" {
  operation = "read"
  params = {
    a = lsit(string)
    b = stirng
    c = "string"
    d = list
    e = map(int, int)
    f = object(string)
    g = string(3)
    h = list()
    i = 42
    j = list(string...)
    k = object({ n = strin })
    l = object({ n = int, n = bool })
    m = frobnicate
  }
}`,
			want: []string{
				`[invalid-type] main.tenet.hcl:5:9-5:13: Invalid type: Unknown type "lsit"; did you mean "list"?`,
				`[invalid-type] main.tenet.hcl:6:9-6:15: Invalid type: Unknown type "stirng"; did you mean "string"?`,
				`[invalid-type] main.tenet.hcl:7:9-7:17: Invalid type: A type is written without quotes: string, not "string".`,
				`[invalid-type] main.tenet.hcl:8:9-8:13: Invalid type: The type list needs an argument, like list(string).`,
				`[invalid-type] main.tenet.hcl:9:12-9:22: Invalid type: map(...) takes exactly one argument, like map(string); found 2.`,
				`[invalid-type] main.tenet.hcl:10:16-10:22: Invalid type: The object type must be written as an object of field types, like {name = string, count = optional(int)}.`,
				`[invalid-type] main.tenet.hcl:11:9-11:18: Invalid type: The type string takes no argument: write string, not string(...).`,
				`[invalid-type] main.tenet.hcl:12:13-12:15: Invalid type: list(...) takes exactly one argument, like list(string); found 0.`,
				`[invalid-type] main.tenet.hcl:13:9-13:11: Invalid type: Expected a type, such as string, list(string) or object({name = string}). The types are string, int, double (or number), bool, any, list(T), map(T), object({name = T, ...}), and optional(T) for an object field or tool parameter that may be absent.`,
				`[invalid-type] main.tenet.hcl:14:9-14:24: Invalid type: list(...) takes one type argument, like list(string), not an expanded list (...).`,
				`[invalid-type] main.tenet.hcl:15:22-15:27: Invalid type: Unknown type "strin"; did you mean "string"?`,
				`[duplicate-name] main.tenet.hcl:16:27-16:28: Duplicate field: The field "n" was already declared at main.tenet.hcl:16:18.`,
				`[invalid-type] main.tenet.hcl:17:9-17:19: Invalid type: Unknown type "frobnicate". The types are string, int, double (or number), bool, any, list(T), map(T), object({name = T, ...}), and optional(T) for an object field or tool parameter that may be absent.`,
			},
		},
		{
			name: "optional outside an object field",
			src: `tool "x" {
  operation = "read"
  params = {
    a = list(optional(int))
    b = map(optional(string))
    c = optional(optional(bool))
    d = object({ e = list(optional(int)) })
  }
}`,
			want: []string{
				`[invalid-type] main.tenet.hcl:5:14-5:27: Invalid type: optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.`,
				`[invalid-type] main.tenet.hcl:6:13-6:29: Invalid type: optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.`,
				`[invalid-type] main.tenet.hcl:7:18-7:32: Invalid type: optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.`,
				`[invalid-type] main.tenet.hcl:8:27-8:40: Invalid type: optional(...) is only allowed as the type of an object field or a tool parameter; the field may then be absent.`,
			},
		},
		{
			name: "tool params must be an object",
			src: `tool "x" {
  operation = "read"
  params    = [string]
}`,
			want: []string{`[invalid-type] main.tenet.hcl:4:15-4:23: Invalid type: The tool parameters must be written as an object of field types, like {name = string, count = optional(int)}.`},
		},
		{
			name: "invalid names",
			src: `tool "send-money" { operation = "update" }
predicate "1st" { expr = "true" }
side_effect "" { when = "true" }
task "" { utility = "true" }
tool "x" {
  operation = "read"
  params    = { "file-path" = string }
}
params {
  attacker-iban = "x"
}`,
			want: []string{
				`[invalid-name] main.tenet.hcl:2:6-2:18: Invalid tool name: "send-money" is not a valid tool name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "send_money"?`,
				`[invalid-name] main.tenet.hcl:3:11-3:16: Invalid predicate name: "1st" is not a valid predicate name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "_1st"?`,
				`[invalid-name] main.tenet.hcl:4:13-4:15: Invalid side_effect name: A side_effect name must not be empty.`,
				`[invalid-name] main.tenet.hcl:5:6-5:8: Invalid task id: A task id must not be empty.`,
				`[invalid-name] main.tenet.hcl:8:17-8:28: Invalid field name: "file-path" is not a valid field name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "file_path"?`,
				`[invalid-name] main.tenet.hcl:11:3-11:16: Invalid param name: "attacker-iban" is not a valid param name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "attacker_iban"?`,
			},
		},
		{
			name: "params",
			src: `params {
  a = 1
  b = var.x
  c = upper("x")
}
params {
  a = 2
  d = "${1 + 2}"
  nested { x = 1 }
}`,
			want: []string{
				`[not-constant] main.tenet.hcl:4:7-4:10: Variables not allowed: Variables may not be used here.`,
				`[not-constant] main.tenet.hcl:5:7-5:17: Function calls not allowed: Functions may not be called here.`,
				`[unknown-block] main.tenet.hcl:10:3-10:9: Unexpected "nested" block: Blocks are not allowed here.`,
				`[duplicate-name] main.tenet.hcl:8:3-8:4: Duplicate param "a": A param "a" was already declared at main.tenet.hcl:3:3; each param needs a distinct name.`,
			},
		},
		{
			name: "grants",
			src: `grant "empty" {}
grant "k" {
  allow "read" { resources = ["*"] }
  allow "read" { resources = ["x"] }
  allow "update" {
    resources = ["a"]
    when      = "x"
    deny {}
  }
  resources = ["b"]
}`,
			want: []string{
				`[missing-block] main.tenet.hcl:2:1-2:14: Missing allow block: A grant holds one or more allow "operation" { resources = [...] } blocks.`,
				`[unknown-attribute] main.tenet.hcl:11:3-11:12: Unsupported argument: An argument named "resources" is not expected here.`,
				`[duplicate-name] main.tenet.hcl:5:3-5:15: Duplicate allow "read": This grant already has an allow "read" block at main.tenet.hcl:4:3; list all its resources there.`,
				`[unknown-attribute] main.tenet.hcl:8:5-8:9: Unsupported argument: An argument named "when" is not expected here.`,
				`[unknown-block] main.tenet.hcl:9:5-9:9: Unsupported block type: Blocks of type "deny" are not expected here.`,
			},
		},
		{
			name: "singletons",
			src: `contract "d" { versio = "1" }
threat_model {}
threat_model { attempt_budget = "x" }
registry { operations = ["read"] }
registry { operations = ["read"] }`,
			want: []string{
				`[unknown-attribute] main.tenet.hcl:2:16-2:22: Unsupported argument: An argument named "versio" is not expected here. Did you mean "version"?`,
				`[duplicate-block] main.tenet.hcl:2:1-2:13: Duplicate contract block: A contract has exactly one contract block; the first one is at main.tenet.hcl:1:1.`,
				`[wrong-value-type] main.tenet.hcl:4:33-4:36: Incorrect attribute value type: Inappropriate value for attribute "attempt_budget": a whole number is required, not string.`,
				`[duplicate-block] main.tenet.hcl:4:1-4:13: Duplicate threat_model block: A contract has at most one threat_model block; the first one is at main.tenet.hcl:3:1.`,
				`[duplicate-block] main.tenet.hcl:6:1-6:9: Duplicate registry block: A contract has at most one registry block; the first one is at main.tenet.hcl:5:1.`,
			},
		},
		{
			name: "value types",
			src: `threat_model {
  injection_vectors = "read_file"
  adversary_sees    = ["x", 1]
  attempt_budget    = 1.5
}
task "t" {
  prompt  = 42
  utility = "true"
}
cases {
  tasks = ["*"]
  goals = "*"
}`,
			want: []string{
				`[wrong-value-type] main.tenet.hcl:3:23-3:34: Incorrect attribute value type: Inappropriate value for attribute "injection_vectors": a list of strings is required, like ["a", "b"].`,
				`[wrong-value-type] main.tenet.hcl:4:29-4:30: Incorrect attribute value type: Inappropriate element in attribute "adversary_sees": a string is required, not number.`,
				`[wrong-value-type] main.tenet.hcl:5:23-5:26: Incorrect attribute value type: Inappropriate value for attribute "attempt_budget": a whole number is required, not 1.5.`,
				`[wrong-value-type] main.tenet.hcl:8:13-8:15: Incorrect attribute value type: Inappropriate value for attribute "prompt": a string is required, not number.`,
				`[wrong-value-type] main.tenet.hcl:13:11-13:14: Incorrect attribute value type: Inappropriate value for attribute "goals": a list of strings is required, like ["a", "b"].`,
			},
		},
		{
			name: "given",
			src: `source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.model"
  given { utility = "meta.success" }
  given {
    utility = "meta.ok"
    attack  = "x"
  }
}`,
			want: []string{
				`[unknown-attribute] main.tenet.hcl:9:5-9:11: Unsupported argument: An argument named "attack" is not expected here.`,
				`[duplicate-block] main.tenet.hcl:7:3-7:8: Duplicate given block: A source has at most one given block; the first one is at main.tenet.hcl:6:3.`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := parseSrc(header + tt.src + "\n")
			checkDiags(t, diags, tt.want...)
		})
	}
}

func TestMissingContract(t *testing.T) {
	_, diags := ParseFiles("dir", map[string][]byte{
		"b.tenet.hcl": []byte("task \"t\" { utility = \"true\" }\n"),
		"a.tenet.hcl": []byte("\n"),
	})
	checkDiags(t, diags, `[missing-contract] a.tenet.hcl:1:1-1:1: Missing contract block: A contract directory needs exactly one contract "name" { version = "..." } block; none of its 2 file(s) has one.`)
}

func TestDuplicateContractAcrossFiles(t *testing.T) {
	_, diags := ParseFiles("dir", map[string][]byte{
		"b.tenet.hcl": []byte("contract \"b\" {}\n"),
		"a.tenet.hcl": []byte("\ncontract \"a\" {}\n"),
	})
	checkDiags(t, diags, `[duplicate-block] b.tenet.hcl:1:1-1:13: Duplicate contract block: A contract has exactly one contract block; the first one is at a.tenet.hcl:2:1.`)
}

// TestSyntaxErrorsKeepGoing: HCL's syntax errors are reported with the
// errors of the other files, and do not cause a spurious missing-contract error.
func TestSyntaxErrorsKeepGoing(t *testing.T) {
	_, diags := ParseFiles("dir", map[string][]byte{
		"a.tenet.hcl": []byte("task \"t\" {\n  utility = \"x\n}\n"),
		"b.tenet.hcl": []byte("goal \"g\" {}\n"),
	})
	got := renderAll(diags)
	if len(got) < 2 || got[len(got)-1] != `[missing-attribute] b.tenet.hcl:1:10-1:10: Missing required argument: A goal needs success = "<CEL bool>", match = "<trace pattern>", or both (the attack then succeeds when both hold).` {
		t.Errorf("diagnostics: %q", got)
	}
	for _, g := range got {
		if strings.Contains(g, "Missing contract block") {
			t.Errorf("spurious %q", g)
		}
	}
}
