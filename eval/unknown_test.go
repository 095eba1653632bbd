package eval

import (
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
)

// unknownContract calls stdlib's unknown(reason) in criteria, in a
// predicate read through another (per run and, for the const_* ones,
// constant), and next to an ordinary error for comparison. Its lines are
// numbered so the reasons' locations can be checked.
const unknownContract = `contract "c" {}
threat_model {}
predicate "why" { expr = "'no transcript tells ' + 'the versions apart'" }
predicate "versions" { expr = "size(events) > 0 ? unknown(pred.why) : ['v1']" }
predicate "rank" { expr = "pred.versions.map(v, 1)" }
predicate "top" { expr = "size(pred.rank) > 0" }
predicate "const_base" { expr = "unknown('constant reason')" }
predicate "const_dep" { expr = "pred.const_base == 1" }
predicate "missing" { expr = "size(events) > 0 ? {'a': 1}['b'] : 0" }
predicate "reads_missing" { expr = "pred.missing == 1" }
task "direct" { utility = "unknown('the texts contradict each other')" }
task "chain" { utility = "pred.top" }
task "false_or" { utility = "false || unknown('r')" }
task "true_or" { utility = "true || unknown('r')" }
task "false_and" { utility = "false && unknown('r')" }
task "true_and" { utility = "true && unknown('r')" }
task "ternary" { utility = "size(events) > 100 ? unknown('too long: ' + string(size(events))) : false" }
task "computed" { utility = "size(events) > 0 ? unknown('a run of ' + string(size(events)) + ' events') : true" }
task "constant" { utility = "pred.const_dep" }
task "ordinary" { utility = "pred.reads_missing" }
goal "g" {
  summary = "g"
  success = "calls.exists(c, c.tool == 'send') || unknown('never reached')"
}
goal "h" {
  summary = "h"
  success = "calls.exists(c, c.tool == 'delete') || unknown('whether anything was deleted cannot be told')"
}
cases {
  tasks = ["direct"]
  goals = ["*"]
}
`

// TestUnknownFunction: unknown(reason) makes a utility or success label
// unknown, never false, with the reason worded as docs/stdlib.md says: the
// criterion and its location, then the reason — after "predicate NAME: "
// when predicate NAME called it, however many predicates read it on the
// way (an ordinary error keeps its chain of predicates). CEL's error rules
// decide || and &&: true || unknown(..) is true, false && unknown(..) false.
func TestUnknownFunction(t *testing.T) {
	p := compileProgram(t, unknownContract)
	r := syntheticRun(6) // 6 events: a user message, a read and a send with their results, a final answer
	where := func(kind, owner string, line, col int) string {
		return kind + " of " + owner + " (c.tenet.hcl:" + itoa(line) + ":" + itoa(col) + "): "
	}
	for _, tc := range []struct {
		task, goal string
		utility    runs.Label
		success    *runs.Label
	}{
		{task: "direct", utility: runs.Unknown(where("utility", "task direct", 11, 27) + "the texts contradict each other")},
		{task: "chain", utility: runs.Unknown(where("utility", "task chain", 12, 26) + "predicate versions: no transcript tells the versions apart")},
		{task: "false_or", utility: runs.Unknown(where("utility", "task false_or", 13, 29) + "r")},
		{task: "true_or", utility: runs.True()},
		{task: "false_and", utility: runs.False()},
		{task: "true_and", utility: runs.Unknown(where("utility", "task true_and", 16, 29) + "r")},
		{task: "ternary", utility: runs.False()},
		{task: "computed", utility: runs.Unknown(where("utility", "task computed", 18, 29) + "a run of 6 events")},
		{task: "constant", utility: runs.Unknown(where("utility", "task constant", 19, 29) + "predicate const_base: constant reason")},
		{task: "ordinary", utility: runs.Unknown(where("utility", "task ordinary", 20, 29) + "predicate reads_missing: predicate missing: no such key: b")},
		{task: "direct", goal: "g", utility: runs.Unknown(where("utility", "task direct", 11, 27) + "the texts contradict each other"), success: ptr(runs.True())},
		{task: "direct", goal: "h", utility: runs.Unknown(where("utility", "task direct", 11, 27) + "the texts contradict each other"),
			success: ptr(runs.Unknown(where("success", "goal h", 27, 13) + "whether anything was deleted cannot be told"))},
	} {
		for _, consts := range []bool{true, false} {
			q := p
			if !consts {
				// Every predicate evaluated per run: the reasons are the same.
				var err error
				if q, err = Plan(p.Bundle, p.ID); err != nil {
					t.Fatal(err)
				}
				q.constPreds = nil
			}
			j, err := q.JudgeAs(&bundle.SourcePlan{}, r, &Override{Task: tc.task, Goal: tc.goal})
			if err != nil {
				t.Fatal(err)
			}
			if j.Skip != Judged {
				t.Fatalf("%s/%s: skipped: %v", tc.task, tc.goal, j.Skip)
			}
			if got := j.Record.Utility; got != tc.utility {
				t.Errorf("%s/%s (constants %v): utility %v %q, want %v %q", tc.task, tc.goal, consts, got, got.Reason, tc.utility, tc.utility.Reason)
			}
			if tc.success != nil && j.Record.AttackSuccess != *tc.success {
				t.Errorf("%s/%s (constants %v): attack_success %v %q, want %v %q", tc.task, tc.goal, consts, j.Record.AttackSuccess, j.Record.AttackSuccess.Reason, *tc.success, tc.success.Reason)
			}
		}
	}
	if len(p.constPreds) != 3 {
		t.Errorf("%d constant predicates, want 3 (why, const_base, const_dep): the constant path is not tested", len(p.constPreds))
	}
}

func ptr(l runs.Label) *runs.Label { return &l }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
