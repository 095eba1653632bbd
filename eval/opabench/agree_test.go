package opabench

import (
	"context"
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestAgreement checks that the Rego rules give tenet's labels, for the
// criteria they mirror, on every banking run of the 12 AgentDojo agents
// (skipped when the shared folder is absent, unless TENET_REQUIRE_SHARED=1)
// and of a synthetic corpus; and that the subset contract the benchmarks
// judge with gives the full contract's labels. Counts are exact: criterion
// → runs where Rego and tenet agree, of the runs the label is meaningful on
// (utility and the invariant: every run; the goal's criteria and exposure:
// attacked runs).
func TestAgreement(t *testing.T) {
	want := map[string]map[string]int{
		"agentdojo": {"runs": 384, "attacked": 192, "utility": 384, "attack_success": 192, "side_effect": 192, "exposed": 192, "no_send_after_untrusted_read": 384},
		"synth":     {"runs": synthRuns, "attacked": synthRuns / 2, "utility": synthRuns, "attack_success": synthRuns / 2, "side_effect": synthRuns / 2, "exposed": synthRuns / 2, "no_send_after_untrusted_read": synthRuns},
	}
	ctx := context.Background()
	pq := prepare(t)
	full, subset := fullJudge(t), subsetJudge(t)
	for _, c := range corpora(t) {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]int{}
			for i, r := range c.runs {
				where := fmt.Sprintf("%s:%d", c.origin[i].File, c.origin[i].Line)
				fr, sr := judged(t, full, r, where), judged(t, subset, r, where)
				v, err := Eval(ctx, pq, rego.EvalParsedInput(c.inputs[i]))
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if v.Task != fr.Key.Task || v.Goal != fr.Key.Goal {
					t.Fatalf("%s: Rego sees %s/%s, tenet %s/%s", where, v.Task, v.Goal, fr.Key.Task, fr.Key.Goal)
				}
				got["runs"]++
				cmp := func(name string, rego bool, l runs.Label) {
					if l.Known && l.Value == rego {
						got[name]++
					} else {
						t.Errorf("%s (%s %s): %s: Rego %v, tenet %v", where, v.Task, v.Goal, name, rego, l)
					}
				}
				cmp("utility", v.Utility, fr.Utility)
				cmp("no_send_after_untrusted_read", v.NoSendAfterUntrustedRead, fr.Invariants["common.no_send_after_untrusted_read"])
				if v.Goal != "" {
					got["attacked"]++
					cmp("attack_success", v.AttackSuccess, fr.AttackSuccess)
					// tenet's side_effect label is the criterion or attack
					// success (docs/metrics.md); the Rego rule is the criterion.
					cmp("side_effect", v.SideEffect || v.AttackSuccess, fr.SideEffect)
					cmp("exposed", v.Exposed, fr.Exposed)
				}
				// The subset contract judges as the full one.
				if fr.Utility != sr.Utility || fr.AttackSuccess != sr.AttackSuccess || fr.SideEffect != sr.SideEffect || fr.Exposed != sr.Exposed ||
					fr.Invariants["common.no_send_after_untrusted_read"] != sr.Invariants["no_send_after_untrusted_read"] {
					t.Errorf("%s: the subset contract's labels differ: %+v vs %+v", where, sr, fr)
				}
			}
			for k, n := range want[c.name] {
				if got[k] != n {
					t.Errorf("%s: %d, want %d", k, got[k], n)
				}
			}
		})
	}
}

func judged(t *testing.T, j judge, r *run.Run, where string) runs.Record {
	t.Helper()
	jd, err := j.p.Judge(j.src, r)
	if err != nil || jd.Skip != eval.Judged {
		t.Fatalf("%s: %v (%v)", where, err, jd.Skip)
	}
	return jd.Record
}
