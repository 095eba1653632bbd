package compiler

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang"
)

// TestSpec is a checked test block: judge one transcript record with the
// contract and compare labels (`tenet test`). Tests are not part of the
// bundle: they need the transcript files next to the contract.
type TestSpec struct {
	Name string
	// Transcript is the transcript file's path relative to the contract
	// directory.
	Transcript string
	Record     int    // 1-based number of the run among the file's records
	Source     string // "" means the contract's only source
	// Task and Goal override the source's mapping when non-nil; a Goal of
	// "" makes the run benign.
	Task, Goal *string
	Profile    string // "" means the params as declared
	Expect     []Expect
	Range      hcl.Range
}

// Expect is one expected label: Label is utility, attack_success,
// side_effect, exposed (Bool set, or Unknown), violations or failures
// (Names: exactly these invariants violated or failure classes matched).
type Expect struct {
	Label   string
	Bool    *bool
	Unknown bool
	Names   []string
}

// Tests returns the contract's tests in declaration order. It assumes the
// module compiled without errors (Compile checks test blocks).
func Tests(m *lang.Module) []TestSpec {
	var out []TestSpec
	for _, t := range m.Tests {
		s := TestSpec{Name: t.Name.Value, Transcript: t.Transcript.Value, Record: 1, Range: t.Range}
		if t.Record != nil {
			s.Record = int(t.Record.Value)
		}
		if t.Source != nil {
			s.Source = t.Source.Value
		}
		if t.Profile != nil {
			s.Profile = t.Profile.Value
		}
		if t.Task != nil {
			v := t.Task.Value
			s.Task = &v
			g := ""
			if t.Goal != nil {
				g = t.Goal.Value
			}
			s.Goal = &g
		}
		for _, e := range t.Expect {
			x := Expect{Label: e.Label.Value, Bool: e.Bool, Unknown: e.Unknown}
			for _, n := range e.Names {
				x.Names = append(x.Names, n.Value)
			}
			s.Expect = append(s.Expect, x)
		}
		out = append(out, s)
	}
	return out
}

// tests checks test blocks against the contract's declarations.
func (c *compiler) tests() {
	sources := map[string]bool{}
	for _, s := range c.b.Plan.Sources {
		sources[s.Name] = true
	}
	invs, fails := map[string]bool{}, map[string]bool{}
	for _, i := range c.b.Plan.Invariants {
		invs[i.Name] = true
	}
	for _, f := range c.b.Plan.Failures {
		fails[f.Name] = true
	}
	var profiles []string // declared, whether in error or not
	for _, p := range c.mod.Profiles {
		profiles = append(profiles, p.Name.Value)
	}
	for _, t := range c.mod.Tests {
		if t.Record != nil && t.Record.Value < 1 {
			c.errorf("invalid-number", t.Record.Range, "Invalid record number", fmt.Sprintf("record counts the transcript's runs from 1, not %d.", t.Record.Value))
		}
		if t.Source != nil && !sources[t.Source.Value] {
			c.errorf("unknown-test-source", t.Source.Range, "Unknown source in test",
				fmt.Sprintf("Test %q names source %q, which is not declared.%s", t.Name.Value, t.Source.Value, didYouMean(t.Source.Value, sortedKeys(sources))))
		}
		if t.Source == nil && len(sources) != 1 {
			c.errorf("unknown-test-source", t.Range, "Unknown source in test",
				fmt.Sprintf("Test %q names no source and the contract declares %d; add source = \"...\".", t.Name.Value, len(sources)))
		}
		if pr := t.Profile; pr != nil && !slices.Contains(profiles, pr.Value) {
			c.errorf("unknown-profile", pr.Range, "Unknown profile",
				fmt.Sprintf("Test %q names profile %q, which is not declared.%s", t.Name.Value, pr.Value, didYouMean(pr.Value, profiles)))
		}
		if t.Task != nil {
			// A goal task is judged as a task: a test may name it (no goal).
			if _, ok := c.tasks[t.Task.Value]; !ok && !slices.Contains(c.b.Plan.GoalTasks, t.Task.Value) {
				c.errorf("unknown-task", t.Task.Range, "Unknown task",
					fmt.Sprintf("Test %q names task %q, which is not declared.%s", t.Name.Value, t.Task.Value, didYouMean(t.Task.Value, sortedKeys(c.tasks))))
			}
		}
		if t.Goal != nil && t.Goal.Value != "" {
			if _, ok := c.goals[t.Goal.Value]; !ok {
				c.errorf("unknown-goal", t.Goal.Range, "Unknown goal",
					fmt.Sprintf("Test %q names goal %q, which is not declared.%s", t.Name.Value, t.Goal.Value, didYouMean(t.Goal.Value, sortedKeys(c.goals))))
			} else if t.Task != nil && !c.isCase(t.Task.Value, t.Goal.Value) {
				c.errorf("unknown-goal", t.Goal.Range, "Unknown goal",
					fmt.Sprintf("Test %q: (%s, %s) is not a declared security case.", t.Name.Value, t.Task.Value, t.Goal.Value))
			}
		}
		for _, e := range t.Expect {
			declared, what := invs, "invariant"
			if e.Label.Value == "failures" {
				declared, what = fails, "failure class"
			}
			for _, n := range e.Names {
				if !declared[n.Value] {
					c.errorf("unknown-invariant", n.Range, "Unknown invariant or failure",
						fmt.Sprintf("Test %q expects %s %q, which is not declared.%s", t.Name.Value, what, n.Value, didYouMean(n.Value, sortedKeys(declared))))
				}
			}
		}
	}
}

func (c *compiler) isCase(task, goal string) bool {
	for _, k := range c.b.Plan.Cases {
		if k == (bundle.Case{Task: task, Goal: goal}) {
			return true
		}
	}
	return false
}
