// Package compiler turns a parsed contract (lang.Module) into a checked,
// frozen bundle (compiler/bundle): it resolves names, type-checks every CEL
// expression in tenet's environment (compiler/celenv), orders predicates as a
// DAG, expands security cases and writes the evaluation plan.
//
// All problems are reported at once as hcl.Diagnostics with source ranges in
// the .hcl files; CEL errors point inside the expression (file:line:col).
// Compile never reads transcripts.
package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/compiler/profile"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// Version is the compiler's version, recorded in every bundle header and
// in reports. It is raised when the compiler's output changes (the same
// sources give another bundle), not at every release: it is a constant,
// not the build's version (internal/buildinfo), so that a bundle's bytes,
// its id and a report's bytes depend neither on the commit or the way
// tenet was built nor on a release that left the compiler alone (pinned
// --expect-bundle-id values survive such an upgrade; docs/release.md,
// "Versions").
const Version = "0.1.0"

// DefaultRunCostLimit is the CEL cost (cel-go cost units: roughly one per
// operation, list element visited or few bytes of string compared) one run
// may spend when the contract block sets no run_cost_limit. The banking
// contract spends at most a few thousand per run.
const DefaultRunCostLimit = 10_000_000

// Options configure a compilation.
type Options struct {
	// Formats lists the transcript formats a source block may name; nil
	// accepts any name (the caller that knows the readers passes them).
	Formats []string
}

// Compile checks m and returns its bundle. The bundle is nil when any
// diagnostic is an error; warnings may accompany a bundle.
func Compile(m *lang.Module, opt Options) (b *bundle.Bundle, diags hcl.Diagnostics) {
	c := &compiler{mod: m, opt: opt, b: &bundle.Bundle{}, used: newUsage()}
	// Like the parser, the compiler must never take the program down on a
	// hostile contract: a panic is a bug in tenet (or cel-go), reported as
	// an internal-error diagnostic (and caught by FuzzCompile).
	defer func() {
		if r := recover(); r != nil {
			b = nil
			diags = append(c.diags, diag.Set(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Internal error in the compiler",
				Detail: fmt.Sprintf("%v. This is a bug in tenet; please report it with the contract that caused it.", r)}, "internal-error"))
		}
	}()
	c.run()
	SortDiagnostics(c.diags)
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	return c.b, c.diags
}

// SortDiagnostics orders diagnostics by file, line and column (stable),
// so that they read top to bottom whatever order the checks ran in.
func SortDiagnostics(diags hcl.Diagnostics) {
	pos := func(d *hcl.Diagnostic) (string, int, int) {
		if d.Subject == nil {
			return "", 0, 0
		}
		return d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
	}
	sort.SliceStable(diags, func(i, j int) bool {
		fi, li, ci := pos(diags[i])
		fj, lj, cj := pos(diags[j])
		if fi != fj {
			return fi < fj
		}
		if li != lj {
			return li < lj
		}
		return ci < cj
	})
}

// compiler holds the state of one compilation.
type compiler struct {
	mod   *lang.Module
	opt   Options
	b     *bundle.Bundle
	diags hcl.Diagnostics

	universe *celenv.Universe
	root     *scope   // the contract itself
	scopes   []*scope // root and imports, in bundle order
	tools    map[string]*lang.Tool
	tasks    map[string]*lang.Task
	goals    map[string]*lang.Goal

	costBudget uint64 // per-expression static cost budget
	// checked holds each expression's environment and checked AST
	// (index-aligned with b.Exprs), for the unmetered bounds (unmetered.go).
	checked []checkedExpr
	used    *usage
	budget  errorBudget // errors reported, against MaxErrors
}

func (c *compiler) run() {
	c.b.Header = bundle.Header{FormatVersion: bundle.FormatVersion, CompilerVersion: Version, CELVersion: celenv.CELVersion}
	c.buildScopes()
	c.manifest()
	c.registry()
	c.toolDecls()
	c.grants()
	c.universe = celenv.NewUniverse(c.b.Decls.Tools)
	c.declareScopes()
	if c.root.env == nil {
		return // the environment could not be built: reported
	}
	c.predicates()
	c.threatModel()
	c.criteria()
	c.invariants()
	c.failures()
	c.gates()
	c.cases()
	c.sources()
	profiles, diags := profile.Check(c.mod.Profiles, c.root.params, ctyToGo)
	c.b.Decls.Profiles, c.diags = profiles, append(c.diags, diags...)
	c.tests()
	c.unmetered()
	c.requireThreatModel()
	c.warnUnused()
}

// requireThreatModel: every contract declares its threat model; one
// without a source cannot be evaluated (a warning: it may be a library).
func (c *compiler) requireThreatModel() {
	if c.mod.SyntaxErrors {
		return // the syntax error may well be what hid the block
	}
	for _, f := range c.mod.Files {
		if f.HCL == nil || f.HCL.Body == nil {
			// A file refused before parsing (nesting-too-deep,
			// string-too-large): its blocks are unknown, and saying they
			// are missing would be wrong.
			return
		}
	}
	first := hcl.Range{Start: hcl.InitialPos, End: hcl.InitialPos}
	if len(c.mod.Files) > 0 {
		first.Filename = c.mod.Files[0].Path
	}
	if ct := c.mod.Contract; ct != nil {
		first = ct.Range
	}
	if c.mod.ThreatModel == nil {
		c.errorf("missing-threat-model", first, "Missing threat model",
			"Every contract declares its threat model: add threat_model { injection_vectors = [...], attempt_budget = 1, exposure = \"...\" }.")
	}
	if len(c.mod.Sources) == 0 {
		c.warnf("no-source", first, "No source block", "Without a source block tenet eval cannot map transcript records to runs.")
	}
}

func (c *compiler) manifest() {
	m := &c.b.Manifest
	c.b.Plan.RunCostLimit = DefaultRunCostLimit
	c.costBudget = DefaultCostBudget
	if ct := c.mod.Contract; ct != nil {
		if ct.CostBudget != nil {
			if ct.CostBudget.Value < 1 {
				c.errorf("invalid-number", ct.CostBudget.Range, "Invalid cost budget", fmt.Sprintf("cost_budget must be at least 1, not %d.", ct.CostBudget.Value))
			} else {
				c.costBudget = uint64(ct.CostBudget.Value)
			}
		}
		if ct.RunCostLimit != nil {
			if ct.RunCostLimit.Value < 1 {
				c.errorf("invalid-number", ct.RunCostLimit.Range, "Invalid run cost limit", fmt.Sprintf("run_cost_limit must be at least 1, not %d.", ct.RunCostLimit.Value))
			} else {
				c.b.Plan.RunCostLimit = uint64(ct.RunCostLimit.Value)
			}
		}
		m.Contract = ct.Name.Value
		if ct.Version != nil {
			m.Version = ct.Version.Value
		}
		if ct.Description != nil {
			m.Description = ct.Description.Value
		}
	}
	seen := map[string]bool{}
	for _, s := range c.scopes {
		for _, f := range s.mod.Files {
			if seen[f.Path] {
				continue // a module imported twice, by different parents
			}
			seen[f.Path] = true
			sum := sha256.Sum256(f.Bytes)
			m.Files = append(m.Files, bundle.FileDigest{Path: f.Path, SHA256: hex.EncodeToString(sum[:])})
		}
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
}

// errorf and warnf report a diagnostic with its stable code (lang/diag).
func (c *compiler) errorf(code diag.Code, r hcl.Range, summary, detail string) {
	c.diags = append(c.diags, diag.Set(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: r.Ptr()}, code))
}

func (c *compiler) warnf(code diag.Code, r hcl.Range, summary, detail string) {
	c.diags = append(c.diags, diag.Set(&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: r.Ptr()}, code))
}

// didYouMean returns " Did you mean "x"?" for the nearest candidate, or "".
func didYouMean(name string, candidates []string) string {
	if s := diag.Suggest(name, candidates); s != "" {
		return ` Did you mean "` + s + `"?`
	}
	return ""
}

func rangeOf(r hcl.Range) bundle.Range {
	return bundle.Range{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CompileDir parses the contract in dir (lang.ParseDir, imports included)
// and compiles it. It compiles even after syntax-level errors, so that one
// call reports every mistake; the bundle is nil when any diagnostic is an
// error. The module is returned for its source files (diagnostic snippets)
// and test blocks; it may be nil when dir cannot be read.
func CompileDir(dir string, opt Options) (*lang.Module, *bundle.Bundle, hcl.Diagnostics) {
	mod, diags := lang.ParseDir(dir)
	if mod == nil || len(mod.Files) == 0 {
		return mod, nil, diags
	}
	b, cd := Compile(mod, opt)
	diags = append(diags, cd...)
	SortDiagnostics(diags)
	if diags.HasErrors() {
		return mod, nil, diags
	}
	return mod, b, diags
}
