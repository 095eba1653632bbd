package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/consistency"
	"github.com/tenetlang/tenet/internal/readlimit"
)

func inspectCmd() *cobra.Command {
	var trust trustFlags
	var verify bool
	cmd := &cobra.Command{
		Use:   "inspect (X.tnb|DIR)",
		Short: "Print a bundle's manifest, declarations, expressions and pattern programs",
		Long: `Print what a bundle holds (docs/bundle.md): its id, signatures and header,
the manifest (contract, source files with their sha256, threat model), the
declarations (operations, tools, grants, scopes with params and predicates),
the plan (tasks, goals, side effects, cases, sources, invariants, failures,
gates), every checked expression with its source location, result type and
static cost, and a disassembly of each trace pattern's program. A directory
is compiled in memory first.

Each expression's text is checked against its compiled form (the check
eval makes; with --verify, the full check: the text is compiled again and
the result compared byte for byte). An expression whose compiled form is
not its text is marked MISMATCH, with a rendering of what actually runs;
inspect then exits 2.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pol, err := trust.policy()
			if err != nil {
				return err
			}
			b, id, signers, err := loadInspected(args[0], cmd.ErrOrStderr(), pol)
			if err != nil {
				return err
			}
			issues, err := consistency.CheckTexts(b, verify)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if issues.Len() == 0 {
				// What eval would refuse, inspect refuses too.
				if _, err := eval.Plan(b, id); err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
			}
			size := 0
			if st, err := os.Stat(args[0]); err == nil && !st.IsDir() {
				size = int(st.Size())
			}
			writeInspect(cmd.OutOrStdout(), b, id, size, signers, issues)
			if issues.Len() > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s: %d of %d expressions and %d of %d patterns do not run what their text says (marked MISMATCH above): the bundle was altered after it was compiled, and eval refuses it\n",
					cmd.CommandPath(), args[0], len(issues.Exprs), len(b.Exprs), len(issues.Patterns), len(b.Plan.Patterns))
				return exitError{exitBad}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&verify, "verify", false, "compile every expression's text again and compare it with the compiled form byte for byte (slower than the check eval makes; docs/bundle.md)")
	trust.add(cmd)
	return cmd
}

// loadInspected is loadVerified that also returns the bundle's signers.
func loadInspected(path string, stderr io.Writer, pol bundle.Policy) (*bundle.Bundle, string, []bundle.Signer, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", nil, err
	}
	if st.IsDir() {
		b, id, err := loadVerified(path, stderr, pol)
		return b, id, nil, err
	}
	data, err := readlimit.ReadFile(path, bundle.MaxFileBytes)
	if err != nil {
		return nil, "", nil, err
	}
	b, id, signers, err := bundle.DecodeSigned(data)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := pol.Check(id, signers); err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, id, signers, nil
}

// writeInspect renders a bundle. Everything it prints comes from the
// bundle; order follows the bundle's (sorted) order, so output is stable.
// signers are the keys whose signatures verified; issues, by expression
// index, the expressions whose compiled form is not their text.
func writeInspect(w io.Writer, b *bundle.Bundle, id string, size int, signers []bundle.Signer, issues consistency.TextIssues) {
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	expr := func(i int) string {
		if i == bundle.NoExpr {
			return "—"
		}
		return fmt.Sprintf("#%d", i)
	}
	crit := func(c bundle.Criterion) string {
		var parts []string
		if c.Expr != bundle.NoExpr {
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
	if size > 0 {
		pf(" (%d bytes)", size)
	}
	pf("\n")
	if len(signers) == 0 {
		pf("unsigned\n")
	}
	for _, sg := range signers {
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
				ps = append(ps, fieldString(f))
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
			if p.Pattern != bundle.NoExpr {
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
		if err := issues.Exprs[i]; err != nil {
			pf("     MISMATCH: %v\n     runs: %s\n", err, consistency.Unparse(&b.Exprs[i]))
		}
	}

	if len(pl.Patterns) > 0 {
		pf("\npatterns\n")
	}
	for i, pt := range pl.Patterns {
		pf("  pattern %d: %s  %s:%d:%d  scope %d\n     | %s\n", i, pt.Owner, pt.Range.File, pt.Range.Line, pt.Range.Column, pt.Scope, pt.Text)
		if err := issues.Patterns[i]; err != nil {
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

// disasm renders one instruction.
func disasm(in bundle.Inst, pt bundle.PatternPlan) string {
	switch in.Op {
	case "step", "not":
		name := "?"
		if in.X >= 0 && in.X < len(pt.Steps) {
			name = pt.Steps[in.X].Name
		}
		return fmt.Sprintf("%-5s %d (%s)", in.Op, in.X, name)
	case "split":
		return fmt.Sprintf("split %04d, %04d", in.X, in.Y)
	case "jmp":
		return fmt.Sprintf("jmp   %04d", in.X)
	}
	return in.Op
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

func fieldString(f bundle.Field) string {
	t := typeString(f.Type)
	if f.Optional {
		t = "optional(" + t + ")"
	}
	return f.Name + ": " + t
}

func typeString(t bundle.Type) string {
	switch t.Kind {
	case "list", "map":
		e := "any"
		if t.Elem != nil {
			e = typeString(*t.Elem)
		}
		return t.Kind + "(" + e + ")"
	case "object":
		var fs []string
		for _, f := range t.Fields {
			fs = append(fs, fieldString(f))
		}
		return "object({" + strings.Join(fs, ", ") + "})"
	}
	return t.Kind
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
