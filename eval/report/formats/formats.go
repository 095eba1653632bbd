// Package formats is the one table of report formats: each name that
// --format accepts, with the renderer that writes a report.Document in it.
// A new format is a renderer (a func(io.Writer, *report.Document) error,
// in eval/report or a package of its own) and one row here.
//
// It imports eval/report and every renderer package; through
// eval/report/html, and only through it, it depends on gonum/plot. A
// program that renders one format imports that renderer, not this table.
package formats

import (
	"fmt"
	"io"
	"strings"

	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/brief"
	"github.com/tenetlang/tenet/eval/report/github"
	"github.com/tenetlang/tenet/eval/report/html"
	"github.com/tenetlang/tenet/eval/report/jsonreport"
	"github.com/tenetlang/tenet/eval/report/junit"
	"github.com/tenetlang/tenet/eval/report/markdown"
	"github.com/tenetlang/tenet/eval/report/sarif"
)

// Renderer writes a Document in one format. The same Document gives the
// same bytes.
type Renderer func(w io.Writer, d *report.Document) error

// Format is one row of the table.
type Format struct {
	Name   string // the --format value
	Render Renderer
}

// Failures reports whether the format holds only the report's failures,
// each at its source line (sarif, github): it lists no runs, so it has no
// list to cut.
func (f Format) Failures() bool { return f.Name == "sarif" || f.Name == "github" }

// All returns the table, in the order help text gives the formats: the
// default (table) first. Each call returns a new slice: the table is not
// shared mutable state.
func All() []Format {
	return []Format{
		{"table", brief.Write},            // a summary within 120 columns, the default
		{"table-full", report.WriteTable}, // every plain-text table (--detail)
		{"json", jsonreport.Write},        // docs/report-schema.json
		{"markdown", markdown.Write},      // GitHub-flavoured, for a PR comment
		{"junit", junit.Write},            // JUnit XML, for CI test reports
		{"html", html.Write},              // one self-contained page with plots
		{"sarif", sarif.Write},            // SARIF 2.1.0, for GitHub code scanning (failures only)
		{"github", github.Write},          // GitHub Actions workflow commands (failures only)
	}
}

// Names returns the format names, in table order.
func Names() []string {
	var out []string
	for _, f := range All() {
		out = append(out, f.Name)
	}
	return out
}

// Lookup returns the renderer of the named format.
func Lookup(name string) (Renderer, bool) {
	for _, f := range All() {
		if f.Name == name {
			return f.Render, true
		}
	}
	return nil, false
}

// Write renders d in the named format. An unknown format is an error that
// lists the known ones.
func Write(w io.Writer, d *report.Document, name string) error {
	r, ok := Lookup(name)
	if !ok {
		return fmt.Errorf("unknown format %q: want %s", name, strings.Join(Names(), ", "))
	}
	return r(w, d)
}
