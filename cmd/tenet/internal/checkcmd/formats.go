package checkcmd

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/internal/ghactions"
	"github.com/tenetlang/tenet/internal/sarif"
	"github.com/tenetlang/tenet/lang/diag"
)

// Diagnostic is one element of check's JSON output (--format json), an
// array in directory order, each directory's diagnostics in the order
// the text format prints them. Every member is always present; its shape
// is documented in docs/cli.md and does not change.
type Diagnostic struct {
	Contract string `json:"contract"` // the contract directory, as given
	Code     string `json:"code"`     // docs/diagnostics.md
	Severity string `json:"severity"` // "error" or "warning"
	// File is the source file, joined to the contract directory; Line
	// and Column (from 1, columns in bytes) where the diagnostic starts
	// and End where it ends. A diagnostic about the directory as a whole
	// has File "", Line and Column 0 and End null.
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	End     *Pos   `json:"end"`
	Message string `json:"message"` // the summary line
	Detail  string `json:"detail"`  // the explanation, "" when there is none
}

// Pos is a position in a file.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Diagnostics returns the JSON elements of one contract directory's
// diagnostics.
func Diagnostics(dir string, diags hcl.Diagnostics) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		x := Diagnostic{Contract: dir, Code: string(diag.Of(d)), Severity: severity(d), Message: d.Summary, Detail: d.Detail}
		if s := d.Subject; s != nil && s.Filename != "" {
			x.File, x.Line, x.Column = filepath.Join(dir, s.Filename), s.Start.Line, s.Start.Column
			x.End = &Pos{Line: s.End.Line, Column: s.End.Column}
		}
		out = append(out, x)
	}
	return out
}

func severity(d *hcl.Diagnostic) string {
	if d.Severity == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

func writeJSON(w io.Writer, cs []checked) error {
	all := []Diagnostic{}
	for _, c := range cs {
		all = append(all, Diagnostics(c.dir, c.diags)...)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(all)
}

// DocsURL is where each code is documented: DocsURL + "#" + code.
const DocsURL = "https://github.com/tenetlang/tenet/blob/main/docs/diagnostics.md"

// writeSARIF is one SARIF run: a rule per code reported (its title and
// documentation from lang/diag's registry), a result per diagnostic at
// its file and line, files as given (relative to the repository root
// when tenet runs there, as in CI).
func writeSARIF(w io.Writer, cs []checked, version string) error {
	run := sarif.Run{Tool: sarif.Tool{Driver: sarif.Driver{Name: "tenet", Version: version, InformationURI: "https://github.com/tenetlang/tenet"}}, Results: []sarif.Result{}}
	seen := map[string]bool{}
	for _, c := range cs {
		for _, d := range Diagnostics(c.dir, c.diags) {
			if !seen[d.Code] {
				seen[d.Code] = true
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule(diag.Code(d.Code)))
			}
			msg := d.Message
			if d.Detail != "" {
				msg += ": " + d.Detail
			}
			loc := sarif.At(d.Contract, 0, 0)
			if d.File != "" {
				loc = sarif.At(d.File, d.Line, d.Column)
				if d.End != nil && (d.End.Line > d.Line || d.End.Line == d.Line && d.End.Column > d.Column) {
					loc.PhysicalLocation.Region.EndLine, loc.PhysicalLocation.Region.EndColumn = d.End.Line, d.End.Column
				}
			}
			level := sarif.Error
			if d.Severity == "warning" {
				level = sarif.Warning
			}
			run.Results = append(run.Results, sarif.Result{RuleID: d.Code, Level: level, Message: sarif.Message{Text: msg}, Locations: []sarif.Location{loc}})
		}
	}
	return sarif.Write(w, sarif.NewLog(run), sarif.GitHub)
}

// rule describes a code from lang/diag's registry.
func rule(code diag.Code) sarif.Rule {
	r := sarif.Rule{ID: string(code), HelpURI: DocsURL + "#" + string(code)}
	if info, ok := diag.Lookup(code); ok {
		level := sarif.Error
		if info.Severity == hcl.DiagWarning {
			level = sarif.Warning
		}
		r.ShortDescription, r.FullDescription, r.Help = sarif.Text(info.Title), sarif.Text(info.Doc), sarif.Text(info.Doc)
		r.DefaultConfiguration = &sarif.Configuration{Level: level}
	}
	return r
}

// annotations are the GitHub workflow commands of every diagnostic.
func annotations(cs []checked) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range cs {
		for _, d := range Diagnostics(c.dir, c.diags) {
			a := ghactions.Annotation{Level: ghactions.Error, File: d.File, Line: d.Line, Column: d.Column, Title: "[" + d.Code + "] " + d.Message, Message: d.Message}
			if d.Detail != "" {
				a.Message = d.Detail
			}
			if d.Severity == "warning" {
				a.Level = ghactions.Warning
			}
			if a.File == "" {
				a.File = d.Contract
			}
			out = append(out, a)
		}
	}
	return out
}
