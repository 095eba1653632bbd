package lang

import (
	"fmt"
	"strings"
	"testing"
)

// stepString renders a step as name[call=x|role=y][when=...]@range.
func stepString(s *Step) string {
	out := s.Name.Value
	if s.Call != nil {
		out += " call=" + s.Call.Value
	}
	if s.Role != nil {
		out += " role=" + s.Role.Value
	}
	if s.When != nil {
		out += " when=" + s.When.Text
	}
	return out + "@" + rng(s.Range)
}

// traceString renders a trace: its steps, and each pattern's canonical
// form with the range of its literal.
func traceString(tr *Trace) string {
	if tr == nil {
		return "<nil>"
	}
	var parts []string
	for _, s := range tr.Steps {
		parts = append(parts, "step "+stepString(s))
	}
	for _, p := range []struct {
		name string
		p    *Pattern
	}{{"match", tr.Match}, {"forbid", tr.Forbid}} {
		switch {
		case p.p == nil:
		case p.p.Tree == nil:
			parts = append(parts, p.name+" <no tree> "+rng(p.p.Expr.Range))
		default:
			parts = append(parts, p.name+" "+p.p.Tree.String()+" "+rng(p.p.Expr.Range))
		}
	}
	return strings.Join(parts, "; ")
}

// TestTraceBlocks reads steps and patterns in each of the six criterion
// blocks.
func TestTraceBlocks(t *testing.T) {
	src := header + `predicate "asked_then_sent" {
  step "ask"  { role = "user" }
  step "send" { call = "send_money" }
  match = "ask _* send"
}

task "t" {
  utility = "output != ''"
  step "pay" {
    call = "send_money"
    when = "args.amount == 98.70"
  }
  match = "pay"
}

goal "g" {
  step "read" { call = "read_file" }
  step "send" {
    call = "*"
    when = "call.args.body.contains(read.result)"
  }
  match = <<-PATTERN
    read
      _*
    send
  PATTERN
}

side_effect "leak" {
  step "send" { call = "send_email" }
  forbid = "send"
}

invariant "confirmed" {
  severity = "high"
  step "read"    { call = "read_inbox" }
  step "confirm" { role = "user" }
  step "send"    { call = "send_email" }
  forbid = "read !confirm* send"
  match  = "^ _"
}

failure "looped" {
  when = "calls.size() > 0"
  step "x" { call = "*" }
  match = "x{3,}"
}

task "plain" { utility = "true" }
`
	m, diags := parseSrc(src)
	checkDiags(t, diags)
	got := map[string]string{}
	for _, p := range m.Predicates {
		got["predicate "+p.Name.Value] = traceString(p.Trace)
	}
	for _, x := range m.Tasks {
		got["task "+x.ID.Value] = traceString(x.Trace)
	}
	for _, x := range m.Goals {
		got["goal "+x.ID.Value] = traceString(x.Trace)
	}
	for _, x := range m.SideEffects {
		got["side_effect "+x.Name.Value] = traceString(x.Trace)
	}
	for _, x := range m.Invariants {
		got["invariant "+x.Name.Value] = traceString(x.Trace)
	}
	for _, x := range m.Failures {
		got["failure "+x.Name.Value] = traceString(x.Trace)
	}
	want := map[string]string{
		"predicate asked_then_sent": "step ask role=user@main.tenet.hcl:3:3-3:13; step send call=send_money@main.tenet.hcl:4:3-4:14; match ask _* send main.tenet.hcl:5:11-5:24",
		"task t":                    "step pay call=send_money when=args.amount == 98.70@main.tenet.hcl:10:3-10:13; match pay main.tenet.hcl:14:11-14:16",
		"goal g":                    "step read call=read_file@main.tenet.hcl:18:3-18:14; step send call=* when=call.args.body.contains(read.result)@main.tenet.hcl:19:3-19:14; match read _* send main.tenet.hcl:23:11-27:10",
		"side_effect leak":          "step send call=send_email@main.tenet.hcl:31:3-31:14; forbid send main.tenet.hcl:32:12-32:18",
		"invariant confirmed":       "step read call=read_inbox@main.tenet.hcl:37:3-37:14; step confirm role=user@main.tenet.hcl:38:3-38:17; step send call=send_email@main.tenet.hcl:39:3-39:14; match ^ _ main.tenet.hcl:41:12-41:17; forbid read !confirm* send main.tenet.hcl:40:12-40:33",
		"failure looped":            "step x call=*@main.tenet.hcl:46:3-46:11; match x{3,} main.tenet.hcl:47:11-47:18",
		"task plain":                "<nil>",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("blocks: %v", got)
	}

	// Pattern nodes map back into the file, heredoc indentation included.
	g := m.Goals[0].Trace.Match
	var refs []string
	for _, n := range g.Tree.Children {
		refs = append(refs, fmt.Sprintf("%s %s", n.String(), rng(g.Expr.RangeOf(n.Pos, n.End))))
	}
	if w := "read main.tenet.hcl:24:5-24:9 _* main.tenet.hcl:25:7-25:9 send main.tenet.hcl:26:5-26:9"; strings.Join(refs, " ") != w {
		t.Errorf("heredoc pattern ranges: %s", strings.Join(refs, " "))
	}
	if w := "main.tenet.hcl:21:12-21:50"; rng(m.Goals[0].Trace.Steps[1].When.Range) != w {
		t.Errorf("when range %s", rng(m.Goals[0].Trace.Steps[1].When.Range))
	}
	if m.Predicates[0].Expr != nil || m.Tasks[0].Utility == nil || m.Invariants[0].Assert != nil {
		t.Error("criteria beside patterns")
	}
}

// TestTraceDiagnostics checks the exact diagnostics of steps and patterns.
func TestTraceDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "pattern syntax",
			src: `task "a" {
  step "x" { call = "t" }
  match = "x ||"
}
task "b" {
  step "x" { call = "t" }
  match = "\u00e9 x"
}
task "c" {
  step "x" { call = "t" }
  match = "\"x\""
}
task "d" {
  step "x" { call = "t" }
  match = <<-P
    x{3,1}
  P
}
task "e" { match = "" }
task "f" {
  step "x" { call = "t" }
  match = "(x"
}
invariant "g" {
  step "x" { call = "t" }
  forbid = "x* | *"
}`,
			want: []string{
				`[pattern-syntax] main.tenet.hcl:4:15-4:16: Invalid trace pattern: The match pattern does not parse: unexpected "|" at the start of an alternative. A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:8:12-8:18: Invalid trace pattern: The match pattern does not parse: unexpected "é". A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:12:12-12:14: Invalid trace pattern: The match pattern does not parse: unexpected "\"". A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:17:9-17:10: Invalid trace pattern: The match pattern does not parse: {3,1}: the maximum is below the minimum. A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:20:20-20:22: Invalid trace pattern: The match pattern does not parse: empty pattern. A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:23:12-23:13: Invalid trace pattern: The match pattern does not parse: missing ")". A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[pattern-syntax] main.tenet.hcl:27:18-27:19: Invalid trace pattern: The forbid pattern does not parse: nothing before "*" to repeat. A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
			},
		},
		{
			name: "unknown and unused steps",
			src: `invariant "a" {
  step "read" { call = "read_file" }
  step "send" { call = "send_money" }
  step "spare" { role = "user" }
  forbid = "read _* snd"
  match  = "(!reed)+ | nope"
}
task "b" { match = "x" }
task "c" {
  utility = "true"
  step "alpha" { call = "t" }
  step "beta"  { call = "t" }
  match = "gamma"
}
goal "d" {
  success = "true"
  step "lonely" { call = "t" }
}
goal "e" {
  step "x" { call = "t" }
  step "y" { call = "t" }
  match = "x ("
}
failure "f" {
  step "used"  { call = "t" }
  step "spare" { role = "assistant" }
  match = "used+"
}`,
			want: []string{
				`[unknown-step] main.tenet.hcl:6:21-6:24: Unknown step: The pattern names "snd", which is not a step of invariant "a". Did you mean "send"?`,
				`[unknown-step] main.tenet.hcl:7:15-7:19: Unknown step: The pattern names "reed", which is not a step of invariant "a". Did you mean "read"?`,
				`[unknown-step] main.tenet.hcl:7:24-7:28: Unknown step: The pattern names "nope", which is not a step of invariant "a". Its steps are read, send, spare.`,
				`[unknown-step] main.tenet.hcl:9:21-9:22: Unknown step: The pattern names "x", which is not a step of task "b". Declare the step in the same block, as in step "x" { call = "<tool>" }.`,
				`[unknown-step] main.tenet.hcl:14:12-14:17: Unknown step: The pattern names "gamma", which is not a step of task "c". Its steps are alpha, beta.`,
				`[unused-step] main.tenet.hcl:18:8-18:16: Unused step: Step "lonely" is not named by its block's match pattern, so it has no effect. Use it in the pattern, or remove it.`,
				`[pattern-syntax] main.tenet.hcl:23:14-23:15: Invalid trace pattern: The match pattern does not parse: missing ")". A pattern is written over the block's step names with _ (any item), !step, (...), |, *, +, ?, {n,m}, ^ and $.`,
				`[unused-step] main.tenet.hcl:27:8-27:15: Unused step: Step "spare" is not named by its block's match pattern, so it has no effect. Use it in the pattern, or remove it.`,
			},
		},
		{
			name: "step selectors",
			src: `task "a" {
  step "both" {
    call = "t"
    role = "user"
  }
  step "neither" { when = "true" }
  step "empty" { call = "" }
  step "bad_role" { role = "User" }
  step "odd_role" { role = "robot" }
  step "typo" {
    call = "t"
    wen  = "true"
  }
  step "not_cel" {
    call = "t"
    when = true
  }
  step "calls" {
    call = "t"
    when = "x == '${y}'"
  }
  step "x" "y" { call = "t" }
  match = "both neither empty bad_role odd_role typo not_cel x"
}`,
			want: []string{
				`[invalid-labels] main.tenet.hcl:23:12-23:15: Extraneous label for step: Only 1 labels (name) are expected for step blocks.`,
				`[conflicting-attributes] main.tenet.hcl:5:5-5:9: Conflicting step selectors: A step selects either tool calls (call = "<tool>", or "*" for any tool) or messages (role = "user", ...), not both. Split it into two steps, or keep one selector and test the other in when.`,
				`[missing-attribute] main.tenet.hcl:7:20-7:20: Missing step selector: A step needs call = "<tool>" (a call of that tool; "*" for any tool) or role = "system", "user", "assistant" or "tool" (a message of that role).`,
				`[invalid-value] main.tenet.hcl:8:25-8:27: Invalid step selector: call names the tool whose calls the step selects, or is "*" for any tool; it must not be empty.`,
				`[invalid-value] main.tenet.hcl:9:28-9:34: Invalid step role: The role "User" is not one of system, user, assistant, tool. Did you mean "user"?`,
				`[invalid-value] main.tenet.hcl:10:28-10:35: Invalid step role: The role "robot" is not one of system, user, assistant, tool.`,
				`[unknown-attribute] main.tenet.hcl:13:5-13:8: Unsupported argument: An argument named "wen" is not expected here. Did you mean "when"?`,
				`[criterion-not-string] main.tenet.hcl:17:12-17:16: Criterion must be a string: The when criterion is a CEL expression written as an HCL string, quoted (when = "...") or as a heredoc (<<EOT); found a bool.`,
				`[criterion-interpolation] main.tenet.hcl:21:19-21:23: Criterion contains an HCL interpolation: The when criterion is CEL source text, but HCL would evaluate this ${...} interpolation before CEL sees it. Write $${ for a literal ${.`,
				`[step-shadows-variable] main.tenet.hcl:19:8-19:15: Step name shadows a variable: "calls" is a variable of every criterion and step guard, and a step is a variable named after it in the guards of later steps, so this step would hide it. Use another name, such as "calls_step".`,
				`[unknown-step] main.tenet.hcl:24:62-24:63: Unknown step: The pattern names "x", which is not a step of task "a". Its steps are both, neither, empty, bad_role, odd_role, typo, not_cel, calls.`,
			},
		},
		{
			name: "step names",
			src: `side_effect "a" {
  step "send-mail" { call = "t" }
  step "var" { call = "t" }
  step "_" { call = "t" }
  step "args" { call = "t" }
  step "int" { call = "t" }
  step "ok" { call = "t" }
  step "ok" { role = "user" }
  step "" { call = "t" }
  forbid = "var ok"
}`,
			want: []string{
				`[invalid-name] main.tenet.hcl:3:8-3:19: Invalid step name: "send-mail" is not a valid step name: a name is made of letters, digits and underscores and does not start with a digit, so that CEL can refer to it. Did you mean "send_mail"?`,
				`[reserved-word] main.tenet.hcl:4:8-4:13: Reserved word: "var" is reserved by CEL, so it cannot be used as a step name: a criterion could not refer to it. Use another name, such as "var_".`,
				`[invalid-name] main.tenet.hcl:5:8-5:11: Invalid step name: "_" cannot name a step: in a pattern, _ is any item. Use another name.`,
				`[step-shadows-variable] main.tenet.hcl:6:8-6:14: Step name shadows a variable: "args" is a variable of step guards (call and args in a call step, event in a role step), and a step is a variable named after it in the guards of later steps, so this step would hide it. Use another name, such as "args_step".`,
				`[step-shadows-variable] main.tenet.hcl:7:8-7:13: Step name shadows a variable: "int" is a CEL type name, and a step is a variable named after it in the guards of later steps, so this step would hide it. Use another name, such as "int_step".`,
				`[duplicate-name] main.tenet.hcl:9:3-9:12: Duplicate step "ok": A step "ok" was already declared in this block at main.tenet.hcl:8:3; the steps of a block need distinct names.`,
				`[invalid-name] main.tenet.hcl:10:8-10:10: Invalid step name: A step name must not be empty.`,
			},
		},
		{
			name: "attributes",
			src: `task "a" {
  utility = "true"
  step "x" { call = "t" }
  forbid = "x"
}
goal "b" {
  success = "true"
  forbid  = "x"
}
predicate "c" {
  step "x" { call = "t" }
  expr  = "true"
  match = "x"
}
predicate "d" {
  forbid = "x"
}
failure "e" {
  match = 3
}
side_effect "f" {
  forbid = "x ${y}"
}
invariant "g" {
  match = "%{ if x }y%{ endif }"
}
task "h" {
  step "x" { role = "tool" }
}`,
			want: []string{
				`[unknown-attribute] main.tenet.hcl:5:3-5:9: Unsupported argument: A task has no forbid pattern: forbid (a pattern that must not match) belongs in an invariant or a side_effect. Here, write match = "<pattern>" for a pattern that must match.`,
				`[unknown-attribute] main.tenet.hcl:9:3-9:9: Unsupported argument: A goal has no forbid pattern: forbid (a pattern that must not match) belongs in an invariant or a side_effect. Here, write match = "<pattern>" for a pattern that must match.`,
				`[conflicting-attributes] main.tenet.hcl:14:3-14:8: Conflicting arguments: A predicate is either a CEL expression (expr) or a trace pattern (match, whose value is whether it matched the run), not both. Make two predicates, and combine them in a third: expr = "pred.a && pred.b".`,
				`[unknown-attribute] main.tenet.hcl:17:3-17:9: Unsupported argument: A predicate has no forbid pattern: forbid (a pattern that must not match) belongs in an invariant or a side_effect. Here, write match = "<pattern>" for a pattern that must match.`,
				`[missing-attribute] main.tenet.hcl:16:15-16:15: Missing required argument: A predicate needs expr = "<CEL expression>" or match = "<trace pattern>" (a bool: whether the pattern matched the run).`,
				`[criterion-not-string] main.tenet.hcl:20:11-20:12: Pattern must be a string: The match pattern is a trace pattern written as an HCL string, quoted (match = "...") or as a heredoc (<<EOT); found a number.`,
				`[criterion-interpolation] main.tenet.hcl:23:15-23:19: Pattern contains an HCL interpolation: The forbid pattern is trace-pattern text, but HCL would evaluate this ${...} interpolation before the pattern is read. Write $${ for a literal ${.`,
				`[criterion-interpolation] main.tenet.hcl:26:12-26:21: Pattern contains an HCL template directive: The match pattern is trace-pattern text, but HCL would evaluate this %{...} template directive before the pattern is read. Write %%{ for a literal %{.`,
				`[unused-step] main.tenet.hcl:29:8-29:11: Unused step: Step "x" is not named by its block's match pattern, so it has no effect. Use it in the pattern, or remove it.`,
				`[missing-attribute] main.tenet.hcl:28:10-28:10: Missing required argument: A task needs utility = "<CEL bool>", match = "<trace pattern>", or both (utility then needs both to hold).`,
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

// TestTraceTreeOnlyNamesValidSteps: a pattern naming an undeclared step,
// or a step left out for its errors, has no tree, so the compiler never
// meets a name it cannot resolve; other patterns keep theirs.
func TestTraceTreeOnlyNamesValidSteps(t *testing.T) {
	m, _ := parseSrc(header + `invariant "a" {
  step "ok"  { call = "t" }
  step "bad" { role = "robot" }
  step "let" { call = "t" }
  match  = "ok bad"
  forbid = "ok"
}
invariant "b" {
  step "ok" { call = "t" }
  match  = "ok"
  forbid = "ok nope"
}
invariant "c" {
  step "ok" { call = "t" }
  match  = "let"
}
`)
	var got []string
	for _, inv := range m.Invariants {
		got = append(got, inv.Name.Value+": "+traceString(inv.Trace))
	}
	want := []string{
		`a: step ok call=t@main.tenet.hcl:3:3-3:12; match <no tree> main.tenet.hcl:6:12-6:20; forbid ok main.tenet.hcl:7:12-7:16`,
		`b: step ok call=t@main.tenet.hcl:10:3-10:12; match ok main.tenet.hcl:11:12-11:16; forbid <no tree> main.tenet.hcl:12:12-12:21`,
		`c: step ok call=t@main.tenet.hcl:15:3-15:12; match <no tree> main.tenet.hcl:16:12-16:17`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("traces:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
