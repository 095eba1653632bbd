package lang

import (
	"strings"
	"testing"
)

// TestNewBlocks reads one of each of invariant, failure, gate, test and use.
func TestNewBlocks(t *testing.T) {
	src := header + `invariant "answered" {
  description = "the agent answers"
  severity    = "high"
  assert      = "output != ''"
}

invariant "quiet" {
  assert = <<-CEL
    !calls.exists(c, c.tool == "send")
  CEL
}

failure "timeout" {
  description = "a tool timed out"
  when        = "results.exists(r, r.error.contains('timed out'))"
}

gate "release" {
  description = "ship it"
  require     = ["metrics.targeted_asr <= 0.10", "metrics.benign_utility >= 0.60"]
  conditions  = ["gpt-4o"]
}

test "bill paid" {
  transcript = "testdata/ut0_ok.json"
  record     = 2
  source     = "agentdojo"
  task       = "user_task_0"
  goal       = ""
  expect = {
    utility        = true
    attack_success = false
    side_effect    = "unknown"
    exposed        = false
    violations     = ["answered"]
    failures       = []
  }
}

use "../common" {}
use "../lib/send" { as = "mail" }
`
	m, diags := parseSrc(src)
	checkDiags(t, diags)

	if len(m.Invariants) != 2 {
		t.Fatalf("invariants = %+v", m.Invariants)
	}
	inv := m.Invariants[0]
	if inv.Name.Value != "answered" || inv.Description.Value != "the agent answers" || inv.Severity.Value != "high" ||
		inv.Assert.Text != "output != ''" || rng(inv.Range) != "main.tenet.hcl:2:1-2:21" ||
		rng(inv.Assert.Range) != "main.tenet.hcl:5:17-5:31" || rng(inv.Severity.Range) != "main.tenet.hcl:4:17-4:23" {
		t.Errorf("invariant = %+v", inv)
	}
	q := m.Invariants[1]
	if q.Severity != nil || q.Description != nil || q.Assert.Text != "!calls.exists(c, c.tool == \"send\")\n" {
		t.Errorf("invariant quiet = %+v", q)
	}
	if got := rng(q.Assert.RangeOf(1, 6)); got != "main.tenet.hcl:10:6-10:11" {
		t.Errorf("heredoc assert RangeOf = %s", got)
	}

	if len(m.Failures) != 1 || m.Failures[0].Name.Value != "timeout" || m.Failures[0].Description.Value != "a tool timed out" ||
		m.Failures[0].When.Text != "results.exists(r, r.error.contains('timed out'))" {
		t.Errorf("failures = %+v", m.Failures)
	}

	if len(m.Gates) != 1 {
		t.Fatalf("gates = %+v", m.Gates)
	}
	g := m.Gates[0]
	if g.Name.Value != "release" || g.Description.Value != "ship it" || len(g.Require) != 2 ||
		g.Require[0].Text != "metrics.targeted_asr <= 0.10" || g.Require[1].Text != "metrics.benign_utility >= 0.60" ||
		rng(g.Require[1].Range) != "main.tenet.hcl:21:50-21:82" || len(g.Conditions) != 1 || g.Conditions[0].Value != "gpt-4o" {
		t.Errorf("gate = %+v", g)
	}
	if got := rng(g.Require[1].RangeOf(8, 22)); got != "main.tenet.hcl:21:59-21:73" {
		t.Errorf("require RangeOf = %s", got)
	}

	if len(m.Tests) != 1 {
		t.Fatalf("tests = %+v", m.Tests)
	}
	ts := m.Tests[0]
	if ts.Name.Value != "bill paid" || ts.Transcript.Value != "testdata/ut0_ok.json" || ts.Record.Value != 2 ||
		ts.Source.Value != "agentdojo" || ts.Task.Value != "user_task_0" || ts.Goal == nil || ts.Goal.Value != "" {
		t.Errorf("test = %+v", ts)
	}
	var exp []string
	for _, e := range ts.Expect {
		s := e.Label.Value + "="
		switch {
		case e.Bool != nil && *e.Bool:
			s += "true"
		case e.Bool != nil:
			s += "false"
		case e.Unknown:
			s += "unknown"
		default:
			var names []string
			for _, n := range e.Names {
				names = append(names, n.Value)
			}
			s += "[" + strings.Join(names, ",") + "]"
		}
		exp = append(exp, s+"@"+rng(e.Range))
	}
	want := "utility=true@main.tenet.hcl:32:5-32:26 attack_success=false@main.tenet.hcl:33:5-33:27 " +
		"side_effect=unknown@main.tenet.hcl:34:5-34:31 exposed=false@main.tenet.hcl:35:5-35:27 " +
		"violations=[answered]@main.tenet.hcl:36:5-36:34 failures=[]@main.tenet.hcl:37:5-37:24"
	if got := strings.Join(exp, " "); got != want {
		t.Errorf("expect:\n got %s\nwant %s", got, want)
	}

	if len(m.Uses) != 2 {
		t.Fatalf("uses = %+v", m.Uses)
	}
	if u := m.Uses[0]; u.Path.Value != "../common" || u.As != nil || u.Namespace() != "common" || rng(u.Path.Range) != "main.tenet.hcl:41:5-41:16" {
		t.Errorf("use 0 = %+v", u)
	}
	if u := m.Uses[1]; u.Path.Value != "../lib/send" || u.As.Value != "mail" || u.Namespace() != "mail" {
		t.Errorf("use 1 = %+v", u)
	}
	if len(m.Imports) != 0 {
		t.Errorf("ParseFiles loaded imports: %+v", m.Imports)
	}

	for _, e := range allExprs(m) {
		if e.approx {
			t.Errorf("%s: offsets fell back", rng(e.Range))
		}
		checkOffsets(t, e, len(src))
	}
}

// TestNewBlockDiagnostics checks the exact errors of the invariant,
// failure, gate, test and use blocks, and of reserved words.
func TestNewBlockDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "invariant",
			src: `invariant "a" {
  severity = "hgh"
  assert   = "true"
}
invariant "b" {
  severity = "High"
  assert   = 1
}
invariant "c" {
  severity = "urgent"
  assert   = "x == '${y}'"
  asert    = "true"
}
invariant "no-send" { assert = "true" }
invariant "a" { assert = "false" }
invariant "d" {
  severity = 3
  step "read" { call = "read_file" }
  step "send" { call = "send_money" }
}
invariant "e" {
  step "read" { call = "read_file" }
  forbid = "read _* send"
}`,
			want: []string{
				`[invalid-value] main.tenet.hcl:3:14-3:19: Invalid severity: The severity "hgh" is not one of low, medium, high, critical. Did you mean "high"?`,
				`[invalid-value] main.tenet.hcl:7:14-7:20: Invalid severity: The severity "High" is not one of low, medium, high, critical. Did you mean "high"?`,
				`[criterion-not-string] main.tenet.hcl:8:14-8:15: Criterion must be a string: The assert criterion is a CEL expression written as an HCL string, quoted (assert = "...") or as a heredoc (<<EOT); found a number.`,
				`[unknown-attribute] main.tenet.hcl:13:3-13:8: Unsupported argument: An argument named "asert" is not expected here.`,
				`[invalid-value] main.tenet.hcl:11:14-11:22: Invalid severity: The severity "urgent" is not one of low, medium, high, critical.`,
				`[criterion-interpolation] main.tenet.hcl:12:21-12:25: Criterion contains an HCL interpolation: The assert criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`,
				`[invalid-name] main.tenet.hcl:15:11-15:20: Invalid invariant name: "no-send" is not a valid invariant name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "no_send"?`,
				`[duplicate-name] main.tenet.hcl:16:1-16:14: Duplicate invariant "a": An invariant "a" was already declared at main.tenet.hcl:2:1; each invariant needs a distinct name.`,
				`[wrong-value-type] main.tenet.hcl:18:14-18:15: Incorrect attribute value type: Inappropriate value for attribute "severity": a string is required, not number.`,
				`[unused-step] main.tenet.hcl:19:8-19:14: Unused step: Step "read" is not named by its block's match or forbid pattern, so it has no effect. Use it in the pattern, or remove it.`,
				`[unused-step] main.tenet.hcl:20:8-20:14: Unused step: Step "send" is not named by its block's match or forbid pattern, so it has no effect. Use it in the pattern, or remove it.`,
				`[missing-attribute] main.tenet.hcl:17:15-17:15: Missing required argument: An invariant needs assert = "<CEL bool that must hold>", match = "<trace pattern that must match>" or forbid = "<trace pattern that must not match>"; any of them may be combined, and the invariant holds when every one given does.`,
				`[unknown-step] main.tenet.hcl:24:21-24:25: Unknown step: The pattern names "send", which is not a step of invariant "e". Its steps are read.`,
			},
		},
		{
			name: "failure",
			src: `failure "1st" { when = "true" }
failure "f" {
  when = ["x"]
  why  = "x"
}
failure "f" { when = "%{ if x }y%{ endif }" }`,
			want: []string{
				`[invalid-name] main.tenet.hcl:2:9-2:14: Invalid failure name: "1st" is not a valid failure name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "_1st"?`,
				`[unknown-attribute] main.tenet.hcl:5:3-5:6: Unsupported argument: An argument named "why" is not expected here.`,
				`[criterion-not-string] main.tenet.hcl:4:10-4:15: Criterion must be a string: The when criterion is a CEL expression written as an HCL string, quoted (when = "...") or as a heredoc (<<EOT); found a list.`,
				`[criterion-interpolation] main.tenet.hcl:7:23-7:32: Criterion contains an HCL template directive: The when criterion is CEL source text, but HCL would evaluate this %{...} template directive before CEL sees it. Write %%{ for a literal %{.`,
				`[duplicate-name] main.tenet.hcl:7:1-7:12: Duplicate failure "f": A failure "f" was already declared at main.tenet.hcl:3:1; each failure needs a distinct name.`,
			},
		},
		{
			name: "gate",
			src: `gate "release" {
  require    = "metrics.x > 0"
  conditions = "gpt"
}
gate "empty" { require = [] }
gate "elements" {
  require = [
    "metrics.a > 0",
    0.5,
    "metrics.b > ${x}",
    <<-EOT
      metrics.c > 0
    EOT
  ]
  conditions  = ["a", 1]
  description = 42
}
gate "release" { require = ["true"] }
gate "" { require = ["true"] }`,
			want: []string{
				`[wrong-value-type] main.tenet.hcl:3:16-3:31: Incorrect attribute value type: Inappropriate value for attribute "require": a list of CEL expressions written as strings is required, like ["...", "..."]; found a string.`,
				`[wrong-value-type] main.tenet.hcl:4:16-4:21: Incorrect attribute value type: Inappropriate value for attribute "conditions": a list of strings is required, like ["a", "b"].`,
				`[invalid-value] main.tenet.hcl:6:26-6:28: Empty gate: A gate needs at least one requirement: require = ["metrics.<name> <= ...", ...].`,
				`[wrong-value-type] main.tenet.hcl:17:17-17:19: Incorrect attribute value type: Inappropriate value for attribute "description": a string is required, not number.`,
				`[criterion-not-string] main.tenet.hcl:10:5-10:8: Criterion must be a string: Each require criterion is a CEL expression written as an HCL string, quoted (require = ["..."]) or as a heredoc (<<EOT); found a number.`,
				`[criterion-interpolation] main.tenet.hcl:11:18-11:22: Criterion contains an HCL interpolation: The require criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`,
				`[wrong-value-type] main.tenet.hcl:16:23-16:24: Incorrect attribute value type: Inappropriate element in attribute "conditions": a string is required, not number.`,
				`[duplicate-name] main.tenet.hcl:19:1-19:15: Duplicate gate "release": A gate "release" was already declared at main.tenet.hcl:2:1; each gate needs a distinct name.`,
				`[invalid-name] main.tenet.hcl:20:6-20:8: Invalid gate name: A gate name must not be empty.`,
			},
		},
		{
			name: "test",
			src: `test "a" {
  transcript = ""
  record     = 0
  task       = ""
  expect     = { utilty = true, verdict = true, utility = "true", exposed = "unkown" }
}
test "b" {
  transcript = "t.json"
  record     = 1.5
  expect     = {}
}
test "c" {
  transcript = 3
  expect     = [true]
}
test "d" {
  transcript = "t.json"
  sources    = "x"
  expect = {
    utility        = 1
    attack_success = null
    side_effect    = "False"
    violations     = "inv"
    failures       = ["f", 2]
    utility        = false
    "exposed"      = var.x
  }
}
test "a" {
  transcript = "t.json"
  expect     = { utility = true }
}
test "e" {
  transcript = "t.json"
  expect     = "utility"
}`,
			want: []string{
				`[unknown-attribute] main.tenet.hcl:6:18-6:24: Unknown expectation: "utilty" is not a label a test can expect. Did you mean "utility"?`,
				`[unknown-attribute] main.tenet.hcl:6:33-6:40: Unknown expectation: "verdict" is not a label a test can expect. The labels are utility, attack_success, side_effect, exposed, violations and failures.`,
				`[invalid-value] main.tenet.hcl:6:59-6:65: Invalid expectation: expect.utility must be true, false or "unknown", not the string "true". Write true without quotes.`,
				`[invalid-value] main.tenet.hcl:6:77-6:85: Invalid expectation: expect.exposed must be true, false or "unknown", not the string "unkown". Did you mean "unknown"?`,
				`[invalid-value] main.tenet.hcl:3:16-3:18: Empty transcript path: A test names the transcript file it judges, relative to the directory of this file: transcript = "testdata/run.json".`,
				`[invalid-value] main.tenet.hcl:4:16-4:17: Invalid record number: record is the 1-based number of the run among the transcript file's records, so it is at least 1, not 0.`,
				`[invalid-value] main.tenet.hcl:5:16-5:18: Empty task id: task, when given, is the id of a declared task; leave it out to take the task from the transcript record.`,
				`[wrong-value-type] main.tenet.hcl:10:16-10:19: Incorrect attribute value type: Inappropriate value for attribute "record": a whole number is required, not 1.5.`,
				`[invalid-value] main.tenet.hcl:11:16-11:18: Empty expect: A test expects at least one label, like expect = { utility = true }. The labels are utility, attack_success, side_effect, exposed, violations and failures.`,
				`[wrong-value-type] main.tenet.hcl:14:16-14:17: Incorrect attribute value type: Inappropriate value for attribute "transcript": a string is required, not number.`,
				`[wrong-value-type] main.tenet.hcl:15:16-15:22: Incorrect attribute value type: Inappropriate value for attribute "expect": an object of expected labels is required, like { utility = true, violations = [] }; found a list.`,
				`[unknown-attribute] main.tenet.hcl:19:3-19:10: Unsupported argument: An argument named "sources" is not expected here. Did you mean "source"?`,
				`[wrong-value-type] main.tenet.hcl:21:22-21:23: Invalid expectation: expect.utility must be true, false or "unknown", not number.`,
				`[wrong-value-type] main.tenet.hcl:22:22-22:26: Invalid expectation: expect.attack_success must be true, false or "unknown", not null.`,
				`[invalid-value] main.tenet.hcl:23:22-23:29: Invalid expectation: expect.side_effect must be true, false or "unknown", not the string "False". Write false without quotes.`,
				`[wrong-value-type] main.tenet.hcl:24:22-24:27: Incorrect attribute value type: Inappropriate value for attribute "violations": a list of strings is required, like ["a", "b"].`,
				`[wrong-value-type] main.tenet.hcl:25:28-25:29: Incorrect attribute value type: Inappropriate element in attribute "failures": a string is required, not number.`,
				`[duplicate-attribute] main.tenet.hcl:26:5-26:12: Duplicate expectation: The label "utility" is already expected at main.tenet.hcl:21:5.`,
				`[not-constant] main.tenet.hcl:27:22-27:25: Variables not allowed: Variables may not be used here.`,
				`[duplicate-name] main.tenet.hcl:30:1-30:9: Duplicate test "a": A test "a" was already declared at main.tenet.hcl:2:1; each test needs a distinct name.`,
				`[wrong-value-type] main.tenet.hcl:36:16-36:25: Incorrect attribute value type: Inappropriate value for attribute "expect": an object of expected labels is required, like { utility = true, violations = [] }; found a string.`,
			},
		},
		{
			name: "use",
			src: `use "/abs/common" {}
use "../my-lib" {}
use "../var" {}
use ".." {}
use "../x" { as = "my lib" }
use "../y" { as = "let" }
use "../common" {}
use "../other/common" {}
use "" {}
use "../z" {
  as    = 1
  alias = "z"
}`,
			want: []string{
				`[invalid-value] main.tenet.hcl:2:5-2:18: Absolute use path: A use path is relative to the directory of the file holding the use block, so that the contract reads the same wherever it is checked out; write "/abs/common" relative to this file's directory.`,
				`[invalid-name] main.tenet.hcl:3:5-3:16: Invalid use namespace: Without an as attribute, the namespace of a use block is the base name of its path, "my-lib", which is not an identifier, so criteria could not refer to it. Add as = "my_lib".`,
				`[reserved-word] main.tenet.hcl:4:5-4:13: Invalid use namespace: Without an as attribute, the namespace of a use block is the base name of its path, "var", which is reserved by CEL, so criteria could not refer to it. Add as = "var_".`,
				`[invalid-name] main.tenet.hcl:5:5-5:9: Invalid use namespace: Without an as attribute, the namespace of a use block is the base name of its path, "..", which is not an identifier, so criteria could not refer to it. Add as = "name".`,
				`[invalid-name] main.tenet.hcl:6:19-6:27: Invalid use namespace: "my lib" is not a valid use namespace: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "my_lib"?`,
				`[reserved-word] main.tenet.hcl:7:19-7:24: Reserved word: "let" is reserved by CEL, so it cannot be used as a use namespace: a criterion could not refer to it. Use another name, such as "let_".`,
				`[duplicate-name] main.tenet.hcl:9:5-9:22: Duplicate use namespace "common": A use namespace "common" was already declared at main.tenet.hcl:8:5; each use namespace needs a distinct name.`,
				`[invalid-name] main.tenet.hcl:10:5-10:7: Invalid use path: A use path must not be empty.`,
				`[unknown-attribute] main.tenet.hcl:13:3-13:8: Unsupported argument: An argument named "alias" is not expected here.`,
				`[wrong-value-type] main.tenet.hcl:12:11-12:12: Incorrect attribute value type: Inappropriate value for attribute "as": a string is required, not number.`,
			},
		},
		{
			name: "reserved words",
			src: `tool "var" {
  operation = "read"
  params    = { in = string, opts = object({ package = int, ok = bool }) }
}
predicate "let" { expr = "true" }
side_effect "null" { when = "true" }
failure "for" { when = "true" }
invariant "namespace" { assert = "true" }
params {
  const = 1
}
task "if" { utility = "true" }`,
			want: []string{
				`[reserved-word] main.tenet.hcl:2:6-2:11: Reserved word: "var" is reserved by CEL, so it cannot be used as a tool name: a criterion could not refer to it. Use another name, such as "var_".`,
				`[reserved-word] main.tenet.hcl:4:17-4:19: Reserved word: "in" is reserved by CEL, so it cannot be used as a field name: a criterion could not refer to it. Use another name, such as "in_".`,
				`[reserved-word] main.tenet.hcl:4:46-4:53: Reserved word: "package" is reserved by CEL, so it cannot be used as a field name: a criterion could not refer to it. Use another name, such as "package_".`,
				`[reserved-word] main.tenet.hcl:6:11-6:16: Reserved word: "let" is reserved by CEL, so it cannot be used as a predicate name: a criterion could not refer to it. Use another name, such as "let_".`,
				`[reserved-word] main.tenet.hcl:7:13-7:19: Reserved word: "null" is reserved by CEL, so it cannot be used as a side_effect name: a criterion could not refer to it. Use another name, such as "null_".`,
				`[reserved-word] main.tenet.hcl:8:9-8:14: Reserved word: "for" is reserved by CEL, so it cannot be used as a failure name: a criterion could not refer to it. Use another name, such as "for_".`,
				`[reserved-word] main.tenet.hcl:9:11-9:22: Reserved word: "namespace" is reserved by CEL, so it cannot be used as an invariant name: a criterion could not refer to it. Use another name, such as "namespace_".`,
				`[reserved-word] main.tenet.hcl:11:3-11:8: Reserved word: "const" is reserved by CEL, so it cannot be used as a param name: a criterion could not refer to it. Use another name, such as "const_".`,
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
