package agentdojo_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestRunFilesConformance judges AgentDojo's own run files
// (../shared/agentdojo/runs, 9,036 files: every security case of the four
// suites for 12 systems, read by the agentdojo-run reader through the
// contracts' format-auto source) with every goal declared, and pins each
// suite's agreement with AgentDojo's labels, label by label: agreeing,
// unknown (never guessed) and disagreeing — and names every disagreement,
// each a run whose successful attempt AgentDojo did not log (a hidden
// retry: facts/native-runs.md §6). The injection tasks run as user tasks
// (<system>/<suite>/injection_task_N/none/none.json) are judged too, as
// goal tasks (the contracts' goal_tasks block), and their utility agrees
// with AgentDojo's `utility` on them (the injection task's security check)
// row goal_task_utility; nothing is set aside. From the same
// judgements it writes the run-files section of docs/conformance.md
// (runFilesReport; -update rewrites it).
func TestRunFilesConformance(t *testing.T) {
	testtier.Heavy(t, "judges AgentDojo's 9,036 run files (about 20 s)")
	dir := filepath.Join(shared.Dir(t), "agentdojo", "runs")
	list, err := inputs.Expand([]string{dir}, inputs.Options{}) // the directory walked as tenet eval walks it
	if err != nil {
		t.Fatal(err)
	}
	defer list.Close()
	if len(list.Files) != 9036 {
		t.Fatalf("%d run files, want 9,036", len(list.Files))
	}
	var judged []suiteRuns // for the report: each suite is judged once
	for _, tc := range []struct {
		suite             string
		judged, goalTasks int
		counts            string // label: agree/unknown/disagree
		disagreements     []string
	}{
		{"banking", 2028, 108, "benign_utility 192/0/0 utility_under_attack 1728/0/0 attack_success 1727/0/1 goal_task_utility 108/0/0",
			[]string{"gemini-1.5-flash-001/banking/user_task_14/important_instructions/injection_task_2.json"}},
		{"slack", 1572, 60, "benign_utility 252/0/0 utility_under_attack 1260/0/0 attack_success 1259/0/1 goal_task_utility 60/0/0",
			[]string{"gemini-1.5-flash-002/slack/user_task_13/important_instructions/injection_task_4.json"}},
		{"travel", 2004, 84, "benign_utility 240/0/0 utility_under_attack 1680/0/0 attack_success 1680/0/0 goal_task_utility 84/0/0", nil},
		{"workspace", 3432, 72, "benign_utility 480/0/0 utility_under_attack 2673/207/0 attack_success 2662/218/0 goal_task_utility 72/0/0", nil},
	} {
		t.Run(tc.suite, func(t *testing.T) {
			p := evaltest.Program(t, tc.suite)
			res, err := pipeline.EvalFiles(p, list.Files, pipeline.Options{})
			if err != nil {
				t.Fatal(err)
			}
			judged = append(judged, suiteRuns{tc.suite, p, res})
			if len(res.Errors) > 0 {
				t.Fatalf("bad records: %v", res.Errors[:min(len(res.Errors), 3)])
			}
			if got := len(res.Records); got != tc.judged {
				t.Errorf("judged %d runs, want %d", got, tc.judged)
			}
			goalTasks := 0
			for _, r := range res.Records {
				if r.GoalTask {
					goalTasks++
				}
			}
			aside := 0
			for _, n := range res.Skipped {
				aside += n
			}
			if goalTasks != tc.goalTasks || aside != res.Skipped[eval.NotSelected] || aside != 9036-tc.judged {
				t.Errorf("%d goal-task runs, want %d; set aside %v, want only %d of other suites", goalTasks, tc.goalTasks, res.Skipped, 9036-tc.judged)
			}
			sums := map[string][3]int{}
			var disagree []string
			for _, a := range tally.Agree(res.Records) {
				for _, row := range a.Rows() {
					s := sums[row.Label]
					s[0] += row.Agree
					s[1] += row.OursUnknown
					s[2] += row.Disagree
					sums[row.Label] = s
					for _, d := range row.Disagreements {
						rel, _ := filepath.Rel(dir, d.OriginFile)
						disagree = append(disagree, filepath.ToSlash(rel))
					}
				}
			}
			var got []string
			for _, l := range []string{"benign_utility", "utility_under_attack", "attack_success", "goal_task_utility"} {
				s := sums[l]
				got = append(got, fmt.Sprintf("%s %d/%d/%d", l, s[0], s[1], s[2]))
			}
			if g := strings.Join(got, " "); g != tc.counts {
				t.Errorf("agreement (agree/unknown/disagree)\n got %s\nwant %s", g, tc.counts)
			}
			slices.Sort(disagree)
			if !slices.Equal(disagree, tc.disagreements) {
				t.Errorf("disagreements %q, want %q", disagree, tc.disagreements)
			}
		})
	}
	if len(judged) < len(suites) { // -run picked some suites only
		t.Logf("the report needs every suite; %d judged", len(judged))
		return
	}
	runFilesReport(t, dir, list.Files, judged)
}
