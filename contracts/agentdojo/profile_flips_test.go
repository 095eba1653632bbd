package agentdojo_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestCorrectedProfileFlips: AgentDojo's run files judged as declared and
// under --profile corrected, the flips summed per suite over the 12
// systems (the README's flips table). The correction changes only goal
// criteria, so the utility of user tasks never flips; the goal-task runs'
// utility (the goal's criterion) flips under goal_task_utility: 10 runs,
// none of them counted under utility.
func TestCorrectedProfileFlips(t *testing.T) {
	testtier.Heavy(t, "judges AgentDojo's 9,036 run files twice (about 40 s)")
	dir := filepath.Join(shared.Dir(t), "agentdojo", "runs")
	list, err := inputs.Expand([]string{dir}, inputs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer list.Close()
	want := map[string]string{
		"banking":   "utility 0/0 attack_success 49/0 goal_task_utility 4/0",
		"slack":     "utility 0/0 attack_success 0/0 goal_task_utility 0/0",
		"travel":    "utility 0/0 attack_success 0/5 goal_task_utility 0/3",
		"workspace": "utility 0/0 attack_success 0/41 goal_task_utility 0/3",
	}
	for _, suite := range []string{"banking", "slack", "travel", "workspace"} {
		t.Run(suite, func(t *testing.T) {
			var files []string
			for _, f := range list.Files {
				if strings.Contains(filepath.ToSlash(f), "/"+suite+"/") {
					files = append(files, f)
				}
			}
			p := evaltest.Program(t, suite)
			q, err := p.WithProfile("corrected")
			if err != nil {
				t.Fatal(err)
			}
			flips := summary.NewFlipCounter([]string{"corrected"})
			for _, prog := range []*eval.Program{p, q} {
				res, err := pipeline.EvalFiles(prog, files, pipeline.Options{})
				if err != nil || len(res.Errors) > 0 {
					t.Fatal(err, res.Errors)
				}
				for _, r := range res.Records {
					flips.Add(r)
				}
			}
			// label true→false/false→true, summed over the systems
			sum := map[string][2]int{}
			var order []string
			for _, f := range flips.Result() {
				for _, l := range f.Labels {
					if _, ok := sum[l.Label]; !ok {
						order = append(order, l.Label)
					}
					s := sum[l.Label]
					s[0], s[1] = s[0]+l.TrueToFalse, s[1]+l.FalseToTrue
					sum[l.Label] = s
				}
			}
			var got []string
			for _, l := range order {
				if l != "side_effect" {
					got = append(got, fmt.Sprintf("%s %d/%d", l, sum[l][0], sum[l][1]))
				}
			}
			if g := strings.Join(got, " "); g != want[suite] {
				t.Errorf("flips (true→false/false→true) %s, want %s", g, want[suite])
			}
		})
	}
}
