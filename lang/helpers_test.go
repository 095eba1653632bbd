package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
)

// header declares the contract so that snippets under test start on line 2
// and do not also report a missing contract.
const header = "contract \"c\" {}\n"

// parseSrc parses one file, main.tenet.hcl, of a module in "dir".
func parseSrc(src string) (*Module, hcl.Diagnostics) {
	return ParseFiles("dir", map[string][]byte{"main.tenet.hcl": []byte(src)})
}

// rng renders a range as file:line:col-line:col.
func rng(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d-%d:%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

// render renders a diagnostic as "[code] range: summary: detail".
func render(d *hcl.Diagnostic) string {
	s := "[" + string(diag.Of(d)) + "] "
	if d.Subject != nil {
		s += rng(*d.Subject) + ": "
	}
	return s + d.Summary + ": " + d.Detail
}

func renderAll(diags hcl.Diagnostics) []string {
	out := []string{}
	for _, d := range diags {
		out = append(out, render(d))
	}
	return out
}

// checkDiags compares diagnostics, in order, with want, and checks that
// each has a registered code and that code's severity.
func checkDiags(t *testing.T, diags hcl.Diagnostics, want ...string) {
	t.Helper()
	got := renderAll(diags)
	if want == nil {
		want = []string{}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	for _, d := range diags {
		checkCode(t, d) // the severity is the code's
	}
}

// checkCode fails unless d has a code registered in lang/diag with d's
// severity.
func checkCode(t *testing.T, d *hcl.Diagnostic) {
	t.Helper()
	info, ok := diag.Lookup(diag.Of(d))
	switch {
	case diag.Of(d) == "":
		t.Errorf("diagnostic %q has no code", render(d))
	case !ok:
		t.Errorf("diagnostic %q has an unregistered code", render(d))
	case info.Severity != d.Severity:
		t.Errorf("diagnostic %q has severity %v; its code is registered with %v", render(d), d.Severity, info.Severity)
	}
}

// allExprs returns every criterion of m, step guards and patterns
// included.
func allExprs(m *Module) []*Expr {
	var out []*Expr
	add := func(es ...*Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	if m.ThreatModel != nil {
		add(m.ThreatModel.Exposure)
	}
	trace := func(tr *Trace) {
		if tr == nil {
			return
		}
		for _, s := range tr.Steps {
			add(s.When)
		}
		for _, p := range []*Pattern{tr.Match, tr.Forbid} {
			if p != nil {
				add(p.Expr)
			}
		}
	}
	for _, p := range m.Predicates {
		add(p.Expr)
		trace(p.Trace)
	}
	for _, t := range m.Tasks {
		add(t.Utility)
		trace(t.Trace)
	}
	for _, g := range m.Goals {
		add(g.Success)
		trace(g.Trace)
	}
	for _, s := range m.SideEffects {
		add(s.When)
		trace(s.Trace)
	}
	for _, i := range m.Invariants {
		add(i.Assert)
		trace(i.Trace)
	}
	for _, f := range m.Failures {
		add(f.When)
		trace(f.Trace)
	}
	for _, g := range m.Gates {
		add(g.Require...)
	}
	for _, s := range m.Sources {
		add(s.Select, s.Task, s.Goal, s.Condition, s.Attempt, s.Repetition)
		if s.Given != nil {
			add(s.Given.Utility, s.Given.AttackSuccess, s.Given.SideEffect)
		}
	}
	return out
}
