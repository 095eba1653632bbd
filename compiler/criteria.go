package compiler

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"cel.dev/cel-go/common/types"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// criteria checks the utility, success and side-effect criteria.
func (c *compiler) criteria() {
	c.tasks = map[string]*lang.Task{}
	for _, t := range c.mod.Tasks {
		c.tasks[t.ID.Value] = t
	}
	for _, id := range sortedKeys(c.tasks) {
		t := c.tasks[id]
		tp := bundle.TaskPlan{ID: id, Utility: c.criterion(c.root, t.Utility, t.Trace, lang.LabelUtility, "task "+id, false),
			Variants: c.variants(t.Variants, lang.LabelUtility, "task "+id)}
		if t.Prompt != nil {
			tp.Prompt = t.Prompt.Value
		}
		c.b.Plan.Tasks = append(c.b.Plan.Tasks, tp)
	}
	c.goals = map[string]*lang.Goal{}
	for _, g := range c.mod.Goals {
		c.goals[g.ID.Value] = g
	}
	for _, id := range sortedKeys(c.goals) {
		g := c.goals[id]
		gp := bundle.GoalPlan{ID: id, Success: c.criterion(c.root, g.Success, g.Trace, "success", "goal "+id, false),
			Variants: c.variants(g.Variants, "success", "goal "+id)}
		if g.Summary != nil {
			gp.Summary = g.Summary.Value
		}
		c.b.Plan.Goals = append(c.b.Plan.Goals, gp)
	}
	ses := map[string]*lang.SideEffect{}
	for _, s := range c.mod.SideEffects {
		ses[s.Name.Value] = s
	}
	for _, n := range sortedKeys(ses) {
		// A side effect's forbid pattern is the harm: matched means it happened.
		c.b.Plan.SideEffects = append(c.b.Plan.SideEffects, bundle.SideEffectPlan{Name: n, When: c.criterion(c.root, ses[n].When, ses[n].Trace, "when", "side_effect "+n, false)})
	}
}

// cases expands every cases block into (task, goal) pairs: "*" stands for
// every declared task or goal; unknown ids and duplicate pairs are errors.
// Optional blocks and the goal_tasks block become the plan's optional sets.
func (c *compiler) cases() {
	taskIDs, goalIDs := sortedKeys(c.tasks), sortedKeys(c.goals)
	seen, labels := map[bundle.Case]*lang.Cases{}, map[string]*lang.Cases{}
	for _, cs := range c.mod.Cases {
		if prev := labels[cs.Label.Value]; prev != nil && cs.Label.Value != "" {
			c.errorf("duplicate-cases-label", cs.Label.Range, "Duplicate cases label",
				fmt.Sprintf("The label %q is already used by the cases block at %s:%d.", cs.Label.Value, prev.Range.Filename, prev.Range.Start.Line))
		}
		labels[cs.Label.Value] = cs
		set := bundle.OptionalSet{Label: cs.Label.Value}
		tasks := c.expandIDs(cs.Tasks, taskIDs, "task", "cases")
		goals := c.expandIDs(cs.Goals, goalIDs, "goal", "cases")
		for _, t := range tasks {
			for _, g := range goals {
				k := bundle.Case{Task: t, Goal: g}
				if prev, dup := seen[k]; dup {
					c.errorf("duplicate-case", cs.Range, "Duplicate security case",
						fmt.Sprintf("The case (%s, %s) is already declared by the cases block at %s:%d.", t, g, prev.Range.Filename, prev.Range.Start.Line))
					continue
				}
				seen[k] = cs
				c.b.Plan.Cases = append(c.b.Plan.Cases, k)
				set.Cases = append(set.Cases, k)
			}
		}
		if cs.Optional {
			slices.SortFunc(set.Cases, func(a, b bundle.Case) int { return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Goal, b.Goal)) })
			c.b.Plan.Optional = append(c.b.Plan.Optional, set)
		}
	}
	slices.SortFunc(c.b.Plan.Cases, func(a, b bundle.Case) int { return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.Goal, b.Goal)) })
	slices.SortFunc(c.b.Plan.Optional, func(a, b bundle.OptionalSet) int { return cmp.Compare(a.Label, b.Label) })
	if gt := c.mod.GoalTasks; gt != nil {
		for _, s := range gt.Goals {
			for _, g := range c.expandIDs([]lang.Str{s}, goalIDs, "goal", "goal_tasks") {
				if t := c.tasks[g]; t != nil {
					c.errorf("goal-task-is-task", s.Range, "Goal task with a task's id",
						fmt.Sprintf("The goal_tasks block names goal %q, and a task has the same id (%s:%d): a run mapped to it could be either.", g, t.Range.Filename, t.Range.Start.Line))
					continue
				}
				c.b.Plan.GoalTasks = append(c.b.Plan.GoalTasks, g)
			}
		}
		c.b.Plan.GoalTasks = dedupe(c.b.Plan.GoalTasks)
		slices.Sort(c.b.Plan.GoalTasks)
		if gt.Optional {
			c.b.Plan.Optional = append(c.b.Plan.Optional, bundle.OptionalSet{Label: "goal_tasks", GoalTasks: c.b.Plan.GoalTasks})
		}
	}
}

// expandIDs resolves a list of ids or "*" against the declared ids.
func (c *compiler) expandIDs(list []lang.Str, declared []string, what, block string) []string {
	var out []string
	for _, s := range list {
		if s.Value == "*" {
			out = append(out, declared...)
			continue
		}
		if !contains(declared, s.Value) {
			hint := didYouMean(s.Value, declared)
			// The likeliest slip: a task's id in goals, or a goal's in tasks.
			if _, isTask := c.tasks[s.Value]; what == "goal" && isTask {
				hint = fmt.Sprintf(" %q is a task's id; goals names goal blocks.", s.Value)
			} else if _, isGoal := c.goals[s.Value]; what == "task" && isGoal {
				hint = fmt.Sprintf(" %q is a goal's id; tasks names task blocks.", s.Value)
			}
			c.errorf(diag.Code("unknown-"+what), s.Range, "Unknown "+what,
				fmt.Sprintf("The %s block names %s %q, which is not declared.%s", block, what, s.Value, hint))
			continue
		}
		out = append(out, s.Value)
	}
	return dedupe(out)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// sources checks each source block's expressions in the source environment.
func (c *compiler) sources() {
	srcEnv, err := celenv.NewSource()
	if err != nil {
		c.diags = append(c.diags, diag.Set(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Internal error", Detail: err.Error()}, "internal-error"))
		return
	}
	grants := map[string]bool{}
	for _, g := range c.b.Decls.Grants {
		grants[g.Name] = true
	}
	for _, s := range c.mod.Sources {
		name := s.Name.Value
		owner := "source " + name
		// No format, or "auto", asks eval to recognise each file's format
		// (docs/transcripts.md, "auto").
		if c.opt.Formats != nil && s.Format.Value != "" && s.Format.Value != "auto" && !contains(c.opt.Formats, s.Format.Value) {
			c.errorf("unknown-format", s.Format.Range, "Unknown transcript format",
				fmt.Sprintf("Source %q has format %q; known formats: %s.%s", name, s.Format.Value, strings.Join(c.opt.Formats, ", "), didYouMean(s.Format.Value, c.opt.Formats)))
		}
		expr := func(e *lang.Expr, kind string, want ...*types.Type) int {
			if e == nil {
				return bundle.NoExpr
			}
			i, _ := c.check(env{srcEnv, celenv.KindSource, nil}, e, "source."+kind, owner, nil, want...)
			return i
		}
		sp := bundle.SourcePlan{
			Name:       name,
			Format:     s.Format.Value,
			Select:     expr(s.Select, "select", types.BoolType),
			Task:       expr(s.Task, "task", types.StringType),
			Goal:       expr(s.Goal, "goal", types.StringType, types.NullType),
			Condition:  expr(s.Condition, "condition", types.StringType),
			Attempt:    expr(s.Attempt, "attempt", types.IntType),
			Repetition: expr(s.Repetition, "repetition", types.IntType),
			Given:      bundle.Given{Utility: bundle.NoExpr, AttackSuccess: bundle.NoExpr, SideEffect: bundle.NoExpr},
		}
		if s.Attack != nil {
			i := expr(s.Attack, "attack", types.StringType, types.NullType)
			sp.Attack = &i
		}
		if g := s.Given; g != nil {
			sp.Given.Utility = expr(g.Utility, "given."+lang.LabelUtility, types.BoolType, types.NullType)
			sp.Given.AttackSuccess = expr(g.AttackSuccess, "given."+lang.LabelAttackSuccess, types.BoolType, types.NullType)
			sp.Given.SideEffect = expr(g.SideEffect, "given."+lang.LabelSideEffect, types.BoolType, types.NullType)
		}
		if s.Grant != nil {
			sp.Grant = s.Grant.Value
			if !grants[sp.Grant] {
				c.errorf("unknown-grant", s.Grant.Range, "Unknown grant", fmt.Sprintf("Source %q uses grant %q, which is not declared.%s", name, sp.Grant, didYouMean(sp.Grant, sortedKeys(grants))))
			}
		} else if grants["default"] {
			sp.Grant = "default"
		}
		c.b.Plan.Sources = append(c.b.Plan.Sources, sp)
	}
	sort.Slice(c.b.Plan.Sources, func(i, j int) bool { return c.b.Plan.Sources[i].Name < c.b.Plan.Sources[j].Name })
}

// variants checks a task's or goal's variant blocks.
func (c *compiler) variants(vs []*lang.Variant, kind, owner string) []bundle.VariantPlan {
	var out []bundle.VariantPlan
	for _, v := range vs {
		what := owner + " variant " + v.Name.Value
		out = append(out, bundle.VariantPlan{
			Name: v.Name.Value,
			When: c.checkBool(v.When, "when", what),
			Expr: c.checkBool(v.Criterion, kind, what),
		})
	}
	return out
}
