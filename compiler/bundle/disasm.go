package bundle

import (
	"fmt"
	"io"
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
	// (eval.CheckTexts): each is marked MISMATCH.
	Exprs    map[int]ExprMismatch
	Patterns map[int]error
}

// ExprMismatch is why an expression's compiled form is not its text, and
// a rendering of what it actually runs (eval.Unparse).
type ExprMismatch struct {
	Err  error
	Runs string
}

// Disassemble writes what a bundle holds, as tenet inspect prints it
// (docs/md): its id, signatures and header, the manifest, the
// declarations, the plan, every checked expression with its source
// location, result type and static cost, and a disassembly of each
// pattern's program. Everything it prints comes from the bundle and a;
// order follows the bundle's (sorted) order, so output is stable.
func Disassemble(w io.Writer, b *Bundle, id string, a Annotations) {
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	expr := func(i int) string {
		if i == NoExpr {
			return "—"
		}
		return fmt.Sprintf("#%d", i)
	}
	crit := func(c Criterion) string {
		var parts []string
		if c.Expr != NoExpr {
			parts = append(parts, expr(c.Expr))
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
	pf("bundle %s", id)
	if a.Size > 0 {
		pf(" (%d bytes)", a.Size)
	}
	pf("\n")
	if len(a.Signers) == 0 {
		pf("unsigned\n")
	}
	for _, sg := range a.Signers {
		pf("signed by %s (signature verified)\n", sg.Fingerprint())
	}
	pf("format %d, compiled by tenet %s with cel-go %s\n", b.Header.FormatVersion, b.Header.CompilerVersion, b.Header.CELVersion)

	m := b.Manifest
	pf("\ncontract %s", m.Contract)
	if m.Version != "" {
		pf(" %s", m.Version)
	}
	pf("\n")
	if m.Description != "" {
		pf("  %s\n", m.Description)
	}
	pf("files\n")
	for _, f := range m.Files {
		pf("  %s  sha256:%s\n", f.Path, f.SHA256)
	}
	tm := m.ThreatModel
	pf("threat model")
	if !tm.Declared {
		pf(" (none declared)")
	}
	pf("\n  injection vectors: %s\n  adversary sees: %s\n  attempt budget: %d\n  exposure: %s\n",
		list(tm.InjectionVectors), list(tm.AdversarySees), tm.AttemptBudget, expr(tm.Exposure))
	pf("limits\n  run cost limit: %d\n", b.Plan.RunCostLimit)

	d := b.Decls
	pf("\noperations: %s\n", list(d.Operations))
	pf("tools\n")
	for _, t := range d.Tools {
		pf("  %s  %s", t.Name, t.Operation)
		if t.Resource != "" {
			pf("  resource %s", t.Resource)
		}
		if t.HasSchema {
			var ps []string
			for _, f := range t.Params {
				ps = append(ps, f.Text(Listing))
			}
			pf("  (%s)", strings.Join(ps, ", "))
		} else {
			pf("  (no schema)")
		}
		pf("\n")
	}
	pf("grants\n")
	for _, g := range d.Grants {
		var as []string
		for _, a := range g.Allows {
			as = append(as, a.Operation+" "+strings.Join(a.Resources, " "))
		}
		pf("  %s: %s\n", g.Name, strings.Join(as, "; "))
	}
	pf("scopes\n")
	for i, sc := range d.Scopes {
		name := sc.Path
		if name == "" {
			name = "(contract)"
		}
		pf("  %d %s", i, name)
		if len(sc.Namespaces) > 0 {
			pf("  imports %s", list(sc.Namespaces))
		}
		pf("\n")
		for _, p := range sc.Params {
			pf("    params.%s = %s\n", p.Name, valueString(p.Value))
		}
		for _, p := range sc.Predicates {
			if p.Pattern != NoExpr {
				pf("    pred.%s = pattern %d\n", p.Name, p.Pattern)
			} else {
				pf("    pred.%s = %s\n", p.Name, expr(p.Expr))
			}
		}
	}

	pl := b.Plan
	pf("\npredicate order:")
	for _, r := range pl.Predicates {
		pf(" %s", scopedName(d.Scopes[r.Scope].Path, d.Scopes[r.Scope].Predicates[r.Pred].Name))
	}
	pf("\ntasks\n")
	for _, t := range pl.Tasks {
		pf("  %s  utility %s\n", t.ID, crit(t.Utility))
	}
	pf("goals\n")
	for _, g := range pl.Goals {
		pf("  %s  success %s\n", g.ID, crit(g.Success))
	}
	pf("side effects\n")
	for _, s := range pl.SideEffects {
		pf("  %s  when %s\n", s.Name, crit(s.When))
	}
	pf("security cases: %d\n", len(pl.Cases))
	for _, c := range pl.Cases {
		pf("  %s / %s\n", c.Task, c.Goal)
	}
	pf("sources\n")
	for _, s := range pl.Sources {
		pf("  %s  format %s  select %s  task %s  goal %s  condition %s  attempt %s  repetition %s", s.Name, s.Format,
			expr(s.Select), expr(s.Task), expr(s.Goal), expr(s.Condition), expr(s.Attempt), expr(s.Repetition))
		if s.Grant != "" {
			pf("  grant %s", s.Grant)
		}
		pf("\n    given utility %s  attack_success %s  side_effect %s\n", expr(s.Given.Utility), expr(s.Given.AttackSuccess), expr(s.Given.SideEffect))
	}
	pf("invariants\n")
	for _, inv := range pl.Invariants {
		pf("  %s  %s  holds %s\n", inv.Name, inv.Severity, crit(inv.Holds))
	}
	pf("failure classes\n")
	for _, f := range pl.Failures {
		pf("  %s  when %s\n", f.Name, crit(f.When))
	}
	pf("gates\n")
	for _, g := range pl.Gates {
		var rs []string
		for _, r := range g.Require {
			rs = append(rs, expr(r))
		}
		pf("  %s  require %s", g.Name, strings.Join(rs, " and "))
		if len(g.Conditions) > 0 {
			pf("  conditions %s", list(g.Conditions))
		}
		pf("\n")
	}

	pf("\nexpressions\n")
	for i, e := range b.Exprs {
		pf("  #%d %s of %s  %s:%d:%d  %s env, scope %d  -> %s  cost ≤ %d\n", i, e.Kind, e.Owner, e.Range.File, e.Range.Line, e.Range.Column, e.Env, e.Scope, e.ResultType, e.Cost)
		if len(e.Vars) > 0 {
			var vs []string
			for _, v := range e.Vars {
				vs = append(vs, v.Name)
			}
			pf("     with %s\n", strings.Join(vs, ", "))
		}
		for _, line := range strings.Split(strings.TrimRight(e.Text, "\n"), "\n") {
			pf("     | %s\n", line)
		}
		if m, ok := a.Exprs[i]; ok {
			pf("     MISMATCH: %v\n     runs: %s\n", m.Err, m.Runs)
		}
	}

	if len(pl.Patterns) > 0 {
		pf("\npatterns\n")
	}
	for i, pt := range pl.Patterns {
		pf("  pattern %d: %s  %s:%d:%d  scope %d\n     | %s\n", i, pt.Owner, pt.Range.File, pt.Range.Line, pt.Range.Column, pt.Scope, pt.Text)
		if err, ok := a.Patterns[i]; ok {
			pf("     MISMATCH: %v (the disassembly below is what runs)\n", err)
		}
		for k, st := range pt.Steps {
			sel := "call " + st.Call
			if st.Role != "" {
				sel = "role " + st.Role
			}
			pf("     step %d %s: %s, when %s", k, st.Name, sel, expr(st.When))
			if len(st.Refs) > 0 {
				var rs []string
				for _, r := range st.Refs {
					rs = append(rs, pt.Steps[r].Name)
				}
				pf(", refers to %s", strings.Join(rs, ", "))
			}
			pf("\n")
		}
		for pc, in := range pt.Program {
			pf("     %04d  %s\n", pc, disasm(in, pt))
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

func scopedName(path, name string) string {
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
