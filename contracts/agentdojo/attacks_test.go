package agentdojo_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestAttacksRealRuns: one real pipeline's banking run files, copied into a
// temporary tree, with every attacked run filed a second time under
// another attack name (its attack_type and folder renamed, its transcript
// unchanged). Each (pipeline, attack) is a condition over the same 16
// benign runs and 9 goal-task runs (the suite's injection_task_N/none
// files), judged once; equal transcripts give equal labels, so both
// attacks' metrics are the single-attack ones and so is the contract's
// max_over_attacks aggregate (any and all of two equal labels are that
// label), its goal_task_utility included: the goal-task runs are the
// pipeline's, shared by the aggregate as by each attack. Compute (tenet
// compare's path) gives what the stream (summary.Collect, tenet eval's and
// report's) gives.
func TestAttacksRealRuns(t *testing.T) {
	testtier.Heavy(t, "judges 2 × 144 + 16 + 9 real banking run files")
	const pipe, copyName = "gpt-4o-mini-2024-07-18", "important_instructions_again"
	src := filepath.Join(shared.Dir(t), "agentdojo", "runs", pipe, "banking")
	tmp := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, pipe, "banking", rel)
		if err := writeFile(dst, b); err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) != 3 || parts[1] != "important_instructions" {
			return nil
		}
		var run map[string]any
		if err := json.Unmarshal(b, &run); err != nil {
			return err
		}
		run["attack_type"] = copyName
		again, err := json.MarshalIndent(run, "", "    ")
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(tmp, pipe, "banking", parts[0], copyName, parts[2]), again)
	})
	if err != nil {
		t.Fatal(err)
	}
	list, err := inputs.Expand([]string{tmp}, inputs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer list.Close()
	p := evaltest.Program(t, "banking")
	res, err := pipeline.EvalFiles(p, list.Files, pipeline.Options{})
	if err != nil || len(res.Errors) > 0 {
		t.Fatal(err, res.Errors)
	}
	benign, goalTasks, attacked := 0, 0, map[string]int{}
	for _, r := range res.Records {
		switch {
		case r.Key.Attacked():
			attacked[r.Key.Attack]++
		case r.GoalTask:
			goalTasks++
		default:
			benign++
		}
	}
	if benign != 16 || goalTasks != 9 || len(attacked) != 2 || attacked["important_instructions"] != 144 || attacked[copyName] != 144 {
		t.Fatalf("runs: %d benign, %d goal-task, attacked %v; want 16 benign and 9 goal-task (once) and 144 under each attack", benign, goalTasks, attacked)
	}
	// Equal transcripts, equal labels: run by run.
	labels := map[string]map[string]string{}
	for _, r := range res.Records {
		if r.Key.Attacked() {
			if labels[r.Key.Attack] == nil {
				labels[r.Key.Attack] = map[string]string{}
			}
			labels[r.Key.Attack][r.Key.Case().String()] = r.Utility.String() + r.AttackSuccess.String() + r.SideEffect.String() + r.Exposed.String()
		}
	}
	for id, l := range labels["important_instructions"] {
		if labels[copyName][id] != l {
			t.Errorf("%s: labels %s under important_instructions, %s under %s", id, l, labels[copyName][id], copyName)
		}
	}
	declared := map[string]metrics.Declared{p.Bundle.Manifest.Contract: summary.Declared(p.Bundle)}
	sum := summary.Collect(res.Records, declared, metrics.Options{}, 0)
	if sum.Err != nil {
		t.Fatal(sum.Err)
	}
	var names []string
	for _, c := range sum.Conditions {
		names = append(names, c.Condition)
	}
	want := []string{pipe + " @ important_instructions", pipe + " @ " + copyName, pipe + " @ max_over_attacks"}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Fatalf("conditions %q, want %q", names, want)
	}
	// The single-attack evaluation of the original files.
	orig, err := inputs.Expand([]string{src}, inputs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	one, err := pipeline.EvalFiles(p, orig.Files, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	single := summary.Collect(one.Records, declared, metrics.Options{}, 0)
	if single.Err != nil || len(single.Conditions) != 1 {
		t.Fatal(single.Err, len(single.Conditions))
	}
	s := single.Conditions[0]
	if s.BenignTasks != 16 || s.SecurityCases != 144 || s.GoalTasks != 9 || s.GoalTaskUtility.Low.Rate != (metrics.Rate{Num: 8, Den: 9}) {
		t.Fatalf("single attack: |T| %d |C| %d goal tasks %d goal_task_utility %v", s.BenignTasks, s.SecurityCases, s.GoalTasks, s.GoalTaskUtility.Low)
	}
	for _, c := range sum.Conditions {
		type rates struct {
			t, c                  int
			b, u, a, h, su        metrics.Rate
			joint                 metrics.Joint
			exposed, solved       float64
			condExposed, condSolv metrics.NullableRate
			goalTasks, left       int
			goalTaskUtility       metrics.RateStats
		}
		of := func(c metrics.Condition) rates {
			return rates{c.BenignTasks, c.SecurityCases, c.BenignUtility, c.UtilityUnderAttack, c.TargetedASR, c.SideEffectRate,
				c.SecureUtilityInScope, c.Joint, c.ExposedCases, c.BenignSolvedCases, c.ConditionalASRExposed, c.ConditionalASRBenignSolved,
				c.GoalTasks, len(c.LeftOut), c.GoalTaskUtility}
		}
		if of(c) != of(s) {
			t.Errorf("%s: %+v\nwant the single attack's %+v", c.Condition, of(c), of(s))
		}
	}
	if a := sum.Conditions[2]; !a.Aggregate || a.Attack != "max_over_attacks" || a.Pipeline != pipe {
		t.Errorf("aggregate %+v", a)
	}
	computed, err := metrics.Compute(res.Records, declared, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(computed, sum.Conditions) {
		t.Errorf("Compute and the stream differ:\n%+v\n%+v", computed, sum.Conditions)
	}
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
