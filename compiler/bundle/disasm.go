package bundle

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Annotations are what Disassemble prints beside the bundle's own
// content: facts about the file it came from and the checks eval made on
// it, which this package cannot make itself.
type Annotations struct {
	Size    int      // the bundle file's size in bytes; 0: not read from a file (not printed)
	Signers []Signer // the keys whose signatures verified (DecodeSigned)
	// Exprs and Patterns, by index in Bundle.Exprs and Plan.Patterns, are
	// the expressions and patterns whose compiled form is not their text
	// (consistency.CheckTexts): each is marked MISMATCH.
	Exprs    map[int]ExprMismatch
	Patterns map[int]error
}

// ExprMismatch is why an expression's compiled form is not its text, and
// a rendering of what it actually runs (consistency.Unparse).
type ExprMismatch struct {
	Err  error
	Runs string
}

// Disassemble writes what a bundle holds, as tenet inspect prints it
// (docs/bundle.md): its id, signatures and header, the manifest, the
// declarations, the plan, every checked expression with its source
// location, result type and static cost, and a disassembly of each
// pattern's program. Everything it prints comes from the bundle and a;
// order follows the bundle's (sorted) order, so output is stable.
func Disassemble(w io.Writer, b *Bundle, id string, a Annotations) {
	l := &listing{w: w, a: a}
	l.header(b, id)
	l.decls(b)
	l.plan(b)
	l.exprs(b)
	l.patterns(b)
}

// listing is one Disassemble's output and annotations.
type listing struct {
	w io.Writer
	a Annotations
}

func (l *listing) pf(format string, args ...any) { fmt.Fprintf(l.w, format, args...) }

// expr names an expression index, "—" for none.
func (l *listing) expr(i int) string {
	if i == NoExpr {
		return "—"
	}
	return fmt.Sprintf("#%d", i)
}

// crit renders a criterion: its expression and patterns, "and"-joined.
func (l *listing) crit(c Criterion) string {
	var parts []string
	if c.Expr != NoExpr {
		parts = append(parts, l.expr(c.Expr))
	}
	for _, u := range c.Patterns {
		s := fmt.Sprintf("pattern %d", u.Pattern)
		if u.Negate {
			s = "not " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// header prints the id, signers, header, manifest and limits.
func (l *listing) header(b *Bundle, id string) {
	l.pf("bundle %s", id)
	if l.a.Size > 0 {
		l.pf(" (%d bytes)", l.a.Size)
	}
	l.pf("\n")
	if len(l.a.Signers) == 0 {
		l.pf("unsigned\n")
	}
	for _, sg := range l.a.Signers {
		l.pf("signed by %s (signature verified)\n", sg.Fingerprint())
	}
	l.pf("format %d, compiled by tenet's compiler %s with cel-go %s\n", b.Header.FormatVersion, b.Header.CompilerVersion, b.Header.CELVersion)

	m := b.Manifest
	l.pf("\ncontract %s", m.Contract)
	if m.Version != "" {
		l.pf(" %s", m.Version)
	}
	l.pf("\n")
	if m.Description != "" {
		l.pf("  %s\n", m.Description)
	}
	l.pf("files\n")
	for _, f := range m.Files {
		l.pf("  %s  sha256:%s\n", f.Path, f.SHA256)
	}
	tm := m.ThreatModel
	l.pf("threat model")
	if !tm.Declared {
		l.pf(" (none declared)")
	}
	l.pf("\n  injection vectors: %s\n  adversary sees: %s\n  attempt budget: %d\n  exposure: %s\n",
		list(tm.InjectionVectors), list(tm.AdversarySees), tm.AttemptBudget, l.expr(tm.Exposure))
	for _, a := range tm.AttackAggregates {
		l.pf("  attack_aggregate %s: attack_success %s  utility %s  side_effect %s  exposed %s\n", a.Name, a.AttackSuccess, a.Utility, a.SideEffect, a.Exposed)
	}
	l.pf("limits\n  run cost limit: %d\n", b.Plan.RunCostLimit)
}

// decls prints operations, tools, grants and scopes.
func (l *listing) decls(b *Bundle) {
	d := b.Decls
	l.pf("\noperations: %s\n", list(d.Operations))
	l.pf("tools\n")
	for _, t := range d.Tools {
		l.pf("  %s  %s", t.Name, t.Operation)
		if t.Resource != "" {
			l.pf("  resource %s", t.Resource)
		}
		if t.HasSchema {
			var ps []string
			for _, f := range t.Params {
				ps = append(ps, f.Text(Listing))
			}
			l.pf("  (%s)", strings.Join(ps, ", "))
		} else {
			l.pf("  (no schema)")
		}
		l.pf("\n")
	}
	l.pf("grants\n")
	for _, g := range d.Grants {
		var as []string
		for _, a := range g.Allows {
			as = append(as, a.Operation+" "+strings.Join(a.Resources, " "))
		}
		l.pf("  %s: %s\n", g.Name, strings.Join(as, "; "))
	}
	l.pf("scopes\n")
	for i, sc := range d.Scopes {
		name := sc.Path
		if name == "" {
			name = "(contract)"
		}
		l.pf("  %d %s", i, name)
		if len(sc.Namespaces) > 0 {
			l.pf("  imports %s", list(sc.Namespaces))
		}
		l.pf("\n")
		for _, p := range sc.Params {
			l.pf("    params.%s = %s\n", p.Name, valueString(p.Value))
		}
		for _, p := range sc.Predicates {
			if p.Pattern != NoExpr {
				l.pf("    pred.%s = pattern %d\n", p.Name, p.Pattern)
			} else {
				l.pf("    pred.%s = %s\n", p.Name, l.expr(p.Expr))
			}
		}
	}
	l.profiles(b)
}

// plan prints what produces each label.
func (l *listing) plan(b *Bundle) {
	pl := b.Plan
	l.pf("\npredicate order:")
	for _, r := range pl.Predicates {
		l.pf(" %s", ScopedName(b.Decls.Scopes[r.Scope].Path, b.Decls.Scopes[r.Scope].Predicates[r.Pred].Name))
	}
	l.pf("\ntasks\n")
	for _, t := range pl.Tasks {
		l.pf("  %s  utility %s\n", t.ID, l.crit(t.Utility))
	}
	l.pf("goals\n")
	for _, g := range pl.Goals {
		l.pf("  %s  success %s\n", g.ID, l.crit(g.Success))
	}
	l.pf("side effects\n")
	for _, s := range pl.SideEffects {
		l.pf("  %s  when %s\n", s.Name, l.crit(s.When))
	}
	l.pf("security cases: %d\n", len(pl.Cases))
	for _, c := range pl.Cases {
		l.pf("  %s / %s\n", c.Task, c.Goal)
	}
	// Shown only when declared, so that the listing of a bundle without
	// them is as before they existed.
	if len(pl.GoalTasks) > 0 {
		l.pf("goal tasks: %s\n", strings.Join(pl.GoalTasks, ", "))
	}
	for _, o := range pl.Optional {
		l.pf("optional %s: %d security cases, %d goal tasks", o.Label, len(o.Cases), len(o.GoalTasks))
		if n := goalTasksOnlyIn(pl, o); n > 0 {
			// eval's "not run" line counts these too (docs/metrics.md,
			// "Optional sets"): say so, or the two counts look contradictory.
			noun := "goal tasks"
			if n == 1 {
				noun = "goal task"
			}
			l.pf("; not run, it also leaves out %d %s (of the goals only it attacks)", n, noun)
		}
		l.pf("\n")
	}
	l.pf("sources\n")
	for _, s := range pl.Sources {
		l.pf("  %s  format %s  select %s  task %s  goal %s  condition %s  attempt %s  repetition %s", s.Name, s.Format,
			l.expr(s.Select), l.expr(s.Task), l.expr(s.Goal), l.expr(s.Condition), l.expr(s.Attempt), l.expr(s.Repetition))
		if s.Attack != nil {
			l.pf("  attack %s", l.expr(*s.Attack))
		}
		if s.Grant != "" {
			l.pf("  grant %s", s.Grant)
		}
		l.pf("\n    given utility %s  attack_success %s  side_effect %s\n", l.expr(s.Given.Utility), l.expr(s.Given.AttackSuccess), l.expr(s.Given.SideEffect))
	}
	l.pf("invariants\n")
	for _, inv := range pl.Invariants {
		l.pf("  %s  %s  holds %s\n", inv.Name, inv.Severity, l.crit(inv.Holds))
	}
	l.pf("failure classes\n")
	for _, f := range pl.Failures {
		l.pf("  %s  when %s\n", f.Name, l.crit(f.When))
	}
	l.pf("gates\n")
	for _, g := range pl.Gates {
		var rs []string
		for _, r := range g.Require {
			rs = append(rs, l.expr(r))
		}
		l.pf("  %s  require %s", g.Name, strings.Join(rs, " and "))
		if len(g.Conditions) > 0 {
			l.pf("  conditions %s", list(g.Conditions))
		}
		l.pf("\n")
	}
}

// exprs prints every checked expression.
func (l *listing) exprs(b *Bundle) {
	l.pf("\nexpressions\n")
	for i, e := range b.Exprs {
		l.pf("  #%d %s of %s  %s:%d:%d  %s env, scope %d  -> %s  estimate ≤ %d under the size assumptions\n", i, e.Kind, e.Owner, e.Range.File, e.Range.Line, e.Range.Column, e.Env, e.Scope, e.ResultType, e.Cost)
		if len(e.Vars) > 0 {
			var vs []string
			for _, v := range e.Vars {
				vs = append(vs, v.Name)
			}
			l.pf("     with %s\n", strings.Join(vs, ", "))
		}
		l.pf("     %s\n", meteringText(e.Unmetered))
		for _, line := range strings.Split(strings.TrimRight(e.Text, "\n"), "\n") {
			l.pf("     | %s\n", line)
		}
		if m, ok := l.a.Exprs[i]; ok {
			l.pf("     MISMATCH: %v\n     runs: %s\n", m.Err, m.Runs)
		}
	}
}

// meteringText says how eval evaluates an expression: metered on every
// run, or unmetered on runs up to a size, with its static cost bound at
// each size rung (Expr.Unmetered). Those bounds hold for any run of the
// rung's size; the "estimate" on the line above (Expr.Cost) assumes the
// compiler's sizes (1,000 list items, 10,000-byte strings) and may be
// below the bounds of larger rungs: the labels say which is which, so
// that neither reads as a ceiling of the other.
func meteringText(bounds []uint64) string {
	if len(bounds) == 0 {
		return "metered"
	}
	parts := make([]string, len(bounds))
	for k, c := range bounds {
		parts[k] = fmt.Sprintf("%d:%d", SizeRungs[k], c)
	}
	return fmt.Sprintf("unmetered on runs of size ≤ %d, else metered; bound on a run of size ≤ rung (rung:bound): %s", SizeRungs[len(bounds)-1], strings.Join(parts, " "))
}

// patterns prints each pattern's steps and program.
func (l *listing) patterns(b *Bundle) {
	pl := b.Plan
	if len(pl.Patterns) > 0 {
		l.pf("\npatterns\n")
	}
	for i, pt := range pl.Patterns {
		l.pf("  pattern %d: %s  %s:%d:%d  scope %d\n     | %s\n", i, pt.Owner, pt.Range.File, pt.Range.Line, pt.Range.Column, pt.Scope, pt.Text)
		if err, ok := l.a.Patterns[i]; ok {
			l.pf("     MISMATCH: %v (the disassembly below is what runs)\n", err)
		}
		for k, st := range pt.Steps {
			sel := "call " + st.Call
			if st.Role != "" {
				sel = "role " + st.Role
			}
			l.pf("     step %d %s: %s, when %s", k, st.Name, sel, l.expr(st.When))
			if len(st.Refs) > 0 {
				var rs []string
				for _, r := range st.Refs {
					rs = append(rs, pt.Steps[r].Name)
				}
				l.pf(", refers to %s", strings.Join(rs, ", "))
			}
			l.pf("\n")
		}
		for pc, in := range pt.Program {
			l.pf("     %04d  %s\n", pc, disasm(in, pt))
		}
	}
}

// disasm renders one instruction; one case per Op (TestEveryOp checks
// there is one).
func disasm(in Inst, pt PatternPlan) string {
	switch in.Op {
	case OpStep, OpNot:
		name := "?"
		if in.X >= 0 && in.X < len(pt.Steps) {
			name = pt.Steps[in.X].Name
		}
		return fmt.Sprintf("%-5s %d (%s)", in.Op, in.X, name)
	case OpSplit:
		return fmt.Sprintf("split %04d, %04d", in.X, in.Y)
	case OpJmp:
		return fmt.Sprintf("jmp   %04d", in.X)
	case OpAny, OpBol, OpEol, OpMatch:
		return in.Op.String()
	}
	return fmt.Sprintf("unknown %s %d %d", in.Op, in.X, in.Y)
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "—"
	}
	return strings.Join(xs, ", ")
}

// ScopedName is a predicate's name as contracts write it: prefixed with
// the path of the library that declares it (use), if any.
func ScopedName(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// valueString renders a param value compactly and deterministically.
func valueString(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		var es []string
		for _, e := range v {
			es = append(es, valueString(e))
		}
		return "[" + strings.Join(es, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var es []string
		for _, k := range keys {
			es = append(es, k+" = "+valueString(v[k]))
		}
		return "{" + strings.Join(es, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// goalTasksOnlyIn counts the goal tasks whose goal only the optional set o
// attacks: a condition that runs none of o leaves them out with it.
func goalTasksOnlyIn(pl Plan, o OptionalSet) int {
	in := map[Case]bool{}
	for _, c := range o.Cases {
		in[c] = true
	}
	elsewhere := map[string]bool{}
	for _, c := range pl.Cases {
		if !in[c] {
			elsewhere[c.Goal] = true
		}
	}
	only := map[string]bool{}
	for _, c := range o.Cases {
		if !elsewhere[c.Goal] {
			only[c.Goal] = true
		}
	}
	n := 0
	for _, g := range pl.GoalTasks {
		if only[g] && !slices.Contains(o.GoalTasks, g) {
			n++
		}
	}
	return n
}
