// Package describe is the machine-readable description of what a bundle
// holds (tenet inspect --format json): its identity, contract, tools,
// tasks, goals, cases, invariants with their severity, failure classes,
// gates, grants, profiles and sources, each criterion as its source text.
// The shape is stable (docs/cli.md documents it, Schema names its
// version): fields are only ever added; a change of meaning changes
// Schema. Lists are never null, so that a reader need not tell an absent
// list from an empty one.
package describe

import "github.com/tenetlang/tenet/compiler/bundle"

// Schema names the shape of Document, for readers to check.
const Schema = "tenet-inspect/1"

// Document is the description of one or more contracts: one entry per
// contract of the argument, in its order.
type Document struct {
	Schema    string     `json:"schema"`
	Contracts []Contract `json:"contracts"`
}

// Contract describes one bundle.
type Contract struct {
	Path        string      `json:"path"` // the bundle file or contract directory it was read from
	ID          string      `json:"id"`
	Bytes       int         `json:"bytes"`   // the bundle file's size; 0 for a directory compiled in memory
	Signers     []string    `json:"signers"` // key fingerprints
	Header      Header      `json:"header"`
	Name        string      `json:"name"`
	Version     string      `json:"version"`
	Description string      `json:"description"`
	Files       []File      `json:"files"`
	ThreatModel ThreatModel `json:"threat_model"`
	Tools       []Tool      `json:"tools"`
	Grants      []Grant     `json:"grants"`
	Profiles    []Profile   `json:"profiles"`
	Tasks       []Task      `json:"tasks"`
	Goals       []Goal      `json:"goals"`
	Cases       []Case      `json:"cases"`
	SideEffects []Named     `json:"side_effects"`
	Invariants  []Invariant `json:"invariants"`
	Failures    []Named     `json:"failures"`
	Gates       []Gate      `json:"gates"`
	Sources     []Source    `json:"sources"`
	Params      []Param     `json:"params"` // the contract's own params (profiles override them)
	Exprs       int         `json:"expressions"`
	Patterns    int         `json:"patterns"`
}

// Header is the bundle format and the versions that compiled it.
type Header struct {
	FormatVersion   int    `json:"format_version"`
	CompilerVersion string `json:"compiler_version"`
	CELVersion      string `json:"cel_version"`
}

// File is a source file the bundle was compiled from.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ThreatModel is the contract's threat model.
type ThreatModel struct {
	Declared         bool     `json:"declared"`
	InjectionVectors []string `json:"injection_vectors"`
	AdversarySees    []string `json:"adversary_sees"`
	AttemptBudget    int      `json:"attempt_budget"`
	Exposure         *string  `json:"exposure"` // the CEL text; null when none
}

// Tool is a declared tool.
type Tool struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Operation   string  `json:"operation"`
	Resource    string  `json:"resource"` // the parameter naming the resource; "" when none
	Params      []Field `json:"params"`
}

// Field is a tool parameter: its type in contract syntax.
type Field struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Optional bool   `json:"optional"`
}

// Grant is a grant: the operations it allows, on which resources.
type Grant struct {
	Name   string  `json:"name"`
	Allows []Allow `json:"allows"`
}

// Allow is one operation a grant allows.
type Allow struct {
	Operation string   `json:"operation"`
	Resources []string `json:"resources"`
}

// Profile is a named set of param overrides.
type Profile struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"params"`
}

// Param is a param and its value.
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Criterion is how a label is computed: a CEL expression and trace
// patterns, all of which must hold (a negated pattern must not match).
type Criterion struct {
	Expr     *string   `json:"expr"` // null when none
	Patterns []Pattern `json:"patterns"`
}

// Pattern is a trace pattern of a criterion.
type Pattern struct {
	Text   string `json:"text"`
	Negate bool   `json:"negate"` // an invariant's forbid: the pattern must not match
}

// Location is a position in the contract's sources, the file relative to
// the contract directory (as Files).
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Task is a task and its utility criterion.
type Task struct {
	ID       string    `json:"id"`
	Prompt   string    `json:"prompt"`
	Utility  Criterion `json:"criterion"` // utility
	Variants []string  `json:"variants"`
}

// Goal is an injection goal and its success criterion.
type Goal struct {
	ID       string    `json:"id"`
	Summary  string    `json:"summary"`
	Success  Criterion `json:"criterion"` // attack success
	Variants []string  `json:"variants"`
}

// Case is a security case: a (task, goal) pair the contract judges (every
// task is also judged benign, without a goal).
type Case struct {
	Task string `json:"task"`
	Goal string `json:"goal"`
}

// Named is a side effect or failure class: its criterion.
type Named struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	When        Criterion `json:"criterion"`
}

// Invariant is an invariant: its severity, and what must hold.
type Invariant struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Severity    string    `json:"severity"`  // low, medium, high or critical
	Holds       Criterion `json:"criterion"` // what must hold
	At          *Location `json:"at"`        // its first expression or pattern; null when unknown
}

// Gate is a set of release requirements.
type Gate struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Conditions  []string `json:"conditions"` // empty: every condition
	Require     []string `json:"require"`    // CEL texts
}

// Source is how transcript records become runs.
type Source struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	Grant  string `json:"grant"` // "" when none
}

// Of describes the bundle c with id, read from path (size bytes, 0 for a
// directory compiled in memory), signed by the keys with fingerprints
// signers.
func Of(c *bundle.Bundle, id, path string, size int, signers []string) Contract {
	d := describer{c}
	m := c.Manifest
	tm := m.ThreatModel
	out := Contract{
		Path: path, ID: id, Bytes: size, Signers: list(signers),
		Header: Header{c.Header.FormatVersion, c.Header.CompilerVersion, c.Header.CELVersion},
		Name:   m.Contract, Version: m.Version, Description: m.Description,
		Files:       mapList(m.Files, func(f bundle.FileDigest) File { return File(f) }),
		ThreatModel: ThreatModel{tm.Declared, list(tm.InjectionVectors), list(tm.AdversarySees), tm.AttemptBudget, d.text(tm.Exposure)},
		Tools: mapList(c.Decls.Tools, func(t bundle.Tool) Tool {
			return Tool{t.Name, t.Description, t.Operation, t.Resource, mapList(t.Params, func(f bundle.Field) Field {
				return Field{f.Name, f.Type.String(), f.Optional}
			})}
		}),
		Grants: mapList(c.Decls.Grants, func(g bundle.Grant) Grant {
			return Grant{g.Name, mapList(g.Allows, func(a bundle.Allow) Allow { return Allow{a.Operation, list(a.Resources)} })}
		}),
		Profiles: mapList(c.Decls.Profiles, func(p bundle.Profile) Profile {
			return Profile{p.Name, p.Description, mapList(p.Params, param)}
		}),
		Tasks: mapList(c.Plan.Tasks, func(t bundle.TaskPlan) Task {
			return Task{t.ID, t.Prompt, d.criterion(t.Utility), variants(t.Variants)}
		}),
		Goals: mapList(c.Plan.Goals, func(g bundle.GoalPlan) Goal {
			return Goal{g.ID, g.Summary, d.criterion(g.Success), variants(g.Variants)}
		}),
		Cases: mapList(c.Plan.Cases, func(k bundle.Case) Case { return Case(k) }),
		SideEffects: mapList(c.Plan.SideEffects, func(s bundle.SideEffectPlan) Named {
			return Named{Name: s.Name, When: d.criterion(s.When)}
		}),
		Invariants: mapList(c.Plan.Invariants, func(i bundle.InvariantPlan) Invariant {
			return Invariant{i.Name, i.Description, i.Severity, d.criterion(i.Holds), d.at(i.Holds)}
		}),
		Failures: mapList(c.Plan.Failures, func(f bundle.FailurePlan) Named {
			return Named{f.Name, f.Description, d.criterion(f.When)}
		}),
		Gates: mapList(c.Plan.Gates, func(g bundle.GatePlan) Gate {
			return Gate{g.Name, g.Description, list(g.Conditions), mapList(g.Require, func(e int) string { return *d.text(e) })}
		}),
		Sources:  mapList(c.Plan.Sources, func(s bundle.SourcePlan) Source { return Source{s.Name, s.Format, s.Grant} }),
		Exprs:    len(c.Exprs),
		Patterns: len(c.Plan.Patterns),
		Params:   []Param{},
	}
	if len(c.Decls.Scopes) > 0 {
		out.Params = mapList(c.Decls.Scopes[0].Params, param)
	}
	return out
}

type describer struct{ c *bundle.Bundle }

// text is expression i's text, nil for bundle.NoExpr (or an index out of
// range, which a bundle that passed its load checks does not have).
func (d describer) text(i int) *string {
	if i < 0 || i >= len(d.c.Exprs) {
		return nil
	}
	return &d.c.Exprs[i].Text
}

func (d describer) criterion(c bundle.Criterion) Criterion {
	out := Criterion{Expr: d.text(c.Expr), Patterns: []Pattern{}}
	for _, u := range c.Patterns {
		if u.Pattern >= 0 && u.Pattern < len(d.c.Plan.Patterns) {
			out.Patterns = append(out.Patterns, Pattern{d.c.Plan.Patterns[u.Pattern].Text, u.Negate})
		}
	}
	return out
}

// at is where a criterion is written: its expression's start, else its
// first pattern's.
func (d describer) at(c bundle.Criterion) *Location {
	var r bundle.Range
	switch {
	case c.Expr >= 0 && c.Expr < len(d.c.Exprs):
		r = d.c.Exprs[c.Expr].Range
	case len(c.Patterns) > 0 && c.Patterns[0].Pattern >= 0 && c.Patterns[0].Pattern < len(d.c.Plan.Patterns):
		r = d.c.Plan.Patterns[c.Patterns[0].Pattern].Range
	default:
		return nil
	}
	return &Location{r.File, r.Line}
}

func param(p bundle.Param) Param { return Param{p.Name, p.Value} }

func variants(vs []bundle.VariantPlan) []string {
	return mapList(vs, func(v bundle.VariantPlan) string { return v.Name })
}

// list is s, empty rather than nil.
func list[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// mapList is f applied to each element, empty rather than nil.
func mapList[T, U any](s []T, f func(T) U) []U {
	out := make([]U, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}
