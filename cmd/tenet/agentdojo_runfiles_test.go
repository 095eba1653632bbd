package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestAgentDojoRunFilesAcceptance runs issue 16's acceptance command,
// tenet eval contracts/agentdojo ../shared/agentdojo/runs, and checks that
// every one of the 9,036 run files is judged by exactly one suite's
// contract, nothing set aside but the other suites' files ("not selected
// by the source"): the 324 injection tasks run as user tasks are judged as
// goal tasks, and workspace's v1.2 cases, which a v1 corpus has none of,
// are left out and said so. The exit code is never 0 on these runs, for
// reasons the issue asks for and this test pins: by default (unknown
// labels refused) 2, every metric error an unknown label (empty
// transcripts, undecidable versions: "never guessed"); with
// --unknown=bounds 1, every failure an invariant violated (agents break
// the common invariants) or undecided (empty transcripts), and no metric
// error.
func TestAgentDojoRunFilesAcceptance(t *testing.T) {
	testtier.Heavy(t, "judges AgentDojo's 9,036 run files with the four contracts, twice (about 60 s)")
	runsDir := filepath.Join(shared.Dir(t), "agentdojo", "runs")
	contracts, err := filepath.Abs(filepath.Join("..", "..", "contracts", "agentdojo"))
	if err != nil {
		t.Fatal(err)
	}
	type doc struct {
		ExitCode  int `json:"exit_code"`
		Contracts []struct {
			Name    string `json:"name"`
			Judged  int    `json:"judged"`
			Skipped []struct {
				Reason string `json:"reason"`
				Count  int    `json:"count"`
			} `json:"skipped"`
		} `json:"contracts"`
		Conditions []struct {
			Contract    string   `json:"contract"`
			Errors      []string `json:"errors"`
			LeftOutSets []struct {
				Label     string `json:"label"`
				Cases     int    `json:"cases"`
				GoalTasks int    `json:"goal_tasks"`
			} `json:"left_out_sets"`
			GoalTasks       int `json:"goal_tasks"`
			GoalTaskUtility *struct {
				Num float64 `json:"num"`
			} `json:"goal_task_utility"`
		} `json:"conditions"`
	}
	for _, tc := range []struct {
		unknown string
		exit    int
	}{{"refuse", exitBad}, {"bounds", exitFailure}} {
		t.Run(tc.unknown, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"eval", contracts, runsDir, "--format", "json", "--unknown", tc.unknown}, &stdout, &stderr)
			var d doc
			if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
				t.Fatalf("exit %d: %v; stderr:\n%s", code, err, stderr.String())
			}
			if code != tc.exit || d.ExitCode != tc.exit {
				t.Errorf("exit %d (report %d), want %d", code, d.ExitCode, tc.exit)
			}
			// Every file judged by exactly one contract, and every other
			// contract sets it aside as another suite's.
			judged, perContract := 0, []string{}
			for _, c := range d.Contracts {
				judged += c.Judged
				skipped := 0
				for _, s := range c.Skipped {
					if s.Reason != "not selected by the source" {
						t.Errorf("%s: %d records set aside: %s", c.Name, s.Count, s.Reason)
					}
					skipped += s.Count
				}
				if c.Judged+skipped != 9036 {
					t.Errorf("%s: %d judged + %d of other suites, of 9,036 files", c.Name, c.Judged, skipped)
				}
				perContract = append(perContract, fmt.Sprintf("%s %d", c.Name, c.Judged))
			}
			if want := "agentdojo-banking 2028, agentdojo-slack 1572, agentdojo-travel 2004, agentdojo-workspace 3432"; judged != 9036 || strings.Join(perContract, ", ") != want {
				t.Errorf("judged %d: %s, want 9036: %s", judged, strings.Join(perContract, ", "), want)
			}
			// Goal tasks per suite (12 systems each) and what they achieved;
			// workspace's v1.2 block left out, with its goals' goal tasks.
			goalTasks, achieved, leftOut := map[string]int{}, map[string]float64{}, map[string]int{}
			errs := 0
			for _, c := range d.Conditions {
				goalTasks[c.Contract] += c.GoalTasks
				if c.GoalTaskUtility != nil {
					achieved[c.Contract] += c.GoalTaskUtility.Num
				}
				for _, l := range c.LeftOutSets {
					if l.Label != "v1.2" || l.Cases != 320 || l.GoalTasks != 8 || c.Contract != "agentdojo-workspace" {
						t.Errorf("%s: left out %+v", c.Contract, l)
					}
					leftOut[c.Contract]++
				}
				for _, e := range c.Errors {
					errs++
					if tc.unknown == "bounds" || !strings.Contains(e, " is unknown: ") {
						t.Errorf("%s: metric error %s", c.Contract, e)
					}
				}
			}
			if got := fmt.Sprint(leftOut); got != "map[agentdojo-workspace:12]" {
				t.Errorf("left-out sets per contract: %s", got)
			}
			if tc.unknown == "refuse" {
				if errs == 0 {
					t.Error("no unknown label refused")
				}
				return
			}
			// Under bounds every condition has its metrics: goal tasks (12
			// systems × the suite's goals; workspace's v1 goals 0-5) and
			// how many each suite's systems achieved.
			if got := fmt.Sprint(goalTasks, achieved); got != "map[agentdojo-banking:108 agentdojo-slack:60 agentdojo-travel:84 agentdojo-workspace:72] map[agentdojo-banking:62 agentdojo-slack:50 agentdojo-travel:63 agentdojo-workspace:50]" {
				t.Errorf("goal tasks, achieved: %s", got)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
				// Undecided: the 207 empty transcripts of claude-3-opus.
				if !strings.HasPrefix(line, "invariant common.") || !strings.Contains(line, " violated on ") && !strings.Contains(line, " undecided on 207 runs ") {
					t.Errorf("stderr line %q is not an invariant violated or undecided", line)
				}
			}
		})
	}
}
